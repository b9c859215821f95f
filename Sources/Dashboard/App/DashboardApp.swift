import DashboardConfig
import Dispatch
import Foundation
import Redaction
import ResourceEngine
import TerminalUI

/// The dashboard: panes bound to resources, keys, timers, and the screen.
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

    public private(set) var spec: DashboardSpec
    /// The config's engine services, one per service it names.
    public private(set) var services: ServiceGroup
    /// Takes the config's secrets out of everything the dashboard shows or reports.
    public private(set) var redactor: Redactor
    public private(set) var panes: [Pane] = []
    public let terminal: Terminal?
    let clock: any EngineClock
    let scheduler: any DashboardScheduler
    let makeServices: @MainActor (DashboardSpec) -> ServiceGroup
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
    public internal(set) var isPaused = false {
        didSet { if oldValue, !isPaused { for pane in panes { updateCadence(of: pane) } } }
    }
    /// False for a one-off look (`snapshot`): panes load when told to, never on their own.
    public var refreshesOnItsOwn = true
    /// False for a one-off look: kept histories are read (uptime over them) but not written.
    public var savesHistory = true
    /// False for a one-off look: states and alert events as ever, but no bell, command or webhook.
    public var actsOnAlerts = true
    /// A message for the status line (a rejected config reload), shown until the next good reload.
    public internal(set) var statusMessage: String?
    public internal(set) var eventLog = EventLog()
    /// Recent probes by resource (`Pane.historyKey`: its service, URL and load request), shared
    /// by the panes showing that resource.
    public internal(set) var histories: [String: ProbeHistory] = [:]
    /// Where histories are kept across runs; nil for nowhere.
    let historyStore: HistoryStore?
    /// Frames drawn so far.
    public internal(set) var framesDrawn = 0
    var spinnerTick = 0

    /// Called when the user quits, with the exit status.
    public var onQuit: (@MainActor (Int32) -> Void)?
    /// Called when the user presses Ctrl-Z.
    public var onSuspend: (@MainActor () -> Void)?
    /// Hands the terminal to a pager showing the text; returns why it could not, or nil.
    public var onPage: (@MainActor (String) -> String?)?
    /// Called for every resource event (the `events` command streams these).
    public var onEvent: (@MainActor (EventLog.Entry) -> Void)?
    /// Called after every frame with the number of cells sent.
    public var onFrame: (@MainActor (Int) -> Void)?
    /// Called with every notice the status line gets (a headless run prints them).
    public var onNotice: (@MainActor (String) -> Void)?
    /// Called whenever what the panes say may have changed (a probe, a reload): `/metrics` and
    /// `/api/panes` render again.
    public var onStateChange: (@MainActor () -> Void)?
    /// The header's counts, updated as panes change.
    var healthCounts = HealthCounts()
    /// Runs what the panes' `alerts:` ask for.
    let alertActions: AlertActions
    /// Each firing pane's reminder timer, by pane.
    var reminders: [ObjectIdentifier: ScheduledAction] = [:]

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
    private var eventOwner = EventOwner()
    var started = false
    /// Counts starts, so work a previous start queued (batches of loads) knows it is stale.
    private var generation = 0
    /// The panes showing each resource, so a resource event does not scan every pane.
    var panesByResource: [ObjectIdentifier: ResourcePanes] = [:]
    /// The URLs of login requests as written, for their event-log lines.
    var loginURLs: [ObjectIdentifier: String] = [:]

    /// A class: it is looked up several times for every event of every probe, and a lookup of a
    /// class costs one retain where a struct's copy retained each of its arrays and strings.
    final class ResourcePanes {
        var panes: [Pane] = []
        var titles: [String] = []
        let url: String
        let method: String
        let identity: String
        var historyCapacity = 0
        /// When the latest load of the resource started, in this run (the panes' cadence counts from it).
        var lastRequested: TimeInterval?

        init(url: String, method: String, identity: String) {
            self.url = url
            self.method = method
            self.identity = identity
        }
    }

    /// Loads due this close to now start now: the real scheduler runs actions due within its
    /// batch window (50 ms) together.
    static let cadenceSlack: TimeInterval = 0.06

    private final class EventOwner {}

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
        self.historyStore = historyStore
        self.spec = spec
        self.terminal = terminal
        self.clock = clock
        self.scheduler = scheduler
        self.timeZone = timeZone
        self.valueDisplay = ValueDisplay(timeZone: timeZone) { [clock] in clock.now }
        self.makeServices = makeServices
        self.services = makeServices(spec)
        self.redactor = Redactor(spec)
        self.alertActions = AlertActions(environment: environment)
        setUpAlertActions()
        listenForLiveReports()
    }

    /// Values read again while running (a token file) say on the status line when a new
    /// content cannot be used.
    private func listenForLiveReports() {
        spec.liveReports.onReport { [weak self] message in self?.send(.notice(message)) }
    }

    // MARK: Life cycle

    /// Builds the panes, draws, and starts each pane's refresh cadence (which loads at once).
    public func start() {
        guard !started else { return }
        generation += 1
        // Not started while building: cached data arriving as observers are added must not start
        // loads ahead of the first frame; the batches below start them.
        buildPanes()
        started = true
        if histories.isEmpty, let historyStore {
            let capacities = Dictionary(panesByResource.values.map { ($0.identity, $0.historyCapacity) }, uniquingKeysWith: max)
            histories = historyStore.load(namespace: spec.historyNamespace, capacities: capacities)
        }
        requestFrame(urgent: true)
        assignStartPhases(now: clock.now)
        startCadences(from: 0, generation: generation)
        scheduleTick()
    }

    /// How many panes start loading per main-queue turn: the first frame and every key (q,
    /// Ctrl-C) and signal get their turn between batches, however many panes there are.
    public static let startBatch = 500

    /// How many resources start loading in the same instant; more are spread over the first
    /// second (or their refresh interval, if shorter), `phaseGroup` per step.
    public static let phaseGroup = 50

    /// Gives each resource's panes a start phase: the first `phaseGroup` resources load at once,
    /// the next group a step later, and so on across `min(every, 1 s)`. A thousand endpoints
    /// every second then run as a steady stream instead of a burst of a thousand transfers each
    /// second (which holds a thousand responses in memory at once and can stall libcurl).
    private func assignStartPhases(now: TimeInterval) {
        let groups = (panesByResource.count + Self.phaseGroup - 1) / Self.phaseGroup
        guard groups > 1 else { return }
        var index = 0
        var seen = Set<ObjectIdentifier>()
        for pane in panes {
            let id = ObjectIdentifier(pane.resource)
            guard seen.insert(id).inserted, let shown = panesByResource[id] else { continue }
            let window = min(1, shown.panes.map(\.every).min() ?? 1)
            let phase = now + window * Double(index / Self.phaseGroup) / Double(groups)
            for sharing in shown.panes { sharing.firstLoadNotBefore = phase }
            index += 1
        }
    }

    /// Starts the panes' cadences `startBatch` at a time, the rest on later main-queue turns.
    /// `generation` ends a run of batches when the app stops or reloads in between.
    private func startCadences(from first: Int, generation: Int) {
        guard started, generation == self.generation else { return }
        let end = min(panes.count, first + Self.startBatch)
        for pane in panes[first..<end] { updateCadence(of: pane) }
        guard end < panes.count else { return }
        DispatchQueue.main.async { @Sendable in
            MainActor.assumeIsolated { self.startCadences(from: end, generation: generation) }
        }
    }

    /// Stops timers, saves histories, and detaches every pane from its resource.
    public func stop() {
        if savesHistory { historyStore?.save(histories, namespace: spec.historyNamespace) }
        tickAction?.cancel()
        tickAction = nil
        cancelReminders()
        for pane in panes { pane.detach() }
        panes = []
        panesOnScreen = []
        panesOnScreenBefore = []
        healthCounts = HealthCounts()
        panesByResource = [:]
        eventOwner = EventOwner()
        started = false
    }

    private func buildPanes() {
        panesByResource = [:]
        panes = spec.panes.map { paneSpec in
            let resource = spec.resource(for: paneSpec, in: services)
            let id = ObjectIdentifier(resource)
            let pane = Pane(
                spec: paneSpec, resource: resource, every: spec.refreshInterval(for: paneSpec), displayURL: spec.displayURL(for: paneSpec),
                redactor: redactor, display: valueDisplay
            ) { [weak self] in
                self?.send(.resourceChanged)
            }
            let shown: ResourcePanes
            if let existing = panesByResource[id] {
                shown = existing
            } else {
                shown = ResourcePanes(url: pane.displayURL, method: resource.loadRequest?.method.httpName ?? "GET", identity: pane.historyKey)
                panesByResource[id] = shown
            }
            shown.panes.append(pane)
            shown.titles.append(paneSpec.title)
            shown.historyCapacity = max(shown.historyCapacity, paneSpec.history)
            return pane
        }
        // Logins are requests like any other: their outcomes go to the event log too.
        let logins = spec.loginResources(in: services).filter { panesByResource[ObjectIdentifier($0.resource)] == nil }
        loginURLs = Dictionary(logins.map { (ObjectIdentifier($0.resource), $0.displayURL) }) { first, _ in first }
        // Each shown resource once, in the file's order (its first pane's place), then the logins.
        let shown = panes.filter { panesByResource[ObjectIdentifier($0.resource)]?.panes.first === $0 }.map(\.resource)
        for resource in shown + logins.map(\.resource) {
            resource.addObserver(owner: eventOwner) { [weak self] resource, event in
                self?.record(event, on: resource)
            }
        }
        recountAll()
    }

    /// Counts `pane` for the header again (after anything that may change its state).
    func recount(_ pane: Pane) {
        if let old = pane.counted { healthCounts.add(old, -1) }
        let now = HealthCounts.Counted(health: pane.health, loading: pane.resource.isLoading)
        healthCounts.add(now, 1)
        pane.counted = now
    }

    func recountAll() {
        healthCounts = HealthCounts()
        for pane in panes {
            pane.counted = nil
            recount(pane)
        }
    }

    // MARK: Cadence

    /// Loads the pane's resource if it is due (and nothing pauses or already loads it), else
    /// sets the pane's timer for when it will be.
    func updateCadence(of pane: Pane) {
        updateCadence(of: pane, lastRequested: panesByResource[ObjectIdentifier(pane.resource)]?.lastRequested)
    }

    /// As above, with when the pane's resource was last requested (its panes' record, at hand).
    func updateCadence(of pane: Pane, lastRequested: TimeInterval?) {
        guard started, !isPaused, refreshesOnItsOwn else { return pane.cancelCadence() }
        let now = clock.now
        guard let due = pane.nextLoadDue(lastRequested: lastRequested, now: now) else { return pane.cancelCadence() }
        if due <= now + Self.cadenceSlack {
            pane.cancelCadence()
            // Reports `requested` at once, which brings every pane of the resource back here.
            pane.resource.load()
            // A load started early keeps the schedule: the next one is due `every` after this
            // one was due, not after it started, or early starts would add up (two panes every
            // 100 ms, batched together, were each loaded every 50 ms).
            if due > now, let shown = panesByResource[ObjectIdentifier(pane.resource)], let requested = shown.lastRequested, requested < due {
                shown.lastRequested = due
            }
        } else {
            pane.scheduleCadence(at: due, now: now, scheduler: scheduler) { [weak self, weak pane] in
                if let self, let pane { self.updateCadence(of: pane) }
            }
        }
    }

    /// Reloads every resource once, as a key press (`R`).
    func reloadAll() {
        for shown in panesByResource.values {
            guard let first = shown.panes.first else { continue }
            let request = first.reload()
            for pane in shown.panes.dropFirst() { pane.overlay.trackManualLoad(request) }
        }
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
            onStateChange?()
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
            onStateChange?()
        case .notice(let text):
            statusMessage = redactor.redact(text)
            onNotice?(statusMessage ?? "")
            requestFrame()
        }
    }

    private func applyReload(_ outcome: ConfigReloader.Outcome) {
        switch outcome {
        case .reloaded(let newSpec):
            let selectedTitle = selectedPane?.spec.title
            let counts = countsByPane()
            stop()
            spec.liveReports.onReport(nil)
            spec = newSpec
            listenForLiveReports()
            // The new spec's redactor also masks what the old one did (`retiredSecrets`).
            redactor = Redactor(newSpec)
            // Resources hold their service, the service caches them, and its configuration may
            // hold a login session holding one: the old service lets go of all, and all can go.
            services.tearDown()
            services = makeServices(newSpec)
            statusMessage = nil
            start()
            restoreCounts(counts)
            recountAll()
            // Histories continue for requests still shown; the rest go.
            let shown = Set(panes.map(\.historyKey))
            histories = histories.filter { shown.contains($0.key) }
            let visible = visiblePanes
            if let title = selectedTitle, let index = visible.firstIndex(where: { $0.spec.title == title }) {
                select(index, in: visible)
            }
        case .rejected(let errors):
            let first = errors.problems.first.map(\.description) ?? "invalid config"
            let more = errors.problems.count > 1 ? " (+\(errors.problems.count - 1) more)" : ""
            statusMessage = redactor.redact("config not reloaded: \(first)\(more); still running the previous config")
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
