import Foundation
import FoundationNetworking
import ResourceEngine
import ResourceEngineTesting
import Testing

@MainActor
@Suite struct RequestTests {
    let h = Harness()

    // MARK: Hooks

    @Test func methodsByWireNameAndAsKeys() {
        #expect(RequestMethod.allCases.map(\.httpName) == ["OPTIONS", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"])
        for method in RequestMethod.allCases {
            #expect(RequestMethod(httpName: method.httpName) == method)
            #expect(RequestMethod(httpName: method.rawValue) == method, "names are matched in any case")
        }
        #expect(RequestMethod(httpName: "Patch") == .patch)
        #expect(RequestMethod(httpName: "BREW") == .get)
        #expect(RequestMethod(httpName: nil) == .get)
        #expect(Set(RequestMethod.allCases).count == RequestMethod.allCases.count)
        let byMethod = Dictionary(uniqueKeysWithValues: RequestMethod.allCases.map { ($0, $0.httpName) })
        #expect(byMethod[.delete] == "DELETE")
    }

    @Test func hooksFireAsynchronouslyOnceInOrder() async throws {
        h.stubText(h.resource, "x")
        var calls: [String] = []
        let request = h.resource.request(.get)
            .onCompletion { _ in calls.append("completion") }
            .onSuccess { _ in calls.append("success") }
            .onNewData { _ in calls.append("newData") }
            .onNotModified { calls.append("notModified") }
            .onFailure { _ in calls.append("failure") }
        #expect(calls.isEmpty)
        _ = try await request.awaitResult()
        #expect(calls == ["completion", "success", "newData"])
    }

    @Test func hooksAddedAfterCompletionStillFireAsynchronously() async throws {
        h.stubText(h.resource, "x")
        let request = h.resource.request(.get)
        _ = try await request.awaitResult()
        var fired = false
        request.onSuccess { _ in fired = true }
        #expect(!fired, "never synchronously")
        try await drainMainQueue()
        #expect(fired)
    }

