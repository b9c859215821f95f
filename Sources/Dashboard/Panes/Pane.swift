import DashboardConfig
import Foundation
import Monitor
import Redaction
import ResourceEngine
import TerminalUI

/// One pane on screen: the monitor's `Probe` (what its probes say), the status overlay over it,
/// and its content as drawn (a cache; its zoom scroll and table order are the model's).
///
/// Its overlay observes the resource, owned by the pane itself, so when the pane goes away (quit,
/// config reload) its observers go with it.
@MainActor
public final class Pane {
    /// How the header counts a pane.
    public typealias Health = Probe.Health

    /// What the pane's probes say.
    public let probe: Probe
    /// The title's width in terminal columns: the collapsed view lines every title up to the
    /// widest, on every frame.
    let titleWidth: Int
    public let overlay: StatusOverlay
    /// Formatted or raw values, the clock ages are read against (shared by the dashboard's panes).
    let display: ValueDisplay
    private var cachedContent: PaneContent?

    /// Shows `probe`; `onChange` is called after every overlay change.
    public init(probe: Probe, display: ValueDisplay = ValueDisplay(), onChange: @escaping @MainActor () -> Void) {
        self.probe = probe
        self.titleWidth = DisplayWidth.of(probe.spec.title)
        self.display = display
        overlay = StatusOverlay(displayPriority: probe.spec.overlay ?? StatusOverlay.dashboardDefault)
        overlay.onChange = onChange
        probe.resource.addObserver(overlay, owner: self)
    }

    /// Stops observing.
    public func detach() {
        probe.resource.removeObservers(ownedBy: self)
    }

    // MARK: The probe's

    public var spec: PaneSpec { probe.spec }
    public var resource: Resource { probe.resource }
    /// The URL as the config writes it, secrets as `${VAR}`: what every output shows.
    public var displayURL: String { probe.displayURL }
    /// Takes secrets out of everything the pane shows.
    public var redactor: Redactor { probe.redactor }
    /// What the pane's probe history is kept under.
    public var historyKey: String { probe.historyKey }
    /// Seconds between refreshes, start to start.
    public var every: TimeInterval { probe.every }
    public var unmetExpectation: String? { probe.unmetExpectation }
    public var contentProblem: String? { probe.contentProblem }
    public var errorIsExpected: Bool { probe.errorIsExpected }
    public var lastAnswerTime: TimeInterval? { probe.lastAnswerTime }
    public var shownEntity: Entity? { probe.shownEntity }
    public var health: Health { probe.health }
    public var verdict: Health { probe.verdict }
    public var degradedReason: String? { probe.degradedReason }
    public var alert: AlertTracker { probe.alert }
    public var thresholdWarning: String? { probe.thresholdWarning }
    public var probeCounts: ProbeCounts { probe.probeCounts }
    public var failure: String? { probe.failure }
    public var displayedError: String? { probe.displayedError }

    // MARK: The screen's

    /// What the pane shows of its entity, its table rows in `sort`'s order (nil: as listed);
    /// built once per content the probe checked.
    func content(sortedBy sort: TableSort?) -> PaneContent? {
        guard let check = probe.contentCheck else { return nil }
        if let cachedContent, cachedContent.check === check {
            cachedContent.tableSort = sort
            return cachedContent
        }
        let content = PaneContent(check: check, display: display)
        content.tableSort = sort
        cachedContent = content
        return content
    }

    /// What the pane shows of its entity, as listed.
    var content: PaneContent? { content(sortedBy: nil) }

    /// When what the pane shows stops being true by itself (a formatted age), or nil.
    var contentValidUntil: TimeInterval? { cachedContent?.formattedValidUntil }

    // MARK: Loading

    /// Loads now (a key press), shown as a manual load by the overlay.
    @discardableResult
    public func reload() -> Request {
        let request = resource.load()
        overlay.trackManualLoad(request)
        return request
    }

    /// Loads unless fresh or already loading (`Resource.loadIfNeeded()`).
    @discardableResult
    public func loadIfNeeded() -> Request? {
        probe.loadIfNeeded()
    }

    /// Retries a failed load now (a key press: `t`), whatever the back-off would wait.
    @discardableResult
    public func retry() -> [Request] {
        overlay.retryFailedRequestsNow()
    }
}
