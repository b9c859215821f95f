import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ResourceEngine
import ResourceEngineTesting
import Testing

/// Every distinct request has its own state: `withLoadRequest` gives a POST (or a GET with headers
/// of its own) a resource of its own, while `service.resource(url)` stays one per URL.
@MainActor
@Suite struct LoadRequestTests {
    let h = Harness()
    var url: String { h.service.resource("/search").url.absoluteString }

    private func bodyText(_ request: OutgoingRequest?) -> String? {
        request?.httpBody.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func differentBodiesToOneURLHaveTheirOwnState() async throws {
        h.network.stub(.post, url) { request in
            .json(#"{"echo":\#(String(decoding: request.httpBody ?? Data(), as: UTF8.self))}"#)
        }
        let plain = h.service.resource("/search")
        let a = plain.withLoadRequest(try .json(.post, ["q": "a"]))
        let b = plain.withLoadRequest(try .json(.post, ["q": "b"]))
        #expect(a !== b && a !== plain && b !== plain)
        #expect(a.url == plain.url && b.url == plain.url, "the same URL, configuration and pipeline")
        _ = try await a.load().awaitResult()
        _ = try await b.load().awaitResult()
        #expect(a.jsonDict["echo"] == ["q": "a"])
        #expect(b.jsonDict["echo"] == ["q": "b"])
        #expect(plain.latestData == nil, "the URL's own (GET) resource is untouched")
        #expect(h.network.receivedRequests.map(\.httpMethod) == ["POST", "POST"])
        #expect(h.network.receivedRequests.map { bodyText($0) } == [#"{"q":"a"}"#, #"{"q":"b"}"#])
        #expect(h.network.receivedRequests.allSatisfy { $0.value(forHTTPHeaderField: "Content-Type") == "application/json" })
    }

    @Test func omittedHeadersAreRemovedAfterEveryConfiguredMutationAndTimeoutsAreTheirOwn() async throws {
        h.service.configure("**") {
            $0.headers["Authorization"] = "Bearer configured"
            $0.timeout = 30
            $0.mutateRequests { $0.setValue("Bearer mutated", forHTTPHeaderField: "Authorization") }
        }
        let plain = h.resource
        let bare = h.resource.withLoadRequest(LoadRequest(omittedHeaders: ["authorization"], timeout: 2))
        #expect(bare !== plain, "a request without credentials is another request")
        h.network.stub(.get, plain.url.absoluteString, .text("ok"))
        _ = try await plain.load().awaitResult()
        _ = try await bare.load().awaitResult()
        let sent = h.network.receivedRequests
        try #require(sent.count == 2)
        #expect(sent[0].value(forHTTPHeaderField: "Authorization") == "Bearer mutated")
        #expect(sent[0].timeoutInterval == 30)
        #expect(sent[1].value(forHTTPHeaderField: "Authorization") == nil)
        #expect(sent[1].timeoutInterval == 2)
    }

    @Test func identicalLoadRequestsShareOneResourceAndOneLoad() throws {
        h.network.holdsResponses = true
        let first = h.service.resource("/search").withLoadRequest(try .json(.post, ["q": "a"]))
        let second = h.service.resource(absoluteURL: url).withLoadRequest(try .json(.post, ["q": "a"]))
        #expect(first === second)
        let load = first.loadIfNeeded()
        #expect(second.loadIfNeeded() === load, "a second user joins the load in flight")
        #expect(h.network.receivedRequests.count == 1)
    }

    @Test func aGETAndAPOSTOnOneURLAreBothSent() async throws {
        h.network.stub(.get, url, .json(#"{"method":"GET"}"#))
        h.network.stub(.post, url, .json(#"{"method":"POST"}"#))
        let get = h.service.resource("/search")
        let post = get.withLoadRequest(LoadRequest(method: .post))
        _ = try await get.loadIfNeeded()?.awaitResult()
        _ = try await post.loadIfNeeded()?.awaitResult()
        #expect(get.jsonDict["method"] == "GET")
        #expect(post.jsonDict["method"] == "POST")
        #expect(get.withLoadRequest(LoadRequest()) === get, "a plain GET load request is the URL's own resource")
        #expect(get.withLoadRequest(nil) === get)
    }

    @Test func headersOfTheLoadRequestMakeItDistinctAndWinOverConfiguredOnes() async throws {
        h.service.configure("**") { $0.headers["Accept-Language"] = "en" }
        h.network.stub(.get, url, .json("{}"))
        let english = h.service.resource("/search")
        let german = english.withLoadRequest(LoadRequest(headers: ["Accept-Language": "de"]))
        #expect(german !== english)
        _ = try await english.load().awaitResult()
        _ = try await german.load().awaitResult()
        #expect(h.network.receivedRequests.map { $0.value(forHTTPHeaderField: "Accept-Language") } == ["en", "de"])
    }

    @Test func aPOSTLoadNeverSendsIfNoneMatch() async throws {
        h.network.stub(.post, url, .json("{}", headers: ["ETag": "\"v1\""]))
        let post = h.service.resource("/search").withLoadRequest(try .json(.post, ["q": "a"]))
        _ = try await post.load().awaitResult()
        _ = try await post.load().awaitResult()
        #expect(h.network.receivedRequests.allSatisfy { $0.value(forHTTPHeaderField: "If-None-Match") == nil })
    }

    @Test func keysDifferExactlyWhenTheRequestDiffers() throws {
        let a = try LoadRequest.json(.post, ["q": "a"])
        #expect(a == (try LoadRequest.json(.post, ["q": "a"])))
        #expect(a.key != (try LoadRequest.json(.post, ["q": "b"])).key)
        #expect(a.key != (try LoadRequest.json(.put, ["q": "a"])).key)
        #expect(a.key != LoadRequest(method: .post, body: a.body, contentType: "text/plain").key)
        let token = LoadRequest(headers: ["Authorization": "Bearer s3cret-token"])
        #expect(token.key == LoadRequest(headers: ["authorization": "Bearer s3cret-token"]).key, "header names ignore case")
        #expect(!token.key.contains("s3cret"), "keys may name cache files; they never hold a header's value")
        #expect(LoadRequest().isPlainGET && !token.isPlainGET)
    }

    @Test func describesItselfWithItsMethod() throws {
        let post = h.service.resource("/search").withLoadRequest(try .json(.post, ["q": "a"]))
        #expect(post.description.hasPrefix("Resource(POST …/search"))
        #expect(post.identity.hasPrefix(url + "\u{0}POST"))
        #expect(h.service.resource("/search").identity == url)
    }
}