    @Test func successHooksFireOnNotModifiedButNewDataDoesNot() async throws {
        h.stubText(h.resource, "x", headers: ["ETag": "1"])
        _ = try await h.resource.load().awaitResult()
        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 304))
        var calls: [String] = []
        let request = h.resource.load()
            .onSuccess { _ in calls.append("success") }
            .onNewData { _ in calls.append("newData") }
            .onNotModified { calls.append("notModified") }
        _ = try await request.awaitResult()
        #expect(calls == ["success", "notModified"])
    }

    @Test func failureHooksFireOnHTTPErrors() async throws {
        h.stubText(h.resource, "x", status: 500)
        var messages: [String] = []
        let request = h.resource.request(.get).onFailure { messages.append($0.userMessage) }
        _ = try await request.awaitResult()
        #expect(messages == ["Internal Server Error"])
    }

    @Test func progressReachesOneBeforeCompletion() async throws {
        h.stubText(h.resource, "x")
        var calls: [String] = []
        let request = h.resource.request(.get)
            .onProgress { calls.append("progress \($0)") }
            .onCompletion { _ in calls.append("completion") }
        _ = try await request.awaitResult()
        #expect(calls.last == "completion")
        #expect(calls.dropLast().last == "progress 1.0")
        #expect(request.progress == 1)
    }

    @Test func asyncResultBridgesTheOutcome() async throws {
        h.stubText(h.resource, "bridged")
        let response = await h.resource.load().result
        #expect(response.entity?.bodyText == "bridged")
        h.stubText(h.resource, "x", status: 404)
        let failure = await h.resource.load().result
        #expect(failure.error?.httpStatusCode == 404)
    }

    // MARK: Cancel

    @Test func cancelCompletesAtOnceAndIgnoresALaterResponse() async throws {
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        var outcomes: [String] = []
        let request = h.resource.request(.get)
            .onSuccess { _ in outcomes.append("success") }
            .onFailure { outcomes.append($0.userMessage) }
        request.cancel()
        #expect(request.isCompleted)
        h.network.releaseAll()
        _ = try await request.awaitResult()
        try await drainMainQueue(turns: 3)
        #expect(outcomes == ["Request cancelled"])
        #expect(h.network.cancelledCount == 1)
    }

    @Test func cancelHasNoEffectIfItAlreadySucceeded() async throws {
        h.stubText(h.resource, "x")
        let request = h.resource.request(.get)
        _ = try await request.awaitResult()
        request.cancel()
        #expect(try await request.awaitResult().entity?.bodyText == "x")
    }

    @Test func cancellingAnUnstartedRequestCompletesIt() async throws {
        h.stubText(h.resource, "x")
        let request = h.resource.request(.get).repeated()
        request.cancel()
        request.start()
        #expect(try await request.awaitResult().isCancellation)
        #expect(h.network.receivedRequests.count == 1)
    }

    // MARK: repeated

    @Test func repeatedDoesNotSendTheRequestAutomatically() async throws {
        h.stubText(h.resource, "x")
        let request = h.resource.request(.get)
        _ = try await request.awaitResult()
        let again = request.repeated()
        #expect(again.state == .notStarted)
        #expect(h.network.receivedRequests.count == 1)
        again.start()
        _ = try await again.awaitResult()
        #expect(h.network.receivedRequests.count == 2)
    }

    @Test func repeatedPicksUpHeaderConfigChanges() async throws {
        final class Token { var value = "old" }
        let token = Token()
        h.service.configure("**") { $0.headers["Token"] = token.value }
        h.stubText(h.resource, "x")
        let request = h.resource.request(.get)
        _ = try await request.awaitResult()
        token.value = "new"
        h.service.invalidateConfiguration()
        _ = try await request.repeated().start().awaitResult()
        #expect(h.network.receivedRequests.map { $0.value(forHTTPHeaderField: "Token") } == ["old", "new"])
    }

    @Test func repeatedDoesNotRepeatDecorations() async throws {
        var decorated = 0
        h.service.configure("**") {
            $0.decorateRequests { _, request in
                decorated += 1
                return request
            }
        }
        h.stubText(h.resource, "x")
        let request = h.resource.request(.get)
        _ = try await request.awaitResult()
        _ = try await request.repeated().start().awaitResult()
        #expect(decorated == 1)
    }

    @Test func repeatedLoadDoesNotUpdateTheResource() async throws {
        h.stubText(h.resource, "first")
        let load = h.resource.load()
        _ = try await load.awaitResult()
        h.stubText(h.resource, "second")
        _ = try await load.repeated().start().awaitResult()
        #expect(h.resource.latestData?.bodyText == "first")
    }

    // MARK: Mutators and decorators

    @Test func mutatorsCanReadAndAlterTheBody() async throws {
        h.service.configure("**") { config in
            config.mutateRequests { request in
                let body = request.httpBody.flatMap { String(data: $0, encoding: .utf8) } ?? ""
                request.httpBody = Data((body + "!").utf8)
            }
        }
        h.network.stub(.post, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.post, text: "hi").awaitResult()
        #expect(h.network.receivedRequests[0].httpBody == Data("hi!".utf8))
    }

    @Test func configuredMutatorsOverrideTheContentType() async throws {
        h.service.configure("**") { config in
            config.headers["Content-Type"] = "from/headers"
            config.mutateRequests { $0.setValue("from/mutator", forHTTPHeaderField: "Content-Type") }
        }
        h.network.stub(.post, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.post, text: "hi").awaitResult()
        #expect(h.network.receivedRequests[0].value(forHTTPHeaderField: "Content-Type") == "from/mutator")
    }

    @Test func adHocMutationOverridesHeadersAndContentTypeArgument() async throws {
        h.service.configure("**") { $0.headers["Content-Type"] = "from/headers" }
        h.network.stub(.post, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.post, text: "hi") {
            $0.setValue("from/adhoc", forHTTPHeaderField: "Content-Type")
        }.awaitResult()
        _ = try await h.resource.request(.post, text: "hi").awaitResult()
        #expect(h.network.receivedRequests[0].value(forHTTPHeaderField: "Content-Type") == "from/adhoc")
        #expect(h.network.receivedRequests[1].value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
    }

    @Test func decoratorsCanPreemptivelyCancelRequests() async throws {
        h.service.configure("**") {
            $0.decorateRequests { _, request in
                request.cancel()
                return request
            }
        }
        h.stubText(h.resource, "x")
        #expect(try await h.resource.load().awaitResult().isCancellation)
        #expect(h.network.receivedRequests.isEmpty)
    }

    @Test func downstreamDecoratorsSeeTheReplacementAndTheOriginalIsNotStarted() async throws {
        var seen: [String] = []
        h.service.configure("**") {
            $0.decorateRequests { _, _ in
                Resource.hardWiredRequest(returning: .success(Entity(content: "substitute", timestamp: 0)))
            }
            $0.decorateRequests { _, request in
                seen.append(request.requestDescription)
                return request
            }
        }
        h.stubText(h.resource, "x")
        let response = try await h.resource.load().awaitResult()
        #expect(response.entity?.content as? String == "substitute")
        #expect(seen == ["hard-wired success"])
        #expect(h.network.receivedRequests.isEmpty)
        #expect(h.resource.text == "substitute")
    }

    @Test func decoratorsComeFromThePostMutationMethod() async throws {
        var decoratedFor: [String] = []
        h.service.configure("**", requestMethods: [.get]) {
            $0.mutateRequests { $0.httpMethod = "POST" }
            $0.decorateRequests { _, r in decoratedFor.append("get"); return r }
        }
        h.service.configure("**", requestMethods: [.post]) {
            $0.decorateRequests { _, r in decoratedFor.append("post"); return r }
        }
        h.network.stub(nil, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.get).awaitResult()
        #expect(decoratedFor == ["post"])
        #expect(h.network.receivedRequests[0].httpMethod == "POST")
    }

    // MARK: Chains

    @Test func chainIsNotCompletedUntilTheWrappedRequestCompletes() async throws {
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let chain = h.resource.request(.get).chained { _ in .useThisResponse }
        #expect(!chain.isCompleted)
        h.network.releaseAll()
        #expect(try await chain.awaitResult().entity?.bodyText == "x")
    }

    @Test func chainCanSubstituteAResponse() async throws {
        h.stubText(h.resource, "x", status: 500)
        let chain = h.resource.request(.get).chained { _ in
            .useResponse(ResponseInfo(response: .success(Entity(content: "recovered", timestamp: 0))))
        }
        #expect(try await chain.awaitResult().entity?.content as? String == "recovered")
    }

    @Test func chainCanPassToAnotherRequest() async throws {
        let token = h.service.resource("/token")
        h.network.stub(.post, token.url.absoluteString, .text("new-token"))
        h.stubText(h.resource, "denied", status: 401)
        let original = h.resource.request(.get)
        let chain = original.chained { info in
            if info.response.error?.httpStatusCode == 401 {
                return .passTo(token.request(.post))
            }
            return .useThisResponse
        }
        #expect(try await chain.awaitResult().entity?.bodyText == "new-token")
    }

    @Test func cancellingTheChainStopsItAndNeverRunsTheClosure() async throws {
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        var closureRan = false
        let wrapped = h.resource.request(.get)
        let chain = wrapped.chained { _ in
            closureRan = true
            return .useThisResponse
        }
        chain.cancel()
        #expect(try await chain.awaitResult().isCancellation)
        #expect(try await wrapped.awaitResult().isCancellation)
        try await drainMainQueue(turns: 2)
        #expect(!closureRan)
    }

    @Test func cancellingTheUnderlyingRequestDoesNotStopTheChain() async throws {
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let wrapped = h.resource.request(.get)
        let chain = wrapped.chained { info in
            info.response.isCancellation
                ? .useResponse(ResponseInfo(response: .success(Entity(content: "after cancel", timestamp: 0))))
                : .useThisResponse
        }
        wrapped.cancel()
        #expect(try await chain.awaitResult().entity?.content as? String == "after cancel")
    }

    @Test func repeatingAChainRerunsTheChainLogicAfresh() async throws {
        h.stubText(h.resource, "x")
        var runs = 0
        let chain = h.resource.request(.get).chained { _ in
            runs += 1
            return .useThisResponse
        }
        _ = try await chain.awaitResult()
        _ = try await chain.repeated().start().awaitResult()
        #expect(runs == 2)
        #expect(h.network.receivedRequests.count == 2)
    }

    // MARK: Bodies

    @Test func textBodiesCarryTheirCharset() async throws {
        h.network.stub(.post, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.post, text: "café", encoding: .isoLatin1).awaitResult()
        let sent = h.network.receivedRequests[0]
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=iso-8859-1")
        #expect(sent.httpBody == Data([0x63, 0x61, 0x66, 0xE9]))
    }

    @Test func unencodableTextFailsWithoutSending() async throws {
        let error = try #require(try await h.resource.request(.post, text: "日本", encoding: .ascii).awaitResult().error)
        #expect(error.userMessage == "Cannot send request")
        #expect(error.cause is RequestError.Cause.UnencodableText)
        #expect(h.network.receivedRequests.isEmpty)
    }

    @Test func jsonBodies() async throws {
        h.network.stub(.post, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.post, json: ["query": "status:failed", "limit": 5, "tags": ["a", nil]]).awaitResult()
        let sent = h.network.receivedRequests[0]
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(sent.httpBody.flatMap { String(data: $0, encoding: .utf8) } == #"{"query":"status:failed","limit":5,"tags":["a",null]}"#)
    }

    @Test func invalidJSONFailsWithoutSending() async throws {
        let error = try #require(try await h.resource.request(.post, json: ["bad": .double(.nan)]).awaitResult().error)
        #expect(error.cause is RequestError.Cause.InvalidJSONObject)
        #expect(h.network.receivedRequests.isEmpty)
    }

    @Test func urlEncodedBodiesAreSortedAndEscaped() async throws {
        h.network.stub(.post, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.post, urlEncoded: ["zz": "last", "a b": "c&d=e+f", "m": "ü"]).awaitResult()
        let sent = h.network.receivedRequests[0]
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(sent.httpBody.flatMap { String(data: $0, encoding: .utf8) } == "a%20b=c%26d%3De%2Bf&m=%C3%BC&zz=last")
    }

    /// Siesta sorts the escaped `name=value` strings, not the raw names.
    @Test func urlEncodedPairsAreSortedAfterEscaping() async throws {
        h.network.stub(.post, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.post, urlEncoded: ["z": "1", "ü": "2", "a": "z", "a=": "b"]).awaitResult()
        let body = try #require(h.network.receivedRequests.first).httpBody.flatMap { String(data: $0, encoding: .utf8) }
        #expect(body == "%C3%BC=2&a%3D=b&a=z&z=1")
    }

    @Test func textBodiesInCharsetsFoundationCannotWriteAreEncodedByIconv() async throws {
        h.network.stub(.post, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.post, text: "日本", encoding: .japaneseEUC).awaitResult()
        let sent = try #require(h.network.receivedRequests.first)
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=euc-jp")
        #expect(sent.httpBody == Data([0xC6, 0xFC, 0xCB, 0xDC]))
    }

    // MARK: Requests that are not network requests

    @Test func failedAndHardWiredRequestsAreAlreadyCompleted() async throws {
        let failed = Resource.failedRequest(returning: RequestError(userMessage: "nope", cause: nil))
        #expect(failed.isCompleted)
        #expect(try await failed.awaitResult().error?.userMessage == "nope")
        #expect(failed.repeated() === failed)
        let wired = Resource.hardWiredRequest(returning: .success(Entity(content: 1, timestamp: 0)))
        #expect(try await wired.awaitResult().entity?.content as? Int == 1)
    }

    @Test func customDelegateIgnoresResponsesAfterTheFirst() async throws {
        let delegate = ManualDelegate()
        let request = Resource.prepareRequest(using: delegate)
        #expect(request.state == .notStarted)
        request.start()
        delegate.handler?.broadcastResponse(ResponseInfo(response: .success(Entity(content: "first", timestamp: 0))))
        #expect(delegate.handler?.willIgnore(ResponseInfo(response: .success(Entity(content: "second", timestamp: 0)))) == true)
        delegate.handler?.broadcastResponse(ResponseInfo(response: .success(Entity(content: "second", timestamp: 0))))
        #expect(try await request.awaitResult().entity?.content as? String == "first")
    }
}

@MainActor
final class ManualDelegate: RequestDelegate {
    var handler: (any RequestCompletionHandler)?
    func startUnderlyingOperation(passingResponseTo completionHandler: any RequestCompletionHandler) {
        handler = completionHandler
    }
    func cancelUnderlyingOperation() {}
    func repeated() -> any RequestDelegate { ManualDelegate() }
    var requestDescription: String { "manual" }
}
