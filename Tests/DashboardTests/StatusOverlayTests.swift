import Dashboard
import DashboardConfig
import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

@MainActor
@Suite struct StatusOverlayTests {
    let network = FakeNetworkingProvider()
    let clock = ManualClock()
    let service: Service

    init() {
        service = Service(baseURL: "https://api.test/", networking: network, clock: clock)
    }

    enum Situation: String, CaseIterable {
        case empty, loadingNoData, data, loadingWithData, errorNoData, errorWithData, loadingAfterError
    }

    /// A resource in the given situation (a held load stays in flight).
    private func resource(_ situation: Situation) async throws -> Resource {
        network.holdsResponses = false
        let resource = service.resource("/\(situation.rawValue)")
        let url = resource.url.absoluteString
        switch situation {
        case .empty: break
        case .loadingNoData:
            network.stub(.get, url, .json("{}"))
            network.holdsResponses = true
            resource.load()
        case .data, .loadingWithData:
            network.stub(.get, url, .json(#"{"a":1}"#))
            _ = try await resource.load().awaitResult()
            if situation == .loadingWithData {
                network.holdsResponses = true
                resource.load()
            }
        case .errorNoData, .errorWithData, .loadingAfterError:
            if situation == .errorWithData {
                network.stub(.get, url, .json(#"{"a":1}"#))
                _ = try await resource.load().awaitResult()
            }
            network.stub(.get, url, .json(#"{"message":"down"}"#, status: 503))
            _ = try await resource.load().awaitResult()
            if situation == .loadingAfterError {
                network.holdsResponses = true
                resource.load()
            }
        }
        return resource
    }

    private func state(_ situation: Situation, rules: [OverlayRule]) async throws -> String {
        let overlay = StatusOverlay(displayPriority: rules)
        let r = try await resource(situation)
        r.addObserver(overlay)
        defer { network.releaseAll() }
        switch overlay.state {
        case .loading: return "loading"
        case .success: return "success"
        case .error(let error): return "error \(error.userMessage)"
        }
    }

    @Test func dashboardDefaultNeverBlanksDataButNeverHidesFailures() async throws {
        let rules = StatusOverlay.dashboardDefault
        #expect(rules == [.manualLoading, .error, .anyData, .loading])
        let expected: [Situation: String] = [
            .empty: "success", .loadingNoData: "loading", .data: "success", .loadingWithData: "success",
            .errorNoData: "error Service Unavailable", .errorWithData: "error Service Unavailable",
            .loadingAfterError: "error Service Unavailable",
        ]
        for situation in Situation.allCases {
            #expect(try await state(situation, rules: rules) == expected[situation], "\(situation)")
        }
    }

    @Test func siestaDefaultShowsEveryLoad() async throws {
        let expected: [Situation: String] = [
            .empty: "success", .loadingNoData: "loading", .data: "success", .loadingWithData: "loading",
            .errorNoData: "error Service Unavailable", .errorWithData: "error Service Unavailable",
            .loadingAfterError: "loading",
        ]
        for situation in Situation.allCases {
            #expect(try await state(situation, rules: StatusOverlay.siestaDefault) == expected[situation], "\(situation)")
        }
    }

    @Test func anyDataFirstAlwaysShowsExistingData() async throws {
        let rules: [OverlayRule] = [.anyData, .loading, .error]
        #expect(try await state(.errorWithData, rules: rules) == "success")
        #expect(try await state(.loadingWithData, rules: rules) == "success")
        #expect(try await state(.errorNoData, rules: rules) == "error Service Unavailable")
        #expect(try await state(.loadingNoData, rules: rules) == "loading")
    }

    @Test func allDataHoldsOnlyWhenEveryResourceHasData() async throws {
        let overlay = StatusOverlay(displayPriority: [.allData, .error])
        #expect(overlay.state == .success, "allData holds for no resources, as in Siesta")
        let withData = try await resource(.data)
        let failing = try await resource(.errorNoData)
        withData.addObserver(overlay)
        #expect(overlay.state == .success)
        failing.addObserver(overlay)
        guard case .error = overlay.state else {
            Issue.record("expected error, got \(overlay.state)")
            return
        }
    }

    @Test func errorShowsTheFirstObservedResourcesMessage() async throws {
        let overlay = StatusOverlay(displayPriority: [.error])
        let first = try await resource(.errorNoData)
        let second = service.resource("/second")
        network.stub(.get, second.url.absoluteString, .json("{}", status: 404))
        _ = try await second.load().awaitResult()
        second.addObserver(overlay)
        first.addObserver(overlay)
        #expect(overlay.state == .error(second.latestError!))
    }

    @Test func retryUsesLoadIfNeededOnFailedResourcesAsAManualLoad() async throws {
        let overlay = StatusOverlay()
        let failed = try await resource(.errorNoData)
        let fine = try await resource(.data)
        failed.addObserver(overlay)
        fine.addObserver(overlay)
        #expect(overlay.retryFailedRequests().isEmpty, "within retryTime nothing happens")
        clock.advance(by: 2)
        network.stub(.get, failed.url.absoluteString, .json(#"{"ok":true}"#))
        network.holdsResponses = true
        let requests = overlay.retryFailedRequests()
        #expect(requests.count == 1, "only the failed resource is retried")
        #expect(overlay.manualLoadCount == 1)
        #expect(overlay.state == .loading)
        network.releaseAll()
        _ = try await requests[0].awaitResult()
        try await drainMainQueue()
        #expect(overlay.manualLoadCount == 0)
        #expect(overlay.state == .success)
    }

    @Test func stopsTrackingAResourceItNoLongerObserves() async throws {
        let overlay = StatusOverlay(displayPriority: [.error])
        let failed = try await resource(.errorNoData)
        let owner = NSObject()
        failed.addObserver(overlay, owner: owner)
        #expect(overlay.observedResources.count == 1)
        failed.removeObservers(ownedBy: owner)
        #expect(overlay.observedResources.isEmpty)
        #expect(overlay.state == .success)
    }
}

/// The overlay's rules as a pure function of resource snapshots.
@MainActor
@Suite struct OverlayRuleTests {
    let data = Entity(content: "x", timestamp: 1)
    let failure = RequestError(userMessage: "Service Unavailable", cause: nil, httpStatusCode: 503, timestamp: 2)

    @Test func theFirstRuleThatHoldsDecides() {
        let loadingWithData = [ResourceSnapshot(isLoading: true, latestData: data, latestError: nil)]
        let failedWithOldData = [ResourceSnapshot(isLoading: false, latestData: data, latestError: failure)]
        let nothing = [ResourceSnapshot(isLoading: false, latestData: nil, latestError: nil)]
        let dashboard = StatusOverlay.dashboardDefault
        // A background refresh never blanks data; a key's load shows its spinner.
        #expect(StatusOverlay.displayState(for: loadingWithData, manualLoads: 0, priority: dashboard) == .success)
        #expect(StatusOverlay.displayState(for: loadingWithData, manualLoads: 1, priority: dashboard) == .loading)
        // A failure is never hidden behind stale data.
        #expect(StatusOverlay.displayState(for: failedWithOldData, manualLoads: 0, priority: dashboard) == .error(failure))
        // Siesta's order shows loading first.
        #expect(StatusOverlay.displayState(for: loadingWithData, manualLoads: 0, priority: StatusOverlay.siestaDefault) == .loading)
        // allData needs every resource's data; no rule holding means success.
        #expect(StatusOverlay.displayState(for: loadingWithData + nothing, manualLoads: 0, priority: [.allData, .loading]) == .loading)
        #expect(StatusOverlay.displayState(for: nothing, manualLoads: 0, priority: [.anyData]) == .success)
    }
}
