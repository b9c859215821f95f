import DashboardConfig
import Dispatch
import Foundation
import Monitor
import Redaction
import ResourceEngine
import TerminalUI

/// The dashboard: the screen over a `Monitor`, keys, frames and the screen's timers.
///
/// One mutation path: keys, resizes, resource events, timers and config reloads arrive as
/// `Message`s through `send(_:)`; the app changes its state and asks for a frame; frames are
/// coalesced, so many messages in one main-queue turn draw once, and an unchanged frame writes
/// nothing (the terminal's diff). Everything runs headless with a `TestBackend`, fake networking
/// and a manual scheduler.
@MainActor
public final class DashboardApp {
    /// Everything that can change the dashboard.
    public enum Message: Sendable {
        case key(KeyEvent)
        case resized
        case resourceChanged
        case tick
        case configReloaded(ConfigReloader.Outcome)
        /// Something the user should know, for the status line ("the config is not watched: …").
        case notice(String)
    }

    /// Which screen is in front.
    public enum Mode: Equatable, Sendable {
        case normal, help, events, filtering
        /// Typing a search in a zoomed detail view.
        case searching
        /// The selected pane's request as a curl command (`c`).
        case curl
    }

    /// What the panes' probes say: cadence, verdicts, alerts, histories, the event log.
    public let monitor: Monitor
    public var spec: DashboardSpec { monitor.spec }
    /// The config's engine services, one per service it names.
    public var services: ServiceGroup { monitor.services }
    /// Takes the config's secrets out of everything the dashboard shows or reports.
    public var redactor: Redactor { monitor.redactor }
    /// One per probe of the monitor: its overlay and what the screen keeps of it.
    public private(set) var panes: [Pane] = []
    public let terminal: Terminal?
    let clock: any EngineClock
    let scheduler: any DashboardScheduler
    /// Nil: the system's zone (`LocalTime`).
    let timeZone: TimeZone?
    /// Formatted or raw values (`v`), shared by every pane.
    public let valueDisplay: ValueDisplay
    /// The least time between frames caused by background activity (resource events, ticks).
    /// Keys and resizes draw on the next main-queue turn regardless.
    var minimumFrameInterval: Double { pacing.minimumInterval }

    /// Index into `visiblePanes` of the selected pane: the pane the user chose, wherever a
    /// re-sort (`s`, failing first, as probes come in) or a filter has moved it since.
    public var selection: Int { selectionIndex(in: visiblePanes) }
    /// The pane the user chose, and the index it had then (used when it is no longer visible).
    var chosenPane: ObjectIdentifier?
    var chosenIndex = 0
    public internal(set) var isZoomed = false
    /// The zoomed pane's view (data, response, request, timing, error).
    public internal(set) var zoomView: ZoomView = .data
    /// What `/` searches for in a zoomed detail view.
    public internal(set) var zoomSearch = ""
    /// "no match" after a search that found nothing, for the footer.
    var searchMissed = false
    /// The curl command `c` made, shown while `mode` is `.curl`.
    public internal(set) var curlCommand = ""
    /// The event log's view: a text filter (`/`), only the selected pane's events (`f`), and how
    /// many lines it is scrolled up from the newest.
    public internal(set) var eventFilter = ""
    public internal(set) var eventsOfSelectedPaneOnly = false
    var eventScroll = 0
    /// True while `/` in the event log takes typing.
    var typingEventFilter = false
    /// Pretty, redacted bodies the zoom views showed last, by pane, answer time and kind (data or
    /// error): a frame of a zoomed 8 MiB body must not pretty-print it again.
    var prettyBodies: [PrettyBodyKey: [String]] = [:]
    struct PrettyBodyKey: Hashable {
        let pane: ObjectIdentifier
        let timestamp: TimeInterval
        let isError: Bool
    }
    /// A one-line answer to a key (the pager failed, nothing to page), shown until the next key.
    public internal(set) var flash: String?
    public internal(set) var mode: Mode = .normal
    public internal(set) var filter = ""
    public internal(set) var sortFailingFirst = false
    /// While paused nothing refreshes on its own; resuming refreshes whatever has fallen due.
    public var isPaused: Bool {
        get { monitor.isPaused }
        set { monitor.isPaused = newValue }
    }
    /// False for a one-off look (`snapshot`): panes load when told to, never on their own.
    public var refreshesOnItsOwn: Bool {
        get { monitor.refreshesOnItsOwn }
        set { monitor.refreshesOnItsOwn = newValue }
    }
    /// False for a one-off look: kept histories are read (uptime over them) but not written.
    public var savesHistory: Bool {
        get { monitor.savesHistory }
        set { monitor.savesHistory = newValue }
    }
    /// False for a one-off look: states and alert events as ever, but no bell, command or webhook.
    public var actsOnAlerts: Bool {
        get { monitor.actsOnAlerts }
        set { monitor.actsOnAlerts = newValue }
    }
    /// A message for the status line (a rejected config reload), shown until the next good reload.
    public internal(set) var statusMessage: String?
    public var eventLog: EventLog { monitor.eventLog }
    /// Recent probes by resource (`Pane.historyKey`), shared by the panes showing that resource.
    public var histories: [String: ProbeHistory] { monitor.histories }
    /// Frames drawn so far.
    public internal(set) var framesDrawn = 0
    var spinnerTick = 0

