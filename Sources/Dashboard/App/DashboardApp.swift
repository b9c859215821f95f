import DashboardConfig
import DashboardKeys
import Dispatch
import FoundationEssentials
import Monitor
import Redaction
import ResourceEngine
import TerminalUI

/// The dashboard's runtime: the bubbletea loop over a `Monitor`.
///
/// Keys, resizes, resource changes, ticks and config reloads arrive as `DashboardMessage`s
/// through `send(_:)`; `DashboardModel.update` changes the model and returns effects as data;
/// the runtime carries them out (loads, the clipboard, the pager, timers, frames) after it
/// returns, and messages those effects cause wait their turn: `send` never runs inside itself.
/// Frames draw the model through `DashboardView`, coalesced and paced; an unchanged frame writes
/// nothing (the terminal's diff). Everything runs headless with a `TestBackend`, fake
/// networking and a manual scheduler.
@MainActor
public final class DashboardApp {
    public typealias Message = DashboardMessage
    public typealias Mode = DashboardModel.Mode

    /// The screen's state: changed only by `update`, in `send`.
    public private(set) var model = DashboardModel()
    /// What the panes' probes say: cadence, verdicts, alerts, histories, the event log.
    public let monitor: Monitor
    public var spec: DashboardSpec { monitor.spec }
    /// The theme's colours, made once per config (a reload may change it) or `:theme`.
    var palette: Palette? {
        var theme = spec.theme
        if let chosen = model.themeOverride { theme = ThemeSpec(base: chosen, roles: theme.roles) }
        if let cached = paletteCache, cached.theme == theme { return cached.palette }
        let palette = Theme.palette(theme)
        paletteCache = (theme, palette)
        return palette
    }
    private var paletteCache: (theme: ThemeSpec, palette: Palette?)?
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
    let timeZone: ZoneInfo?
    /// Formatted or raw values (`v`), shared by every pane.
    public let valueDisplay: ValueDisplay
    /// The least time between frames caused by background activity (resource events, ticks).
    /// Keys and resizes draw on the next main-queue turn regardless.
    var minimumFrameInterval: Double { pacing.minimumInterval }

    /// Index into `visiblePanes` of the selected pane: the pane the user chose, wherever a
    /// re-sort (`s`, failing first, as probes come in) or a filter has moved it since.
    public var selection: Int {
        catchUp()
        return model.selectionIndex(in: model.visiblePanes, id: \.id)
    }
    public var isZoomed: Bool { model.isZoomed }
    /// The zoomed pane's view (data, response, request, timing, error).
    public var zoomView: ZoomView { model.zoomView }
    /// What `/` searches for in a zoomed detail view.
    public var zoomSearch: String { model.zoomSearch }
    /// The curl command `c` made, shown while `mode` is `.curl`.
    public var curlCommand: String { model.curlCommand }
    public var eventFilter: String { model.eventFilter }
    public var eventsOfSelectedPaneOnly: Bool { model.eventsOfSelectedPaneOnly }
    /// A one-line answer to a key (the pager failed, nothing to page), shown until the next key.
    public var flash: String? { model.flash }
    public var mode: Mode { model.mode }
    public var filter: String { model.filter }
    public var sortFailingFirst: Bool { model.sortFailingFirst }
    /// Memoised by the view between frames.
    let caches = ViewCaches()
    /// While paused nothing refreshes on its own; resuming refreshes whatever has fallen due.
    public var isPaused: Bool {
        get { monitor.isPaused }
        set {
            monitor.isPaused = newValue
            // Every pane's next refresh moved (or went).
            sendPanes()
        }
    }
    /// False for a frame read in a log (`snapshot`): no key hints in the header or the footer.
    public var showsKeys = true
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
    public var statusMessage: String? { model.statusMessage }
    public var eventLog: EventLog { monitor.eventLog }
    /// Recent probes by resource (`Pane.historyKey`), shared by the panes showing that resource.
    public var histories: [String: ProbeHistory] { monitor.histories }
    /// Frames drawn so far.
    public internal(set) var framesDrawn = 0

