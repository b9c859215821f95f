import DashboardConfig
import Monitor
import Redaction
import TerminalUI

/// A pane as the model holds it: what it is (its spec, URL, request) and what its probe last
/// said, as values. The runtime makes one for each probe and sends a new report after each of
/// its resource's events; `update` stores them; the view draws from them.
public struct PaneState: Sendable {
    /// What does not change while the pane lives, in one shared box: the model's panes are
    /// copied by every sort, filter and frame, and a copy is then a few words.
    private final class Facts: Sendable {
        let spec: PaneSpec
        let displayURL: String
        let redactor: Redactor
        let historyKey: String
        let request: PaneRequest
        let titleWidth: Int

        init(spec: PaneSpec, displayURL: String, redactor: Redactor, historyKey: String, request: PaneRequest) {
            self.spec = spec
            self.displayURL = displayURL
            self.redactor = redactor
            self.historyKey = historyKey
            self.request = request
            titleWidth = DisplayWidth.of(spec.title)
        }
    }

    public let id: PaneID
    private let facts: Facts
    /// What the probe said last.
    public internal(set) var probe: ProbeReport
    /// Loads the user started (a key) still in flight: the overlay's `manualLoading` rule.
    public internal(set) var manualLoads = 0

    public init(
        id: PaneID, spec: PaneSpec, displayURL: String, redactor: Redactor = .none, historyKey: String = "", request: PaneRequest,
        probe: ProbeReport = ProbeReport()
    ) {
        self.id = id
        facts = Facts(spec: spec, displayURL: displayURL, redactor: redactor, historyKey: historyKey, request: request)
        self.probe = probe
    }

    public var spec: PaneSpec { facts.spec }
    /// The URL as the config writes it, secrets as `${VAR}`: what every output shows.
    public var displayURL: String { facts.displayURL }
    /// Takes secrets out of everything the pane shows.
    public var redactor: Redactor { facts.redactor }
    /// What the pane's probe history is kept under.
    public var historyKey: String { facts.historyKey }
    /// How its request is made.
    public var request: PaneRequest { facts.request }
    /// The title's width in terminal columns.
    var titleWidth: Int { facts.titleWidth }
    public var title: String { facts.spec.title }
    /// Shown as a table (its zoom sorts by column).
    public var isTable: Bool { facts.spec.show == .table }
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
