import DashboardKeys
import DashboardConfig
import ResourceEngine

/// Siesta's `ResourceStatusOverlay` for a terminal pane: decides whether the pane shows its data,
/// a loading indicator, or an error with "Try again".
///
/// Observes any number of resources. The rule list is checked in order and the first rule that
/// holds decides; if none holds, the overlay is hidden (success). Retry calls `loadIfNeeded()` on
/// every observed resource that has an error and tracks what it returns as a manual load.
@MainActor
public final class StatusOverlay: ResourceObserver {
    /// The button an error shows, "[t] Try again": its key, or a click on it, retries.
    public static func retryLabel(_ keys: KeyMap) -> String {
        keys.primaryName(.retry).map { "[\($0)] Try again" } ?? "[Try again]"
    }

    /// What the overlay shows.
    public enum State: Equatable, Sendable {
        case loading
        case error(RequestError)
        case success

        public static func == (lhs: State, rhs: State) -> Bool {
            switch (lhs, rhs) {
            case (.loading, .loading), (.success, .success): true
            case let (.error(a), .error(b)): a.userMessage == b.userMessage && a.httpStatusCode == b.httpStatusCode
            default: false
            }
        }
    }

    /// The dashboard's default: background refreshes never blank a pane, a failure is never hidden
    /// behind stale data, a key-initiated load shows its spinner.
    public static let dashboardDefault: [OverlayRule] = [.manualLoading, .error, .anyData, .loading]

    /// Siesta's default order.
    public static let siestaDefault: [OverlayRule] = [.loading, .error, .anyData]

    public var displayPriority: [OverlayRule]
    public private(set) var observedResources: [Resource] = []
    public private(set) var manualLoadCount = 0
    /// Called with the count of manual loads in flight whenever it changes.
    public var onManualLoadsChange: (@MainActor (Int) -> Void)?

    public init(displayPriority: [OverlayRule] = StatusOverlay.dashboardDefault) {
        self.displayPriority = displayPriority
    }

    /// The state the rules give for the observed resources now.
    public var state: State {
        Self.displayState(for: observedResources, manualLoads: manualLoadCount, priority: displayPriority)
    }

    /// Siesta's rules as a pure function: the first rule of `priority` that holds for the
    /// resources' states (snapshots, or the resources as they are) and the count of manual loads
    /// in flight decides; none: success.
    public static func displayState<States: Collection>(
        for resources: States, manualLoads: Int, priority: [OverlayRule]
    ) -> State where States.Element: ResourceState {
        // Closures, not key paths: in this generic function a key path is built at run time on every call.
        for rule in priority {
            switch rule {
            case .loading:
                if resources.contains(where: { $0.isLoading }) { return .loading }
            case .manualLoading:
                if manualLoads > 0 { return .loading }
            case .anyData:
                if resources.contains(where: { $0.hasData }) { return .success }
            case .allData:
                if resources.allSatisfy({ $0.hasData }) { return .success }
            case .error:
                for resource in resources { if let error = resource.latestError { return .error(error) } }
            }
        }
        return .success
    }

    /// Retries every observed resource that has an error, as a manual load.
    ///
    /// Goes through `loadIfNeeded()`, so within `retryTime` of the failure it does nothing, and it
    /// joins a load already in flight instead of starting another.
    @discardableResult
    public func retryFailedRequests() -> [Request] {
        let requests = observedResources.filter { $0.hasError }.compactMap { $0.loadIfNeeded() }
        for request in requests { trackManualLoad(request) }
        return requests
    }

    /// Loads every observed resource that has an error now, as a manual load, without waiting out
    /// `retryTime` (a key the user pressed); a load already in flight is joined, not doubled.
    @discardableResult
    public func retryFailedRequestsNow() -> [Request] {
        let requests = observedResources.filter { $0.hasError }.map { $0.loadRequests.first ?? $0.load() }
        for request in requests { trackManualLoad(request) }
        return requests
    }

    /// Counts `request` as a manual load until it completes (the `manualLoading` rule).
    public func trackManualLoad(_ request: Request) {
        manualLoadCount += 1
        onManualLoadsChange?(manualLoadCount)
        request.onCompletion { [weak self] _ in
            guard let self else { return }
            self.manualLoadCount -= 1
            self.onManualLoadsChange?(self.manualLoadCount)
        }
    }

    public func resourceChanged(_ resource: Resource, event: ResourceEvent) {
        if event == .observerAdded, !observedResources.contains(where: { $0 === resource }) {
            observedResources.append(resource)
        }
    }

    public func stoppedObserving(resource: Resource) {
        observedResources.removeAll { $0 === resource }
    }
}