    /// Called when the user quits, with the exit status.
    public var onQuit: (@MainActor (Int32) -> Void)?
    /// Called when the user presses Ctrl-Z.
    public var onSuspend: (@MainActor () -> Void)?
    /// Hands the terminal to a pager showing the text; returns why it could not, or nil.
    public var onPage: (@MainActor (String) -> String?)?
    /// Called for every event-log entry (the `events` command streams these).
    public var onEvent: (@MainActor (EventLog.Entry) -> Void)? {
        get { monitor.onEvent }
        set { monitor.onEvent = newValue }
    }
    /// Called after every frame with the number of cells sent.
    public var onFrame: (@MainActor (Int) -> Void)?
    /// Called with every notice the status line gets (a headless run prints them).
    public var onNotice: (@MainActor (String) -> Void)?
    /// Called whenever what the panes say may have changed (a probe, a reload): `/metrics` and
    /// `/api/panes` render again.
    public var onStateChange: (@MainActor () -> Void)? {
        get { monitor.onStateChange }
        set { monitor.onStateChange = newValue }
    }
    /// The header's counts, updated as panes change.
    var healthCounts: HealthCounts { monitor.healthCounts }

    var frameScheduled = false
    var urgentFrameScheduled = false
    /// A held background frame is to be drawn on the next turn (its loads have answered).
    var heldFrameReleased = false
    /// Counts frames drawn: a scheduled draw carries the count it was scheduled at and is stale
    /// once another frame has been drawn.
    var frameToken = 0
    /// When background frames are drawn, on the uptime clock.
    var pacing: FramePacing
    /// The panes the latest frame showed, in any view (set by `render`).
    var panesOnScreen: [Pane] = []
    /// The frame before's, kept to compare with (its storage is reused: no array per frame).
    var panesOnScreenBefore: [Pane] = []
    var tickAction: ScheduledAction?
    /// The pending tick is for spinners (something was loading when it was set).
    private var tickIsForSpinners = false
    /// When the pending tick fires, on the engine clock.
    private var tickDue: TimeInterval = 0
    var started = false

    public init(
        spec: DashboardSpec,
        terminal: Terminal?,
        clock: any EngineClock,
        scheduler: any DashboardScheduler,
        timeZone: TimeZone? = nil,
        minimumFrameInterval: Double = 0.2,
        loadSettleTime: Double? = nil,
        historyStore: HistoryStore? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        makeServices: @escaping @MainActor (DashboardSpec) -> ServiceGroup
    ) {
        self.pacing = FramePacing(minimumInterval: minimumFrameInterval, settle: loadSettleTime)
        self.terminal = terminal
        self.clock = clock
        self.scheduler = scheduler
        self.timeZone = timeZone
        self.valueDisplay = ValueDisplay(timeZone: timeZone) { [clock] in clock.now }
        self.monitor = Monitor(
            spec: spec, clock: clock, scheduler: scheduler, historyStore: historyStore, environment: environment, oneLine: Sanitizer.line,
            makeServices: makeServices)
        listenToTheMonitor()
    }

    /// The monitor's news become the screen's: frames, notices, the bell, a failed alert action.
    private func listenToTheMonitor() {
        monitor.onProbesBuilt = { [weak self] probes in self?.buildPanes(for: probes) }
        monitor.onResourceEvent = { [weak self] event in
            guard let self else { return }
            if event == .requested { pacing.loadStarted(at: Self.uptime()) }
            send(.resourceChanged)
        }
        monitor.onReminder = { [weak self] in self?.send(.resourceChanged) }
        monitor.onNotice = { [weak self] message in self?.send(.notice(message)) }
        monitor.onBell = { [weak self] in self?.terminal?.bell() }
        monitor.onAlertActionFailed = { [weak self] line in
            self?.flash = line
            self?.requestFrame()
        }
    }

