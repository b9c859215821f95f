import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

@MainActor
@Suite struct ResourceObserversTests {
    let h = Harness()

    @Test func receivesANotificationThatItWasAdded() {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        #expect(observer.events == ["observerAdded"])
    }

    @Test func observerAddedGoesOnlyToTheNewObserver() {
        let first = RecordingObserver()
        let second = RecordingObserver()
        h.resource.addObserver(first)
        h.resource.addObserver(second)
        #expect(first.events == ["observerAdded"])
        #expect(second.events == ["observerAdded"])
    }

    @Test func receivesRequestedAndNewDataOnLoad() async throws {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
    }

    @Test func seesIsLoadingAlreadyFalseWhenNewDataArrives() async throws {
        let observer = RecordingObserver()
        var loadingAtEvent: [String: Bool] = [:]
        observer.onEvent = { resource, event in loadingAtEvent[event.description] = resource.isLoading }
        h.resource.addObserver(observer)
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        #expect(loadingAtEvent == ["observerAdded": false, "requested": true, "newData(network)": false])
    }

    @Test func receivesNewDataEventFromLocalOverride() {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.resource.overrideLocalContent(with: "local")
        #expect(observer.events == ["observerAdded", "newData(localOverride)"])
    }

    @Test func receivesNotModifiedEvent() async throws {
        h.stubText(h.resource, "x", headers: ["ETag": "1"])
        _ = try await h.resource.load().awaitResult()
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 304))
        _ = try await h.resource.load().awaitResult()
        #expect(observer.events == ["observerAdded", "requested", "notModified"])
    }

    @Test func receivesErrorIfServerSendsNotModifiedButNoLocalData() async throws {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 304))
        _ = try await h.resource.load().awaitResult()
        #expect(observer.events == ["observerAdded", "requested", "error"])
    }

    @Test func receivesCancelEvent() async throws {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let request = h.resource.load()
        request.cancel()
        _ = try await request.awaitResult()
        #expect(observer.events == ["observerAdded", "requested", "requestCancelled"])
    }

    @Test func receivesWipeThenCancelEvents() async throws {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let request = h.resource.load()
        h.resource.wipe()
        _ = try await request.awaitResult()
        #expect(observer.events == ["observerAdded", "requested", "newData(wipe)", "requestCancelled"])
    }

    @Test func doesNotReceiveNotificationsForRequestOnlyLoad() async throws {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.network.stub(.post, h.resource.url.absoluteString, .text("posted"))
        _ = try await h.resource.request(.post).awaitResult()
        #expect(observer.events == ["observerAdded"])
    }

    @Test func canHaveMultipleClosureObservers() async throws {
        let owner = Owner()
        var calls: [String] = []
        let closure: ResourceObserverClosure = { _, event in calls.append("\(event)") }
        h.resource.addObserver(owner: owner, closure: closure)
        h.resource.addObserver(owner: owner, closure: closure)
        h.resource.overrideLocalContent(with: "x")
        #expect(calls == ["observerAdded", "observerAdded", "newData(localOverride)", "newData(localOverride)"])
        #expect(h.resource.observerCount == 2)
    }

    @Test func isNotAddedTwiceIfItIsAnObject() {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.resource.addObserver(observer)
        h.resource.addObserver(observer, owner: Owner())
        h.resource.overrideLocalContent(with: "x")
        #expect(observer.events == ["observerAdded", "newData(localOverride)"])
        #expect(h.resource.observerCount == 1)
    }

    @Test func notifiesObserversInTheOrderTheyWereAdded() {
        let owner = Owner()
        var order: [Int] = []
        for i in 0..<20 {
            h.resource.addObserver(owner: owner) { _, event in
                if event != .observerAdded { order.append(i) }
            }
        }
        h.resource.overrideLocalContent(with: "x")
        #expect(order == Array(0..<20))
    }

    @Test func selfOwnedObserverIsHeldWeakly() {
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            h.resource.addObserver(observer)
        }
        #expect(weakObserver == nil)
        #expect(h.resource.observerCount == 0)
    }

    @Test func doesNotReceiveRemovalNotificationIfSelfOwnedAndNotExternallyRetained() {
        let stopped = StopCounter()
        do {
            let observer = CountingObserver(counter: stopped)
            h.resource.addObserver(observer)
        }
        _ = h.resource.observerCount
        #expect(stopped.count == 0)
    }

    @Test func isRemovedWhenAllOwnersAreRemoved() {
        let observer = RecordingObserver()
        let owner1 = Owner()
        let owner2 = Owner()
        h.resource.addObserver(observer, owner: owner1)
        h.resource.addObserver(observer, owner: owner2)
        h.resource.removeObservers(ownedBy: owner1)
        #expect(h.resource.observerCount == 1)
        #expect(observer.stoppedCount == 0)
        h.resource.removeObservers(ownedBy: owner2)
        #expect(h.resource.observerCount == 0)
        #expect(observer.stoppedCount == 1)
        h.resource.overrideLocalContent(with: "x")
        #expect(observer.events == ["observerAdded"])
    }

    @Test func selfOwnedObserverKeepsObservingAfterExternalOwnerIsRemoved() {
        let observer = RecordingObserver()
        let owner = Owner()
        h.resource.addObserver(observer)
        h.resource.addObserver(observer, owner: owner)
        h.resource.removeObservers(ownedBy: owner)
        h.resource.overrideLocalContent(with: "x")
        #expect(observer.events == ["observerAdded", "newData(localOverride)"])
        h.resource.removeObservers(ownedBy: observer)
        #expect(observer.stoppedCount == 1)
    }

    @Test func receivesANotificationEveryTimeItIsRemovedAndReAdded() {
        let observer = RecordingObserver()
        let owner = Owner()
        for _ in 0..<3 {
            h.resource.addObserver(observer, owner: owner)
            h.resource.removeObservers(ownedBy: owner)
        }
        #expect(observer.events == ["observerAdded", "observerAdded", "observerAdded"])
        #expect(observer.stoppedCount == 3)
    }

    @Test func removeObserversWithNilOwnerDoesNothing() {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.resource.removeObservers(ownedBy: nil)
        #expect(h.resource.observerCount == 1)
    }

    @Test func stopsObservingWhenOwnerIsDeallocated() {
        let observer = RecordingObserver()
        var owner: Owner? = Owner()
        h.resource.addObserver(observer, owner: owner!)
        owner = nil
        h.resource.overrideLocalContent(with: "x")
        #expect(observer.events == ["observerAdded"])
        #expect(observer.stoppedCount == 1)
    }

    @Test func externallyOwnedObserverIsHeldStronglyAndReleasedWithItsOwner() {
        weak var weakObserver: RecordingObserver?
        var owner: Owner? = Owner()
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            h.resource.addObserver(observer, owner: owner!)
        }
        #expect(weakObserver != nil)
        owner = nil
        _ = h.resource.observerCount
        #expect(weakObserver == nil)
    }

    /// Siesta keeps an externally owned observer until its entry is removed, then tells it.
    @Test func observerOnlyTheResourceKeepsIsToldWhenItsOwnerGoes() {
        let stopped = StopCounter()
        weak var weakObserver: CountingObserver?
        var owner: Owner? = Owner()
        do {
            let observer = CountingObserver(counter: stopped)
            weakObserver = observer
            h.resource.addObserver(observer, owner: owner!)
        }
        owner = nil
        #expect(weakObserver != nil)
        #expect(stopped.count == 0)
        #expect(h.resource.observerCount == 0)
        #expect(stopped.count == 1)
        #expect(weakObserver == nil)
    }

    @Test func selfOwnedObserverWhoseExternalOwnerGoesIsHeldWeaklyAgain() {
        weak var weakObserver: RecordingObserver?
        var owner: Owner? = Owner()
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            h.resource.addObserver(observer)
            h.resource.addObserver(observer, owner: owner!)
        }
        #expect(weakObserver != nil)
        owner = nil
        _ = h.resource.observerCount
        #expect(weakObserver == nil)
    }

    @Test func reestablishesStrongReferenceWhenOwnerReAdded() {
        weak var weakObserver: RecordingObserver?
        let owner = Owner()
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            h.resource.addObserver(observer)
            h.resource.addObserver(observer, owner: owner)
        }
        #expect(weakObserver != nil)
        h.resource.removeObservers(ownedBy: owner)
        #expect(weakObserver == nil)
    }

    @Test func preventsTheResourceFromBeingDeallocatedWhileItHasObservers() {
        let owner = Owner()
        weak var weakResource: Resource?
        do {
            let resource = h.service.resource("/observed")
            weakResource = resource
            resource.addObserver(owner: owner) { _, _ in }
        }
        h.service.flushUnusedResources()
        #expect(weakResource != nil)
        #expect(h.service.resource("/observed") === weakResource)
    }

    @Test func allowsResourceDeallocationWhenObserverOwnersAreDeallocated() {
        var owner: Owner? = Owner()
        weak var weakResource: Resource?
        do {
            let resource = h.service.resource("/observed")
            weakResource = resource
            resource.addObserver(owner: owner!) { _, _ in }
        }
        owner = nil
        h.service.flushUnusedResources()
        #expect(weakResource == nil)
    }

    @Test func progressIsReportedToObserversAndEndsAtOne() async throws {
        let observer = RecordingObserver()
        h.resource.addObserver(observer)
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        #expect(observer.progress.last == 1)
        #expect(observer.progress == observer.progress.sorted())
    }

    @Test func eventsHaveExternalNames() {
        let names = [
            ResourceEvent.observerAdded, .requested, .requestCancelled, .newData(.network), .newData(.cache),
            .newData(.localOverride), .newData(.wipe), .notModified, .error,
        ].map(\.externalName)
        #expect(
            names == [
                "ObserverAdded", "Requested", "RequestCancelled", "NewData(Network)", "NewData(Cache)",
                "NewData(LocalOverride)", "NewData(Wipe)", "NotModified", "Error",
            ])
    }

    @Test func observerCanRemoveItselfDuringNotification() {
        let owner = Owner()
        var calls = 0
        h.resource.addObserver(owner: owner) { resource, event in
            calls += 1
            if event != .observerAdded { resource.removeObservers(ownedBy: owner) }
        }
        h.resource.overrideLocalContent(with: "a")
        h.resource.overrideLocalContent(with: "b")
        #expect(calls == 2)
    }
}

@MainActor
final class StopCounter {
    var count = 0
}

@MainActor
final class CountingObserver: ResourceObserver {
    let counter: StopCounter
    init(counter: StopCounter) { self.counter = counter }
    func resourceChanged(_ resource: Resource, event: ResourceEvent) {}
    func stoppedObserving(resource: Resource) { counter.count += 1 }
}
