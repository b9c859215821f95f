import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

/// `Configuration.refreshInterval`: a watcher's resource loads on its own while observed, on
/// the service's clock (here a manual one: the timers run as the test moves it).
@MainActor
@Suite struct KeepFreshTests {
    let h = Harness()

    /// Lets loads in flight answer and their completion hooks run.
    func settle(_ resource: Resource) async throws {
        for request in resource.loadRequests { _ = try await request.awaitResult() }
        try await drainMainQueue(turns: 2)
    }

    var requests: Int { h.network.receivedRequests.count }

    @Test func anObservedResourceLoadsEveryIntervalAndStopsWhenTheLastObserverGoes() async throws {
        h.service.configure { $0.refreshInterval = 5 }
        let resource = h.resource
        h.stubText(resource, "v1")
        let owner = Owner()
        let observer = RecordingObserver()
        resource.addObserver(observer, owner: owner)
        #expect(resource.isKeptFresh)
        #expect(requests == 0, "not inside addObserver: the observer hears observerAdded first")
        h.clock.advance(by: 0)
        try await settle(resource)
        #expect(requests == 1)
        #expect(resource.text == "v1")

        h.stubText(resource, "v2")
        h.clock.advance(by: 4.9)
        #expect(requests == 1, "five seconds after the load started, not before")
        h.clock.advance(by: 0.1)
        try await settle(resource)
        #expect(requests == 2)
        #expect(resource.text == "v2")
        #expect(observer.events == ["observerAdded", "requested", "newData(network)", "requested", "newData(network)"])

        resource.removeObservers(ownedBy: owner)
        #expect(!resource.isKeptFresh)
        h.clock.advance(by: 60)
        try await drainMainQueue()
        #expect(requests == 2, "nobody watches: nothing loads")
    }

    @Test func failuresBackOffFromTheRetryTimeUpToTheInterval() async throws {
        h.service.configure {
            $0.refreshInterval = 10
            $0.retryTime = 1
        }
        let resource = h.resource
        h.stubText(resource, "down", status: 503)
        let owner = Owner()
        resource.addObserver(owner: owner) { _, _ in }
        h.clock.advance(by: 0)
        try await settle(resource)
        #expect(requests == 1 && resource.latestError?.httpStatusCode == 503)
        // 1, 2, 4, 8 seconds after each failure, then the interval.
        var times: [Double] = []
        var waited = 0.0
        while requests < 7 {
            let before = requests
            h.clock.advance(by: 0.5)
            waited += 0.5
            try await settle(resource)
            if requests > before {
                times.append(waited)
                waited = 0
            }
            if h.clock.now > 2_000 { break }
        }
        #expect(times == [1, 2, 4, 8, 10, 10])

        h.stubText(resource, "up")
        h.clock.advance(by: 10)
        try await settle(resource)
        #expect(resource.text == "up" && resource.latestError == nil)
        h.clock.advance(by: 9.5)
        try await drainMainQueue()
        #expect(requests == 8, "after a success, the interval again")
        h.clock.advance(by: 0.5)
        try await settle(resource)
        #expect(requests == 9)
    }

    @Test func aLoadInFlightIsJoinedNotDoubled() async throws {
        h.service.configure { $0.refreshInterval = 5 }
        let resource = h.resource
        h.stubText(resource, "v1")
        h.network.holdsResponses = true
        let mine = resource.load()
        resource.addObserver(owner: Owner()) { _, _ in }
        h.clock.advance(by: 0)
        #expect(requests == 1, "the refresh joined the load in flight")
        h.network.releaseAll()
        _ = try await mine.awaitResult()
        try await drainMainQueue(turns: 2)
        #expect(requests == 1)
    }

    /// Data younger than the interval (loaded before anyone watched, or from a cache) is not
    /// asked for again at once: the first refresh is due when it is `refreshInterval` old.
    @Test func freshDataAtHandWaitsUntilItIsAnIntervalOld() async throws {
        h.service.configure { $0.refreshInterval = 10 }
        let resource = h.resource
        h.stubText(resource, "v1")
        _ = try await resource.load().awaitResult()
        h.clock.advance(by: 4)
        let owner = Owner()
        resource.addObserver(owner: owner) { _, _ in }
        #expect(resource.isKeptFresh)
        h.clock.advance(by: 5.5)
        try await drainMainQueue()
        #expect(requests == 1, "the data is 9.5 s old")
        h.clock.advance(by: 0.5)
        try await settle(resource)
        #expect(requests == 2)
        withExtendedLifetime(owner) {}
    }

    /// The rule as a value: the same numbers the engine's keep-fresh and Hammock's panes use.
    @Test func theScheduleIsOneRule() {
        let schedule = RefreshSchedule(interval: 10, retry: 1)
        #expect((1...6).map { schedule.retryWait(afterFailures: $0) } == [1, 2, 4, 8, 10, 10])
        #expect(RefreshSchedule(interval: 10, retry: 1, backoffLimit: 60).retryWait(afterFailures: 7) == 60)
        #expect(RefreshSchedule(interval: 1, retry: 5).retryWait(afterFailures: 3) == 5, "never less than the retry time")
        #expect(schedule.nextLoad(lastRequested: 100, failure: nil, dataTimestamp: 90, now: 105) == 110)
        #expect(schedule.nextLoad(lastRequested: 100, failure: (at: 103, inARow: 2), dataTimestamp: 90, now: 105) == 105)
        #expect(schedule.nextLoad(lastRequested: nil, failure: nil, dataTimestamp: 98, now: 105) == 108)
        #expect(schedule.nextLoad(lastRequested: nil, failure: nil, dataTimestamp: nil, now: 105) == 105)
        #expect(schedule.nextLoad(lastRequested: nil, failure: nil, dataTimestamp: nil, notBefore: 107, now: 105) == 107)
        #expect(Configuration().refreshSchedule == nil)
        var configured = Configuration()
        configured.refreshInterval = 30
        configured.retryTime = 0
        #expect(configured.refreshSchedule == RefreshSchedule(interval: 30, retry: 0.5), "never back to back")
    }

    @Test func withoutAnIntervalNothingLoadsOnItsOwn() async throws {
        let resource = h.resource
        h.stubText(resource, "v1")
        let owner = Owner()
        resource.addObserver(owner: owner) { _, _ in }
        #expect(!resource.isKeptFresh)
        h.clock.advance(by: 120)
        try await drainMainQueue()
        #expect(requests == 0)
        #expect(h.clock.pendingTimerCount == 0)
    }

    @Test func theSystemClocksTimersRunOnTheMainQueueAndACancelledOneNever() async throws {
        var ran: [String] = []
        let cancelled = SystemClock().schedule(after: 0) { ran.append("cancelled") }
        cancelled.cancel()
        _ = SystemClock().schedule(after: 0.02) { ran.append("kept") }
        try await waitUntil("the kept timer ran") { !ran.isEmpty }
        #expect(ran == ["kept"], "the earlier, cancelled one did not run")
    }
}