    // MARK: Life cycle

    /// Builds the panes, draws, and starts each pane's refresh cadence (which loads at once).
    public func start() {
        guard !started else { return }
        monitor.start()
        started = true
        requestFrame(urgent: true)
        scheduleTick()
    }

    /// Stops timers, saves histories, and detaches every pane from its resource.
    public func stop() {
        monitor.stop()
        tickAction?.cancel()
        tickAction = nil
        detachPanes()
        started = false
    }

    private func detachPanes() {
        for pane in panes { pane.detach() }
        panes = []
        panesOnScreen = []
        panesOnScreenBefore = []
    }

    /// A pane for each probe, observing its resource for the overlay (after the monitor does).
    private func buildPanes(for probes: [Probe]) {
        detachPanes()
        panes = probes.map { probe in
            Pane(probe: probe, display: valueDisplay) { [weak self] in self?.send(.resourceChanged) }
        }
    }

    /// Reloads every resource once, as a key press (`R`).
    func reloadAll() {
        let panesByProbe = Dictionary(panes.map { (ObjectIdentifier($0.probe), $0) }) { first, _ in first }
        for (probes, request) in monitor.reloadAll() {
            for probe in probes { panesByProbe[ObjectIdentifier(probe)]?.overlay.trackManualLoad(request) }
        }
    }

    /// The probes of the resource a pane shows.
    public func history(for pane: Pane) -> ProbeHistory? {
        monitor.history(for: pane.probe)
    }

    // MARK: Messages

    /// The one way to change the dashboard.
    public func send(_ message: Message) {
        switch message {
        case .key(let key):
            handleKey(key)
        case .resized:
            requestFrame(urgent: true)
        case .resourceChanged:
            // The resource now loads (a spinner) or has fresh data ("now", then "1s ago"): tick soon
            // even if the screen was idle and the next tick was a minute away. When nothing loads
            // any more, a tick set for spinners is set again for the next age or minute.
            if tickAction != nil, tickDue - clock.now > 0.2 {
                scheduleTick(after: 0.2)
            } else if tickIsForSpinners, healthCounts.loading == 0 {
                scheduleTick()
            }
            requestFrame()
        case .tick:
            spinnerTick += 1
            scheduleTick()
            requestFrame()
        case .configReloaded(let outcome):
            applyReload(outcome)
        case .notice(let text):
            statusMessage = redactor.redact(text)
            onNotice?(statusMessage ?? "")
            requestFrame()
        }
    }

    private func applyReload(_ outcome: ConfigReloader.Outcome) {
        let selectedTitle = selectedPane?.spec.title
        switch monitor.apply(outcome) {
        case .reloaded:
            statusMessage = nil
            requestFrame(urgent: true)
            scheduleTick()
            let visible = visiblePanes
            if let title = selectedTitle, let index = visible.firstIndex(where: { $0.spec.title == title }) {
                select(index, in: visible)
            }
        case .rejected(let line):
            statusMessage = line
            requestFrame()
        case .unchanged:
            break
        }
    }

    /// Ticks when the screen would next read differently with no event: five times a second (the
    /// background frame rate) while a pane on screen loads, for the spinners; otherwise when the
    /// header's minute or the data age of a pane on screen ("4s ago" → "5s ago", "3m ago" → "4m
    /// ago") next changes. An idle dashboard wakes once a minute. Panes off screen change nothing
    /// on it by the passing of time (their events still count in the header), so a thousand panes
    /// cost a tick no more than the fifty on screen.
    func scheduleTick(after interval: TimeInterval? = nil) {
        tickAction?.cancel()
        let interval = interval ?? secondsUntilTheScreenChanges()
        tickIsForSpinners = healthCounts.loading > 0
        tickDue = clock.now + interval
        tickAction = scheduler.schedule(after: interval) { [weak self] in self?.send(.tick) }
    }

    func secondsUntilTheScreenChanges() -> TimeInterval {
        if panesOnScreen.contains(where: { $0.resource.isLoading }) { return 0.2 }
        let now = clock.now
        var next = Formatting.untilClockChanges(now)
        for pane in panesOnScreen {
            if let data = pane.resource.latestData { next = min(next, Formatting.untilAgeChanges(max(0, now - data.timestamp))) }
            if let until = pane.contentValidUntil { next = min(next, max(0, until - now)) }
        }
        // A little past the boundary, so the tick reads the new text.
        return max(0.05, next + 0.01)
    }

    func quit(_ status: Int32) {
        onQuit?(status)
    }
}
