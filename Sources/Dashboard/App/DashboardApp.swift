import DashboardConfig
import Dispatch
import Foundation
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
    private var chosenPane: ObjectIdentifier?
    private var chosenIndex = 0
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
    public private(set) var eventLog = EventLog()
    /// Recent probes by resource (`Pane.historyKey`: its service, URL and load request), shared
    /// by the panes showing that resource.
    public private(set) var histories: [String: ProbeHistory] = [:]
    /// Where histories are kept across runs; nil for nowhere.
    let historyStore: HistoryStore?
    /// Frames drawn so far.
    public private(set) var framesDrawn = 0
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

    private var frameScheduled = false
    private var urgentFrameScheduled = false
    /// A held background frame is to be drawn on the next turn (its loads have answered).
    private var heldFrameReleased = false
    /// Counts frames drawn: a scheduled draw carries the count it was scheduled at and is stale
    /// once another frame has been drawn.
    private var frameToken = 0
    /// When background frames are drawn, on the uptime clock.
    private var pacing: FramePacing
    /// The panes the latest frame showed, in any view (set by `render`).
    var panesOnScreen: [Pane] = []
    /// The frame before's, kept to compare with (its storage is reused: no array per frame).
    private var panesOnScreenBefore: [Pane] = []
    private var tickAction: ScheduledAction?
    /// The pending tick is for spinners (something was loading when it was set).
    private var tickIsForSpinners = false
    /// When the pending tick fires, on the engine clock.
    private var tickDue: TimeInterval = 0
    private var eventOwner = EventOwner()
    private var started = false
    /// Counts starts, so work a previous start queued (batches of loads) knows it is stale.
    private var generation = 0
    /// The panes showing each resource, so a resource event does not scan every pane.
    private var panesByResource: [ObjectIdentifier: ResourcePanes] = [:]
    /// The URLs of login requests as written, for their event-log lines.
    private var loginURLs: [ObjectIdentifier: String] = [:]

    /// A class: it is looked up several times for every event of every probe, and a lookup of a
    /// class costs one retain where a struct's copy retained each of its arrays and strings.
    private final class ResourcePanes {
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

    private func record(_ event: ResourceEvent, on resource: Resource) {
        guard event != .observerAdded else { return }
        let id = ObjectIdentifier(resource)
        // Looked up once per event and handed on: the lookups below each hashed and checked it.
        let shown = panesByResource[id]
        let now = clock.now
        if event == .requested {
            shown?.lastRequested = now
            pacing.loadStarted(at: Self.uptime())
        }
        let finished = event != .requested
        let entry = EventLog.Entry(
            time: now, url: shown?.url ?? loginURLs[id] ?? redactor.redactURL(resource.url.absoluteString),
            method: shown?.method ?? resource.loadRequest?.method.httpName ?? "GET",
            panes: shown?.titles ?? [],
            event: event.externalName,
            statusCode: finished ? resource.latestMetrics?.statusCode : nil,
            latency: finished ? resource.latestMetrics?.latency : nil,
            message: event == .error ? resource.latestError.map { PaneContent.bounded(redactor.redact($0.userMessage), to: 2_000) } : nil)
        eventLog.append(entry)
        onEvent?(entry)
        if let shown {
            evaluatePanes(shown, after: event)
            recordProbe(event, on: resource, shown: shown, at: now)
            for pane in shown.panes {
                // Read for each pane: a load one of them starts sets it again.
                updateCadence(of: pane, lastRequested: shown.lastRequested)
                recount(pane)
            }
        }
        send(.resourceChanged)
    }

    /// A finished network load (new data, 304 or error) becomes a probe in the resource's history;
    /// it worked when every pane showing the resource works with it (an error status that
    /// expectations ask for is a pane working; an unmet expectation is not).
    private func recordProbe(_ event: ResourceEvent, on resource: Resource, shown: ResourcePanes, at now: TimeInterval) {
        switch event {
        case .newData(.network), .notModified, .error: break
        default: return
        }
        guard let metrics = resource.latestMetrics else { return }
        // Up when every pane showing it is (its request, content and expectations all good);
        // answered unless the request failed (an error status expectations ask for is an answer).
        // A loop, not `allSatisfy`: a closure here would check the executor on every probe.
        var ok = true
        for pane in shown.panes where pane.verdict != .ok {
            ok = false
            break
        }
        let answered = event != .error || shown.panes.allSatisfy(\.errorIsExpected)
        let probe = ProbeHistory.Probe(time: now, latency: metrics.latency, statusCode: metrics.statusCode, ok: ok, answered: answered)
        histories[shown.identity, default: ProbeHistory(capacity: shown.historyCapacity)].append(probe)
    }

    /// Re-checks the expectations and the content of the panes `shown` after a
    /// finished load, and logs `ExpectationFailed` / `ExpectationsMet` and `ContentFailed` /
    /// `ContentRecovered` when a pane's verdict changes.
    private func evaluatePanes(_ shown: ResourcePanes, after event: ResourceEvent) {
        switch event {
        case .newData, .notModified, .error: break
        default: return
        }
        let isProbe = switch event {
        case .newData(.network), .notModified, .error: true
        default: false
        }
        for pane in shown.panes {
            defer { if isProbe { countProbe(of: pane) } }
            let changed = pane.evaluate()
            if changed.expectations {
                log(pane.unmetExpectation == nil ? "ExpectationsMet" : "ExpectationFailed", pane: pane, message: pane.unmetExpectation)
            }
            if changed.content {
                log(pane.contentProblem == nil ? "ContentRecovered" : "ContentFailed", pane: pane, message: pane.contentProblem)
            }
        }
    }

    /// Adds a pane's own event (a verdict, an alert) to the log and the `events` stream, under
    /// its resource's URL and method as the resource's own events show them.
    func log(_ event: String, pane: Pane, message: String?, state: String? = nil) {
        let metrics = pane.resource.latestMetrics
        let shown = panesByResource[ObjectIdentifier(pane.resource)]
        let entry = EventLog.Entry(
            time: clock.now, url: shown?.url ?? pane.displayURL, method: shown?.method ?? pane.spec.method.httpName,
            panes: [pane.spec.title], event: event,
            statusCode: metrics?.statusCode, latency: metrics?.latency, message: message, state: state)
        eventLog.append(entry)
        onEvent?(entry)
    }

    /// The probes of the resource a pane shows.
    public func history(for pane: Pane) -> ProbeHistory? {
        histories[pane.historyKey]
    }

    // MARK: Cadence

    /// Loads the pane's resource if it is due (and nothing pauses or already loads it), else
    /// sets the pane's timer for when it will be.
    func updateCadence(of pane: Pane) {
        updateCadence(of: pane, lastRequested: panesByResource[ObjectIdentifier(pane.resource)]?.lastRequested)
    }

    /// As above, with when the pane's resource was last requested (its panes' record, at hand).
    private func updateCadence(of pane: Pane, lastRequested: TimeInterval?) {
        guard started, !isPaused, refreshesOnItsOwn else { return pane.cancelCadence() }
        let now = clock.now
        guard let due = pane.nextLoadDue(lastRequested: lastRequested, now: now) else { return pane.cancelCadence() }
        if due <= now + Self.cadenceSlack {
            pane.cancelCadence()
            // Reports `requested` at once, which brings every pane of the resource back here.
            pane.resource.load()
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
    private func scheduleTick(after interval: TimeInterval? = nil) {
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

    // MARK: Panes in view

    /// The panes after the filter and the failing-first sort, in display order.
    public var visiblePanes: [Pane] {
        var result = panes
        if !filter.isEmpty {
            let needle = filter.lowercased()
            result = result.filter {
                $0.spec.title.lowercased().contains(needle) || $0.displayURL.lowercased().contains(needle)
            }
        }
        if sortFailingFirst {
            let rank: (Pane) -> Int = { pane in
                switch pane.health {
                case .failing, .unmet: 0
                case .degraded: 1
                case .loading, .waiting: 2
                case .ok: 3
                }
            }
            result = result.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        }
        return result
    }

    public var selectedPane: Pane? {
        let visible = visiblePanes
        let index = selectionIndex(in: visible)
        return visible.indices.contains(index) ? visible[index] : nil
    }

    /// Where the chosen pane is in `visible` (the panes in display order); where it was, kept
    /// within them, when it is not there.
    func selectionIndex(in visible: [Pane]) -> Int {
        if let chosenPane, let index = visible.firstIndex(where: { ObjectIdentifier($0) == chosenPane }) { return index }
        return max(0, min(chosenIndex, visible.count - 1))
    }

    /// Chooses the pane at `index` of `visible`.
    func select(_ index: Int, in visible: [Pane]) {
        chosenIndex = max(0, min(index, visible.count - 1))
        chosenPane = visible.indices.contains(chosenIndex) ? ObjectIdentifier(visible[chosenIndex]) : nil
    }

    /// Chooses the pane the selection now falls on (after a filter that hid the chosen one).
    func clampSelection() {
        let visible = visiblePanes
        select(selectionIndex(in: visible), in: visible)
    }

    // MARK: Frames

    /// Asks for a frame. Many requests make one frame; background ones (`urgent: false`) come at
    /// most every `minimumFrameInterval` (0.2 s by default: five a second, which is what a
    /// monitor's eye needs), so fifty endpoints answering through a second do not redraw fifty
    /// times, and wait briefly for loads that have just started (`FramePacing`); urgent ones
    /// (keys, resizes) draw on the next main-queue turn.
    public func requestFrame(urgent: Bool = false) {
        guard terminal != nil else { return }
        if urgent {
            guard !urgentFrameScheduled else { return }
            urgentFrameScheduled = true
            scheduleDraw(after: nil)
            return
        }
        if frameScheduled {
            if !heldFrameReleased, pacing.releases(loading: healthCounts.loading > 0) {
                heldFrameReleased = true
                scheduleDraw(after: nil)
            }
            return
        }
        guard !urgentFrameScheduled else { return }
        frameScheduled = true
        scheduleDraw(after: pacing.wait(now: Self.uptime()))
    }

    /// Draws on the next main-queue turn (nil) or after `wait` seconds, unless a frame has been
    /// drawn in between.
    private func scheduleDraw(after wait: Double?) {
        let token = frameToken
        let draw = { @Sendable in MainActor.assumeIsolated { self.drawScheduledFrame(token) } }
        if let wait {
            DispatchQueue.main.asyncAfter(deadline: .now() + wait, execute: draw)
        } else {
            DispatchQueue.main.async(execute: draw)
        }
    }

    private func drawScheduledFrame(_ token: Int) {
        guard token == frameToken, frameScheduled || urgentFrameScheduled else { return }
        if !urgentFrameScheduled, let hold = pacing.hold(now: Self.uptime(), loading: healthCounts.loading > 0) {
            scheduleDraw(after: hold)
            return
        }
        drawNow()
    }

    /// Seconds on the monotonic clock frames are paced by.
    private static func uptime() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// Draws a frame now; returns the number of cells sent.
    @discardableResult
    public func drawNow() -> Int {
        // A stopped app draws nothing: a frame left on the main queue must not outlive quitting.
        guard let terminal, started else { return 0 }
        framesDrawn += 1
        frameToken += 1
        pacing.drew(at: Self.uptime())
        frameScheduled = false
        urgentFrameScheduled = false
        heldFrameReleased = false
        swap(&panesOnScreen, &panesOnScreenBefore)
        let sent = terminal.draw { buffer in render(into: &buffer) }
        // Other panes came into view (a key, a resize, a new order): their ages and spinners count now.
        if tickAction != nil, !panesOnScreen.elementsEqual(panesOnScreenBefore, by: ===) { scheduleTick() }
        onFrame?(sent)
        return sent
    }

    func quit(_ status: Int32) {
        onQuit?(status)
    }
}
