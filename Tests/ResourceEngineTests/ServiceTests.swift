import Foundation
import FoundationNetworking
import ResourceEngine
import ResourceEngineTesting
import Testing

@MainActor
@Suite struct ServiceTests {
    @Test func enforcesATrailingSlashOnBaseURL() {
        #expect(Service(baseURL: "http://foo.bar/baz", networking: FakeNetworkingProvider()).baseURL?.absoluteString == "http://foo.bar/baz/")
        #expect(Service(baseURL: "http://foo.bar/baz/", networking: FakeNetworkingProvider()).baseURL?.absoluteString == "http://foo.bar/baz/")
        #expect(Service(baseURL: "http://foo.bar", networking: FakeNetworkingProvider()).baseURL?.absoluteString == "http://foo.bar/")
        #expect(Service(baseURL: "http://foo.bar/v1?key=1", networking: FakeNetworkingProvider()).baseURL?.absoluteString == "http://foo.bar/v1/?key=1")
    }

    /// A configuration is a value: its fields are shared between copies only until one changes.
    @Test func aConfigurationCopyChangesOnlyItself() {
        var first = Configuration()
        first.headers["A"] = "1"
        first.expirationTime = 5
        var second = first
        second.headers["B"] = "2"
        second.expirationTime = 7
        second.transport.maxRedirects = 0
        second.mutateRequests { $0.setValue("x", forHTTPHeaderField: "X") }
        second.decorateRequests { _, request in request }
        #expect(first.headers == ["A": "1"] && first.expirationTime == 5 && first.transport.maxRedirects == nil)
        #expect(first.requestMutations.isEmpty && first.requestDecorators.isEmpty)
        #expect(second.headers == ["A": "1", "B": "2"] && second.expirationTime == 7 && second.transport.maxRedirects == 0)
        #expect(second.requestMutations.count == 1 && second.requestDecorators.count == 1)

        // A caller's copy of a resource's configuration does not change what the resource uses.
        let service = Service(baseURL: "http://foo.bar", networking: FakeNetworkingProvider())
        service.configure { $0.timeout = 9 }
        let resource = service.resource("/a")
        var copy = resource.configuration
        copy.timeout = 1
        copy.headers["Leak"] = "yes"
        #expect(resource.configuration.timeout == 9 && resource.configuration.headers.isEmpty)
    }

    @Test func resolvesPathsAgainstTheBaseURL() {
        let service = Service(baseURL: "http://foo.bar/v1", networking: FakeNetworkingProvider())
        #expect(service.resource("/a/b").url.absoluteString == "http://foo.bar/v1/a/b")
        #expect(service.resource("a/b").url.absoluteString == "http://foo.bar/v1/a/b")
        #expect(service.resource("").url.absoluteString == "http://foo.bar/v1/")
    }

    @Test func escapesAllCharactersAsPartOfThePathEvenOnesThatLookLikeQueryStrings() {
        let service = Service(baseURL: "http://foo.bar/v1", networking: FakeNetworkingProvider())
        #expect(service.resource("?foo=bar").url.absoluteString == "http://foo.bar/v1/%3Ffoo=bar")
        #expect(service.resource("a b").url.absoluteString == "http://foo.bar/v1/a%20b")
        #expect(service.resource("..").url.absoluteString == "http://foo.bar/v1/..")
        #expect(service.resource("http://evil.com").url.absoluteString.hasPrefix("http://foo.bar/v1/http:"))
    }

    @Test func givesANonNilButInvalidResourceForInvalidURLs() async throws {
        let service = Service(networking: FakeNetworkingProvider())
        let noBase = service.resource("/foo")
        #expect(noBase.isInvalid)
        let nilURL = service.resource(absoluteURL: nil as String?)
        #expect(nilURL.isInvalid)
        #expect(service.resource(absoluteURL: nil as String?) === nilURL)
        let unparseable = service.resource(absoluteURL: "not a url")
        #expect(unparseable.isInvalid)
        let error = try #require(try await unparseable.load().awaitResult().error)
        #expect(error.userMessage == "Cannot send request with invalid URL")
        #expect(error.cause is RequestError.Cause.InvalidURL)
        #expect(unparseable.latestError?.userMessage == "Cannot send request with invalid URL")
    }

