import DashboardConfig
import Monitor
import Redaction
import TerminalUI

/// A pane as the model holds it: what it is (its spec, URL, request) and what its probe last
/// said, as values. The runtime makes one for each probe and sends a new report after each of
/// its resource's events; `update` stores them; the view draws from them.
public struct PaneState: Sendable {
    public let id: PaneID
    public let spec: PaneSpec
    /// The URL as the config writes it, secrets as `${VAR}`: what every output shows.
    public let displayURL: String
    /// Takes secrets out of everything the pane shows.
    public let redactor: Redactor
    /// What the pane's probe history is kept under.
    public let historyKey: String
    /// How its request is made.
    public let request: PaneRequest
    /// The title's width in terminal columns.
    let titleWidth: Int
    /// What the probe said last.
    public internal(set) var probe: ProbeReport
    /// Loads the user started (a key) still in flight: the overlay's `manualLoading` rule.
    public internal(set) var manualLoads = 0

    public init(
        id: PaneID, spec: PaneSpec, displayURL: String, redactor: Redactor = .none, historyKey: String = "", request: PaneRequest,
        probe: ProbeReport = ProbeReport()
    ) {
        self.id = id
        self.spec = spec
        self.displayURL = displayURL
        self.redactor = redactor
        self.historyKey = historyKey
        self.request = request
        self.titleWidth = DisplayWidth.of(spec.title)
        self.probe = probe
    }

    public var title: String { spec.title }
    /// Shown as a table (its zoom sorts by column).
    public var isTable: Bool { spec.show == .table }
    public var health: Probe.Health { probe.health }

    /// What the status overlay shows: Siesta's rules over the resource's snapshot, except that
    /// an error status the pane's expectations ask for is data to show, not an error.
    @MainActor
    public var overlayState: StatusOverlay.State {
        let state = StatusOverlay.displayState(
            for: CollectionOfOne(probe.resource), manualLoads: manualLoads, priority: spec.overlay ?? StatusOverlay.dashboardDefault)
        if case .error = state, probe.errorIsExpected { return .success }
        return state
    }
}
