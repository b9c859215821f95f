import DashboardConfig
import Monitor
import ResourceEngine

/// One pane as the runtime keeps it: the monitor's `Probe` and the status overlay that counts
/// the loads the user started and retries its failures. The model holds the pane's values
/// (`PaneState`); this is what acts on the engine.
///
/// Its overlay observes the resource, owned by the pane itself, so when the pane goes away (quit,
/// config reload) its observers go with it.
@MainActor
public final class Pane {
    /// What the pane's probes say.
    public let probe: Probe
    public let overlay: StatusOverlay
    /// How its request is made, read again when a chained pane moves to another resource.
    private(set) var request: PaneRequest

    /// Shows `probe`; `onManualLoads` is told each new count of the user's loads in flight.
    public init(probe: Probe, onManualLoads: @escaping @MainActor (Int) -> Void) {
        self.probe = probe
        request = PaneRequest(of: probe.resource)
        overlay = StatusOverlay(displayPriority: probe.spec.overlay ?? StatusOverlay.dashboardDefault)
        overlay.onManualLoadsChange = onManualLoads
        probe.resource.addObserver(overlay, owner: self)
    }

    /// Which pane it is, in the model.
    public nonisolated var id: PaneID { ObjectIdentifier(probe) }

    /// Stops observing.
    public func detach() {
        probe.resource.removeObservers(ownedBy: self)
    }

    /// Observes the resource its probe moved to, instead of `old`.
    func follow(from old: Resource) {
        old.removeObservers(ownedBy: self)
        request = PaneRequest(of: probe.resource)
        probe.resource.addObserver(overlay, owner: self)
    }

    /// The pane as the model holds it, with what its probe says now.
    var state: PaneState {
        var state = PaneState(
            id: id, spec: probe.requestSpec, displayURL: probe.displayURL, redactor: probe.redactor, historyKey: probe.historyKey,
            request: request, probe: probe.report)
        state.manualLoads = overlay.manualLoadCount
        return state
    }

    // MARK: Loading

    /// Loads now (a key press), shown as a manual load by the overlay; nothing while it waits
    /// for another pane's value.
    @discardableResult
    public func reload() -> Request? {
        guard let request = probe.load() else { return nil }
        overlay.trackManualLoad(request)
        return request
    }

    /// Retries a failed load now (a key press: `t`), whatever the back-off would wait.
    @discardableResult
    public func retry() -> [Request] {
        overlay.retryFailedRequestsNow()
    }
}