    @Test func doesNotInterpretDoubleSlashesOrSchemesInPaths() {
        let service = Service(baseURL: "https://foo.bar/v1", networking: FakeNetworkingProvider())
        #expect(service.resource("//other.host").url.absoluteString == "https://foo.bar/v1//other.host")
        #expect(service.resource("http://other.host").url.absoluteString == "https://foo.bar/v1/http://other.host")
        #expect(service.resource("/%3F").url.absoluteString == "https://foo.bar/v1/%253F")
        #expect(service.resource("𝄞").url.absoluteString == "https://foo.bar/v1/%F0%9D%84%9E")
        #expect(service.resource("a;b#c").url.absoluteString == "https://foo.bar/v1/a%3Bb%23c")
        let withQuery = Service(baseURL: "https://foo.bar/v1?a=b&x=y", networking: FakeNetworkingProvider())
        #expect(withQuery.resource("/baz").url.absoluteString == "https://foo.bar/v1/baz?a=b&x=y")
        #expect(
            service.resource(baseURL: URL(string: "http://alpha.beta/gamma"), path: "../delta?upsilon&omega")
                .url.absoluteString == "http://alpha.beta/gamma/../delta%3Fupsilon&omega")
    }

    @Test func anInvalidBaseURLGivesNoBaseAndPathResourcesFailAtOnce() async throws {
        let network = FakeNetworkingProvider()
        for base in ["\0", "http://[URL syntax error]", "http://a b/"] {
            let service = Service(baseURL: base, networking: network)
            #expect(service.baseURL == nil, "\(base.debugDescription)")
            let resource = service.resource("/foo")
            #expect(resource.isInvalid)
            let error = try #require(try await resource.load().awaitResult().error)
            #expect(error.cause is RequestError.Cause.InvalidURL)
            #expect(service.resource(absoluteURL: base).isInvalid)
        }
        #expect(network.receivedRequests.isEmpty)
    }

    @Test func aSchemeLessAbsoluteURLIsKeptAsWrittenAndPatternsMatchIt() {
        let service = Service(networking: FakeNetworkingProvider())
        let dotted = service.resource(absoluteURL: "./foo")
        #expect(!dotted.isInvalid)
        #expect(dotted.url.absoluteString == "./foo")
        service.configure("/foo") { $0.headers["Matched"] = "slash" }
        service.configure("./foo") { $0.headers["Matched"] = "dot" }
        #expect(service.resource(absoluteURL: "/foo").configuration.headers["Matched"] == "slash")
        #expect(dotted.configuration.headers["Matched"] == "dot")
        #expect(service.resource(absoluteURL: "/other").configuration.headers["Matched"] == nil)
    }

    @Test func givesTheSameResourceInstanceNoMatterHowItIsConstructed() {
        let h = Harness()
        let resource = h.service.resource("/a/b")
        #expect(h.service.resource("a/b") === resource)
        #expect(h.service.resource(absoluteURL: Harness.base + "a/b") === resource)
        #expect(h.service.resource(absoluteURL: URL(string: Harness.base + "a/b")) === resource)
        #expect(h.service.resource("/a").child("b") === resource)
        #expect(h.service.resource("/a/c").relative("b") === resource)
        #expect(h.service.resource("/a/b").withParam("x", "1").withParam("x", nil) === resource)
    }

    @Test func releasesUnusedResourcesWhenCacheLimitExceeded() {
        let h = Harness()
        h.service.cachedResourceCountLimit = 3
        let kept = h.service.resource("/kept")
        weak let dropped = h.service.resource("/dropped")
        _ = h.service.resource("/c")
        _ = h.service.resource("/d")
        #expect(dropped == nil)
        #expect(h.service.resource("/kept") === kept)
        #expect(h.service.cachedResources.count <= 3)
    }

    @Test func flushKeepsResourcesWithRequestsInFlight() {
        let h = Harness()
        h.network.holdsResponses = true
        weak var loading: Resource?
        do {
            let resource = h.service.resource("/loading")
            h.stubText(resource, "x")
            resource.load()
            loading = resource
        }
        h.service.flushUnusedResources()
        #expect(loading != nil)
        #expect(h.service.resource("/loading") === loading)
    }

    @Test func whenEveryCachedResourceIsInUseTheNextFlushWaitsForTwiceAsMany() {
        // Flushing on every new resource past the limit made 10,000 panes take quadratic time.
        let h = Harness()
        h.service.cachedResourceCountLimit = 10
        let held = (0..<10).map { h.service.resource("/held\($0)") }
        for i in 0..<9 { _ = h.service.resource("/unused\(i)") }
        #expect(h.service.cachedResources.count == 19, "one flush at the limit freed nothing, so the next waits until 20")
        _ = h.service.resource("/unused9")
        _ = h.service.resource("/one-more")
        #expect(h.service.cachedResources.count == 11, "at 20 a flush released the unused ones")
        #expect(held.allSatisfy { resource in h.service.cachedResources.contains { $0 === resource } })
    }

    @Test func loweringTheLimitBelowTheCurrentCountFlushes() {
        let h = Harness()
        for i in 0..<10 { _ = h.service.resource("/r\(i)") }
        #expect(h.service.cachedResources.count == 10)
        h.service.cachedResourceCountLimit = 5
        #expect(h.service.cachedResources.isEmpty)
    }

    // MARK: Configuration

    @Test func sendsHeadersAndTimeoutFromConfiguration() async throws {
        let h = Harness()
        h.service.configure("**") {
            $0.headers["Authorization"] = "Bearer 1234"
            $0.timeout = 7
        }
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        let sent = try #require(h.network.receivedRequests.first)
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer 1234")
        #expect(sent.timeoutInterval == 7)
        #expect(sent.httpMethod == "GET")
    }

    @Test func appliesEveryMatchingBlockInTheOrderAdded() {
        let h = Harness()
        h.service.configure("**") {
            $0.headers["A"] = "global"
            $0.headers["B"] = "global"
            $0.expirationTime = 5
        }
        h.service.configure("/a/**") { $0.headers["B"] = "specific" }
        h.service.configure("/other/**") { $0.headers["A"] = "never" }
        h.service.configure(description: "last global") { $0.expirationTime = 9 }
        let configuration = h.resource.configuration
        #expect(configuration.headers == ["A": "global", "B": "specific"])
        #expect(configuration.expirationTime == 9)
    }

    @Test func appliesRequestConfigOnlyToMatchingRequestMethods() async throws {
        let h = Harness()
        h.service.configure("**", requestMethods: [.put, .post]) { $0.headers["X-Write"] = "yes" }
        #expect(h.resource.configuration(for: .get).headers["X-Write"] == nil)
        #expect(h.resource.configuration(for: .post).headers["X-Write"] == "yes")
        h.network.stub(nil, h.resource.url.absoluteString, .text("ok"))
        _ = try await h.resource.request(.post).awaitResult()
        _ = try await h.resource.request(.get).awaitResult()
        #expect(h.network.receivedRequests[0].value(forHTTPHeaderField: "X-Write") == "yes")
        #expect(h.network.receivedRequests[1].value(forHTTPHeaderField: "X-Write") == nil)
    }

    @Test func globalConfigMatchesURLsOutsideTheBaseButDoubleStarDoesNot() {
        let h = Harness()
        h.service.configure { $0.headers["Global"] = "1" }
        h.service.configure("**") { $0.headers["Under"] = "1" }
        let outside = h.service.resource(absoluteURL: "https://elsewhere.test/x")
        #expect(outside.configuration.headers == ["Global": "1"])
        #expect(h.resource.configuration.headers == ["Global": "1", "Under": "1"])
    }

    @Test func changesWhenInvalidateConfigurationCalled() {
        let h = Harness()
        final class Token { var value = "one" }
        let token = Token()
        h.service.configure("**") { $0.headers["Token"] = token.value }
        #expect(h.resource.configuration.headers["Token"] == "one")
        token.value = "two"
        #expect(h.resource.configuration.headers["Token"] == "one", "cached until invalidated")
        h.service.invalidateConfiguration()
        #expect(h.resource.configuration.headers["Token"] == "two")
    }

    @Test func isNotComputedWhenTraversingResourcesButNotUsingThem() {
        let h = Harness()
        var computed = 0
        h.service.configure("**") { _ in computed += 1 }
        _ = h.service.resource("/a").child("b").relative("../c").withParam("x", "1")
        #expect(computed == 0)
        _ = h.resource.configuration
        _ = h.resource.configuration
        #expect(computed == 1)
    }

    @Test func wipesOnlyResourcesMatchingAPattern() {
        let h = Harness()
        let users = h.service.resource("/users/1")
        let posts = h.service.resource("/posts/1")
        users.overrideLocalContent(with: "u")
        posts.overrideLocalContent(with: "p")
        h.service.wipeResources(matching: "/users/*")
        #expect(users.latestData == nil)
        #expect(posts.latestData != nil)
        h.service.wipeResources(withURLsMatching: { $0.path.contains("posts") })
        #expect(posts.latestData == nil)
    }

    // MARK: Glob patterns (ServiceSpec's cases, base https://foo.bar/v1)

    private func matches(_ pattern: String, _ path: String, base: String? = "https://foo.bar/v1") -> Bool {
        let baseURL = base.flatMap { URL(string: $0.hasSuffix("/") ? $0 : $0 + "/") }
        let predicate = pattern.configurationPattern(baseURL: baseURL)
        let url = path.contains("://") ? URL(string: path)! : URL(string: "https://foo.bar/v1" + path)!
        return predicate(url)
    }

    @Test func matchesPathSegmentsWithStar() {
        #expect(matches("/*", "/hither"))
        #expect(!matches("/*", "/hither/"))
        #expect(!matches("/*", "/hither/thither"))
        #expect(matches("/*/b", "/a/b"))
        #expect(!matches("/*/b", "/a/"))
        #expect(!matches("/*/b", "/a/b/"))
        #expect(!matches("/a/*/c", "/a/c"))
        #expect(matches("/*x*/c", "/x/c"))
        #expect(matches("/*x*/c", "/foxy/c"))
        #expect(matches("/*", "/:!@$"))
    }

    @Test func matchesAcrossSegmentsWithDoubleStar() {
        #expect(matches("/**", "/"))
        #expect(matches("/**", "/hither"))
        #expect(matches("/**", "/hither/thither/yon"))
        #expect(matches("/a/**/b", "/a/b"))
        #expect(matches("/a/**/b", "/a/1/2/3/b"))
        #expect(!matches("/a/**/b", "/a1/2/3/b"))
        #expect(!matches("/a/**/b", "/a/1/2/3b"))
        #expect(matches("/**/*", "/a/b"))
        #expect(matches("/**/*", "/ab"))
    }

    @Test func matchesSingleNonSeparatorCharsWithQuestionMark() {
        #expect(matches("/?", "/o"))
        #expect(!matches("/?", "/"))
        #expect(matches("/??", "/oy"))
        #expect(!matches("/??", "/o"))
        #expect(!matches("/??", "/o/"))
        #expect(!matches("/x/?*", "/x/"))
        #expect(matches("/x/?*", "/x/y"))
    }

    @Test func ignoresQueryStringsInTheMatchedURL() {
        #expect(matches("/*/b", "/a/b?foo=bar"))
        #expect(matches("/a/b", "/a/b?foo=bar"))
        #expect(!matches("/a/b", "/a/bc"))
    }

    @Test func treatsPatternsWithOrWithoutLeadingSlashAlike() {
        #expect(matches("fez", "/fez"))
        #expect(matches("/fez", "/fez"))
    }

    @Test func absolutePatternsAreNotRelativeToTheBase() {
        #expect(matches("https://foo.com:*/**", "https://foo.com:8080/x"))
        #expect(!matches("https://foo.com:*/**", "https://foo.com/x"))
        #expect(matches("https://*:8080/**", "https://bar.com:8080/x"))
        #expect(!matches("https://foo.com/fez", "https://foo.bar/v1/fez"))
        #expect(!matches("/fez", "https://foo.com/v1/fez"))
    }

    @Test func escapesRegexCharactersInGlobs() {
        #expect(matches("/a.b", "/a.b"))
        #expect(!matches("/a.b", "/axb"))
        #expect(matches("/(x)+", "/(x)+"))
    }

    @Test func handlesServiceWithNoBaseURL() {
        #expect(matches("/foo", "/foo", base: nil) == false)
        let predicate = "https://x.test/**".configurationPattern(baseURL: nil)
        #expect(predicate(URL(string: "https://x.test/a/b")!))
    }

    @Test func regexpPatternsMatchSubstringsOfTheWholeURL() throws {
        let h = Harness()
        let regex = try LinearRegex("/a/[0-9]+")
        h.service.configure(regex) { $0.headers["Numbered"] = "yes" }
        #expect(h.service.resource("/a/123/x").configuration.headers["Numbered"] == "yes")
        #expect(h.service.resource("/a/b").configuration.headers["Numbered"] == nil)
    }

    @Test func resourcePatternsMatchExactlyOneURL() {
        let h = Harness()
        h.service.configure(h.resource) { $0.headers["Exact"] = "yes" }
        #expect(h.resource.configuration.headers["Exact"] == "yes")
        #expect(h.resource.child("c").configuration.headers["Exact"] == nil)
    }
}
