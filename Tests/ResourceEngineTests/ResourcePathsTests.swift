import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

@MainActor
@Suite struct ResourcePathsTests {
    let service = Service(baseURL: "https://zingle.frotz/v1", networking: FakeNetworkingProvider())
    var resource: Resource { service.resource("/a/b") }

    private func url(_ resource: Resource) -> String { resource.url.absoluteString }

    // MARK: child

    @Test func childResolvesEmptyStringAsRoot() {
        #expect(url(resource.child("")) == "https://zingle.frotz/v1/a/b/")
        #expect(url(resource.child("/")) == "https://zingle.frotz/v1/a/b/")
    }

    @Test func childAppendsPaths() {
        #expect(url(resource.child("c")) == "https://zingle.frotz/v1/a/b/c")
        #expect(url(resource.child("c/d")) == "https://zingle.frotz/v1/a/b/c/d")
    }

    @Test func childDoesNotResolveDotSegments() {
        #expect(url(resource.child("./c")) == "https://zingle.frotz/v1/a/b/./c")
        #expect(url(resource.child("../c")) == "https://zingle.frotz/v1/a/b/../c")
    }

    @Test func childTreatsURLLikeStringsAsPaths() {
        #expect(url(resource.child("//other.host/c")) == "https://zingle.frotz/v1/a/b//other.host/c")
        #expect(url(resource.child("ftp://other.host/c")) == "https://zingle.frotz/v1/a/b/ftp://other.host/c")
        #expect(url(resource.child("/c")) == "https://zingle.frotz/v1/a/b/c")
    }

    @Test func childEscapesCharactersWhenNecessary() {
        #expect(url(resource.child("?foo")) == "https://zingle.frotz/v1/a/b/%3Ffoo")
        #expect(url(resource.child("c d")) == "https://zingle.frotz/v1/a/b/c%20d")
        #expect(url(resource.child(" •⇶")) == "https://zingle.frotz/v1/a/b/%20%E2%80%A2%E2%87%B6")
    }

    // MARK: relative

    @Test func relativeTreatsBarePathsAsIfPrecededByDotSlash() {
        #expect(url(resource.relative("c")) == "https://zingle.frotz/v1/a/c")
        #expect(url(resource.relative("./c")) == "https://zingle.frotz/v1/a/c")
        #expect(url(resource.relative("../c")) == "https://zingle.frotz/v1/c")
    }

    @Test func relativeResolvesAbsolutePathsRelativeToHostRoot() {
        #expect(url(resource.relative("/c")) == "https://zingle.frotz/c")
        #expect(url(resource.relative("//other.host/c")) == "https://other.host/c")
        #expect(url(resource.relative("http://else.where/x")) == "http://else.where/x")
    }

    @Test func relativeDoesNotAlphabetizeQueryParams() {
        #expect(url(resource.relative("?z=1&a=2")) == "https://zingle.frotz/v1/a/b?z=1&a=2")
        #expect(url(resource.relative("?z=1&z=2")) == "https://zingle.frotz/v1/a/b?z=1&z=2")
    }

    @Test func relativeEntirelyReplacesAnExistingQueryString() {
        let withQuery = resource.withParam("x", "1")
        #expect(url(withQuery.relative("?y=2")) == "https://zingle.frotz/v1/a/b?y=2")
        #expect(url(withQuery.relative("c")) == "https://zingle.frotz/v1/a/c")
    }

    @Test func optionalRelativeHandlesNil() {
        #expect(resource.optionalRelative(nil) == nil)
        #expect(resource.optionalRelative("c") === resource.relative("c"))
    }

    // MARK: withParam

    @Test func withParamAddsParams() {
        #expect(url(resource.withParam("foo", "bar")) == "https://zingle.frotz/v1/a/b?foo=bar")
    }

    @Test func withParamAlphabetizesParams() {
        let r = resource.withParam("zoo", "1").withParam("alpha", "2").withParam("mid", "3")
        #expect(url(r) == "https://zingle.frotz/v1/a/b?alpha=2&mid=3&zoo=1")
        #expect(r === resource.withParam("mid", "3").withParam("zoo", "1").withParam("alpha", "2"))
    }

    @Test func withParamReplacesAnExistingValue() {
        #expect(url(resource.withParam("x", "1").withParam("x", "2")) == "https://zingle.frotz/v1/a/b?x=2")
    }

    @Test func withParamTreatsEmptyStringValueAsEmptyParam() {
        #expect(url(resource.withParam("flag", "")) == "https://zingle.frotz/v1/a/b?flag")
        #expect(url(resource.withParam("flag", "").withParam("a", "1")) == "https://zingle.frotz/v1/a/b?a=1&flag")
    }

    @Test func withParamTreatsNilValueAsRemoval() {
        let r = resource.withParam("a", "1").withParam("b", "2").withParam("a", nil)
        #expect(url(r) == "https://zingle.frotz/v1/a/b?b=2")
    }

    @Test func withParamDropsQueryStringIfAllParamsRemoved() {
        #expect(url(resource.withParam("a", "1").withParam("a", nil)) == "https://zingle.frotz/v1/a/b")
    }

    @Test func withParamEscapesValues() {
        #expect(url(resource.withParam("q", "a b&c=d+e")) == "https://zingle.frotz/v1/a/b?q=a%20b%26c%3Dd%2Be")
    }

    @Test func withParamsSetsSeveralAtOnce() {
        #expect(url(resource.withParams(["b": "2", "a": "1", "c": nil])) == "https://zingle.frotz/v1/a/b?a=1&b=2")
    }
}