    /// Called when the user quits, with the exit status.
    public var onQuit: (@MainActor (Int32) -> Void)?
    /// Called when the user presses Ctrl-Z.
    public var onSuspend: (@MainActor () -> Void)?
    /// Hands the terminal to a pager showing the text; returns why it could not, or nil.
    public var onPage: (@MainActor (String) -> String?)?
    /// Hands the terminal to an editor with the config file; returns why it could not, or nil.
    /// The host reloads the config after (`configReloaded`).
    public var onEdit: (@MainActor (String) -> String?)?
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
    /// The panes the latest frame showed, in any view (what the view drew).
    var drawn = DrawnPanes()
    /// The frame before's, kept to compare with (its storage is reused: no array per frame).
    var drawnBefore = DrawnPanes()
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
        timeZone: ZoneInfo? = nil,
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
        monitor.onProbeMoved = { [weak self] probe, old in self?.paneMoved(probe, from: old) }
        monitor.onProbesChanged = { [weak self] probes in self?.noteNews(of: probes) }
        monitor.onResourceEvent = { [weak self] event, probes in
            guard let self else { return }
            if event == .requested { pacing.loadStarted(at: Self.uptime()) }
            noteNews(of: probes)
        }
        monitor.onReminder = { [weak self] in self?.send(.reminded) }
        monitor.onNotice = { [weak self] message in self?.send(.notice(message)) }
        monitor.onBell = { [weak self] in self?.terminal?.bell() }
        monitor.onAlertActionFailed = { [weak self] line in self?.send(.flash(line)) }
    }

    // MARK: Life cycle

    /// Builds the panes, draws, and starts each pane's refresh cadence (which loads at once).
    public func start() {
        guard !started else { return }
        monitor.start()
        sendPanes()
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
        drawn.panes = []
        drawnBefore.panes = []
    }

    /// A pane for each probe, observing its resource for the overlay (before the monitor does).
    private func buildPanes(for probes: [Probe]) {
        detachPanes()
        panes = probes.map { probe in
            let id = ObjectIdentifier(probe)
            return Pane(probe: probe) { [weak self] count in self?.send(.manualLoads(id, count)) }
        }
    }

    /// A chained pane's probe moved to another resource: its pane observes that one, and the
    /// model learns its new request.
    private func paneMoved(_ probe: Probe, from old: Resource) {
        guard let pane = panes.first(where: { $0.probe === probe }) else { return }
        pane.follow(from: old)
        send(.paneMoved(pane.state))
    }

    /// Tells the model of the panes as they stand (after a start, a reload, a pause).
    private func sendPanes() {
        probesWithNews.removeAll(keepingCapacity: true)
        probesWithNewsIDs.removeAll(keepingCapacity: true)
        send(.panes(panes.map(\.state)))
    }

    /// Probes whose resources had events the model has not heard of, in order, once each.
    private var probesWithNews: [Probe] = []
    private var probesWithNewsIDs: Set<ObjectIdentifier> = []

    /// Keeps `probes` for the model's next catching up, and says there is news
    /// (`probesChanged`: a frame and a tick, which a held frame waits for). A resource has two
    /// events or more a load, and a thousand panes answer between two frames: a report is made
    /// once per pane per frame, not per event.
    private func noteNews(of probes: [Probe]) {
        for probe in probes where probesWithNewsIDs.insert(ObjectIdentifier(probe)).inserted {
            probesWithNews.append(probe)
        }
        send(.probesChanged)
    }

    /// Hands the model the reports of probes with news: before any other message is handled and
    /// before a frame, so nothing reads the model behind the monitor.
    func catchUp() {
        guard !probesWithNews.isEmpty else { return }
        var reports: [(PaneID, ProbeReport)] = []
        reports.reserveCapacity(probesWithNews.count)
        for probe in probesWithNews { reports.append((ObjectIdentifier(probe), probe.report)) }
        probesWithNews.removeAll(keepingCapacity: true)
        probesWithNewsIDs.removeAll(keepingCapacity: true)
        for effect in model.update(.probed(reports), world: self) { perform(effect) }
    }

    /// Reloads every resource once, as a key press (`R`).
    func reloadAll() {
        let panesByProbe = Dictionary(panes.map { ($0.id, $0) }) { first, _ in first }
        for (probes, request) in monitor.reloadAll() {
            for probe in probes { panesByProbe[ObjectIdentifier(probe)]?.overlay.trackManualLoad(request) }
        }
    }

    /// The probes of the resource a pane shows.
    public func history(for pane: Pane) -> ProbeHistory? {
        monitor.history(for: pane.probe)
    }

    // MARK: Messages

    /// Messages waiting while `send` carries out effects (a load reports `requested` at once).
    private var pending: [DashboardMessage] = []
    private var sending = false
    /// Where and when the last left press was, to tell a double click.
    private var lastPress: (x: Int, y: Int, time: TimeInterval)?

    /// The one way to change the dashboard: `update`, then its effects, then whatever messages
    /// those caused, in order.
    public func send(_ message: DashboardMessage) {
        var message = message
        // A notice may come from anywhere (a host, a file): it reaches the model redacted.
        if case .notice(let text) = message { message = .notice(redactor.redact(text)) }
        guard !sending else { return pending.append(message) }
        sending = true
        defer { sending = false }
        process(message)
        guard !pending.isEmpty else { return }
        var next = 0
        while next < pending.count {
            let queued = pending[next]
            next += 1
            process(queued)
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// `update`, then its effects. The world `update` reads is this runtime; none of what it
    /// reads is the model.
    private func process(_ message: DashboardMessage) {
        if case .probesChanged = message {} else { catchUp() }
        if case .key(.mouse(let event)) = message, event.isLeftPress {
            for click in clicked(event) {
                for effect in model.update(click, world: self) { perform(effect) }
            }
            return
        }
        for effect in model.update(message, world: self) { perform(effect) }
    }

    /// A left press at the cell of the one before, this soon after it, is a double click.
    static let doubleClickInterval: TimeInterval = 0.4

    /// What a left click means, from what is on screen: a second press soon at the same place is
    /// a double click (the terminal does not say), and a press on a pane's "[t] Try again" is the
    /// click that chooses the pane, then `t`.
    private func clicked(_ event: MouseEvent) -> [DashboardMessage] {
        var event = event
        let now = clock.now
        if let last = lastPress, last.y == event.y, abs(last.x - event.x) <= 1, now - last.time <= Self.doubleClickInterval {
            event.clicks = 2
            lastPress = nil
        } else {
            lastPress = (event.x, event.y, now)
        }
        var messages: [DashboardMessage] = [.key(.mouse(event))]
        if event.clicks == 1, model.mode == .normal, !model.isZoomed,
            terminal?.lastFrame.text(StatusOverlay.retryLabel(spec.keyMap), coversX: event.x, y: event.y) == true {
            messages.append(.action(.retry))
        }
        return messages
    }

    private func perform(_ effect: DashboardEffect) {
        switch effect {
        case .reload(let id): pane(id)?.reload()
        case .retry(let id): pane(id)?.retry()
        case .reloadAll: reloadAll()
        case .setPaused(let paused): isPaused = paused
        case .mute(let id, let duration): if let probe = pane(id)?.probe { monitor.mute(probe, for: duration) }
        case .unmute(let id): if let probe = pane(id)?.probe { monitor.unmute(probe) }
        case .setRawValues(let raw): valueDisplay.raw = raw
        case .editConfig:
            guard let onEdit else { return send(.flash("no terminal to edit in")) }
            if let problem = onEdit(spec.file) { send(.flash(problem)) }
        case .copyToClipboard(let text): terminal?.copyToClipboard(text)
        case .page(let id): if let pane = model.pane(id) { openPager(for: pane) }
        case .suspend: onSuspend?()
        case .quit(let status): onQuit?(status)
        case .applyConfig(let outcome):
            let result = monitor.apply(outcome)
            if case .reloaded = result {
                sendPanes()
                caches.keepContents(of: panes.map(\.state))
            }
            send(.configApplied(result))
        case .notify(let text): onNotice?(text)
        case .frame(let urgent): requestFrame(urgent: urgent)
        case .tickSoon:
            // Tick soon even if the screen was idle and the next tick was a minute away. When
            // nothing loads any more, a tick set for spinners is set again for the next age or minute.
            if tickAction != nil, tickDue - clock.now > 0.2 {
                scheduleTick(after: 0.2)
            } else if tickIsForSpinners, healthCounts.loading == 0 {
                scheduleTick()
            }
        case .tickAgain: scheduleTick()
        }
    }

    func pane(_ id: PaneID) -> Pane? {
        panes.first { $0.id == id }
    }

    /// Hands the terminal to `$PAGER` with the pane's last answer body (redacted, pretty when JSON).
    private func openPager(for pane: PaneState) {
        guard let body = view().bodyText(of: pane) else {
            return send(.flash("no body to page: \(pane.spec.title) has no answer yet"))
        }
        guard let onPage else { return send(.flash("no terminal to page in")) }
        if let problem = onPage(body) { send(.flash(problem)) }
    }

    /// The view of the model as it stands.
    func view(of model: DashboardModel? = nil) -> DashboardView {
        DashboardView(
            model: model ?? self.model, spec: monitor.spec, redactor: monitor.redactor, eventLog: monitor.eventLog,
            healthCounts: monitor.healthCounts, histories: monitor.histories, isPaused: monitor.isPaused,
            size: terminal?.size ?? Size(columns: 80, rows: 24), now: clock.now, timeZone: timeZone, valueDisplay: valueDisplay,
            caches: caches, drawn: drawn, showsKeys: showsKeys)
    }

    /// The panes after the filter and the failing-first sort, in display order.
    public var visiblePanes: [Pane] {
        catchUp()
        let byID = Dictionary(panes.map { ($0.id, $0) }) { first, _ in first }
        return model.visiblePanes.compactMap { byID[$0.id] }
    }

    public var selectedPane: Pane? {
        catchUp()
        return model.selectedPane.flatMap { pane($0.id) }
    }

    /// "200 · 41 ms · 2s ago ⠋": what a pane's title bar says about its last exchange.
    public func statusText(for pane: Pane, fitting room: Int = .max) -> String {
        catchUp()
        return model.pane(pane.id).map { view().statusText(for: $0, fitting: room) } ?? ""
    }

    /// What a pane shows of its content, as the view draws it.
    func content(of pane: Pane) -> PaneContent? {
        catchUp()
        return model.pane(pane.id).flatMap { view().content(of: $0) }
    }

    /// The panes the latest frame drew.
    var panesOnScreen: [PaneID] { drawn.panes }

    /// The event log's lines as the events view shows them, filtered.
    public var shownEvents: [String] { view().shownEvents }

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
        catchUp()
        // A plain loop: a closure of a main-actor method checks the executor on every call.
        for id in drawn.panes where model.pane(id)?.probe.resource.isLoading == true { return 0.2 }
        let now = clock.now
        var next = Formatting.untilClockChanges(now)
        for id in drawn.panes {
            if let data = model.pane(id)?.probe.resource.latestData { next = min(next, Formatting.untilAgeChanges(max(0, now - data.timestamp))) }
            if let until = caches.contentValidUntil(id) { next = min(next, max(0, until - now)) }
        }
        // A little past the boundary, so the tick reads the new text.
        return max(0.05, next + 0.01)
    }
}
