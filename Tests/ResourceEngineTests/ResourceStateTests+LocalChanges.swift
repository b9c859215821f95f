import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

/// `invalidate` and local changes: what a resource holds when its owner, not the network, changes it.
extension ResourceStateTests {
    // MARK: invalidate

    @Test func invalidateOnlyAffectsLoadIfNeededOnceIfItSucceeds() async throws {
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.resource.invalidate()
        let request = try #require(h.resource.loadIfNeeded())
        _ = try await request.awaitResult()
        #expect(h.resource.loadIfNeeded() == nil)
    }

    @Test func invalidateOnlyAffectsLoadIfNeededOnceIfItFails() async throws {
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.resource.invalidate()
        h.stubText(h.resource, "x", status: 500)
        _ = try await #require(h.resource.loadIfNeeded()).awaitResult()
        #expect(h.resource.loadIfNeeded() == nil)
    }

    @Test func invalidateIsClearedByAnExplicitLoad() async throws {
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.resource.invalidate()
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.loadIfNeeded() == nil)
    }

    @Test func invalidateIsClearedByALocalOverride() async throws {
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.resource.invalidate()
        h.resource.overrideLocalContent(with: "local")
        #expect(h.resource.loadIfNeeded() == nil)
    }

    @Test func invalidateStillAffectsTheNextLoadIfNeededIfLoadCancelled() async throws {
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.resource.invalidate()
        h.network.holdsResponses = true
        let request = try #require(h.resource.loadIfNeeded())
        request.cancel()
        _ = try await request.awaitResult()
        try await drainMainQueue()
        #expect(h.resource.loadIfNeeded() != nil)
    }

    @Test func invalidateLeavesDataAndErrorAlone() async throws {
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.resource.invalidate()
        #expect(h.resource.latestData?.bodyText == "x")
        #expect(!h.resource.isUpToDate)
    }

    // MARK: Local changes

    @Test func overrideLocalDataReplacesDataAndClearsError() async throws {
        h.stubText(h.resource, "bad", status: 500)
        _ = try await h.resource.load().awaitResult()
        h.resource.overrideLocalData(with: Entity(content: "local", contentType: "text/plain", timestamp: h.clock.now))
        #expect(h.resource.latestData?.content as? String == "local")
        #expect(h.resource.latestError == nil)
        #expect(h.resource.text == "local")
    }

    @Test func overrideLocalContentKeepsHeaders() async throws {
        h.stubText(h.resource, "original", headers: ["X-Thing": "kept"])
        _ = try await h.resource.load().awaitResult()
        h.clock.advance(by: 7)
        h.resource.overrideLocalContent(with: "replaced")
        #expect(h.resource.latestData?.header(forKey: "x-thing") == "kept")
        #expect(h.resource.latestData?.contentType == "text/plain")
        #expect(h.resource.text == "replaced")
        #expect(h.resource.timestamp == h.clock.now)
    }

    @Test func wipeClearsDataAndErrorAndCancelsRequests() async throws {
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.network.holdsResponses = true
        let load = h.resource.load()
        let post = h.resource.request(.post)
        h.resource.wipe()
        #expect(h.resource.latestData == nil)
        #expect(h.resource.latestError == nil)
        #expect(try await load.awaitResult().isCancellation)
        #expect(try await post.awaitResult().isCancellation)
        #expect(!h.resource.isLoading)
        #expect(!h.resource.isRequesting)
    }

    @Test func wipeCancelsRequestsAttachedWithLoadUsingEvenFromAnotherResource() async throws {
        let other = h.service.resource("/other")
        h.network.stub(.post, other.url.absoluteString, .text("from other"))
        h.network.holdsResponses = true
        let foreign = other.request(.post)
        h.resource.load(using: foreign)
        #expect(h.resource.loadRequests.count == 1)
        #expect(h.resource.allRequests.isEmpty)
        h.resource.wipe()
        #expect(try await foreign.awaitResult().isCancellation)
    }

    @Test func loadUsingAnotherRequestUpdatesThisResource() async throws {
        let search = h.service.resource("/search")
        h.network.stub(.post, search.url.absoluteString, .text("results"))
        let request = h.resource.load(using: search.request(.post, text: "q"))
        _ = try await request.awaitResult()
        #expect(h.resource.latestData?.bodyText == "results")
        #expect(search.latestData == nil)
    }

    @Test func cancelLoadIfUnobservedCancelsOnlyWithoutObservers() async throws {
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let owner = Owner()
        h.resource.addObserver(owner: owner) { _, _ in }
        let load = h.resource.load()
        h.resource.cancelLoadIfUnobserved()
        #expect(!load.isCompleted)
        h.resource.removeObservers(ownedBy: owner)
        h.resource.cancelLoadIfUnobserved()
        #expect(try await load.awaitResult().isCancellation)
    }

    @Test func cancelsLoadIfResourceLosesItsObserversDuringDelay() async throws {
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let owner = Owner()
        h.resource.addObserver(owner: owner) { _, _ in }
        let load = h.resource.load()
        let _: Void = try await awaitCallback("delayed cancel") { done in
            h.resource.cancelLoadIfUnobserved(afterDelay: 0) { done(()) }
            h.resource.removeObservers(ownedBy: owner)
        }
        #expect(load.isCompleted)
        #expect(try await load.awaitResult().isCancellation)
    }

    @Test func typedAccessorsDefaultWhenContentHasAnotherType() async throws {
        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 200, body: Data("raw".utf8)))
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.text == "")
        #expect(h.resource.jsonDict.isEmpty)
        #expect(h.resource.jsonArray.isEmpty)
        #expect((h.resource.typedContent() as Data?) == Data("raw".utf8))
        #expect(h.resource.typedContent(ifNone: 42) == 42)
    }

    @Test func anEntityMadeWithoutATimestampIsStampedNowOnTheSystemClock() {
        let clock = SystemClock()
        let before = clock.now
        let entity = Entity(content: "x", contentType: "text/plain")
        let after = clock.now
        #expect(entity.timestamp >= before && entity.timestamp <= after)
        #expect(Entity(content: "x", timestamp: 12).timestamp == 12)
    }

    @Test func anOptionalDefaultIsUsedWhenThereIsNoContent() async throws {
        let fallback: String? = "ahoy"
        let none: String? = nil
        #expect(h.resource.typedContent(ifNone: fallback) == "ahoy")
        #expect(h.resource.typedContent(ifNone: none) == nil)
        h.resource.overrideLocalContent(with: 7)
        #expect(h.resource.typedContent(ifNone: fallback) == "ahoy")
        h.resource.overrideLocalContent(with: "held")
        #expect(h.resource.typedContent(ifNone: fallback) == "held")
    }

    @Test func debugDescriptionShowsFlags() async throws {
        #expect(h.resource.description == "Resource(…/a/b)")
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let request = h.resource.load()
        #expect(h.resource.description == "Resource(…/a/b)[L]")
        h.network.releaseAll()
        _ = try await request.awaitResult()
        #expect(h.resource.description == "Resource(…/a/b)[D]")
        h.network.holdsResponses = false
        h.stubText(h.resource, "x", status: 500)
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.description == "Resource(…/a/b)[DE]")
    }
}
