import DashboardConfig
import Dispatch
import FoundationEssentials
import Redaction
import ResourceEngine

/// What a probe means, below every screen: one `Probe` per pane of a config, loaded on its
/// cadence (with back-off), judged after every event of its resource (verdict, expectations,
/// content), counted toward its alert (and the alert acted on), kept in its history, written to
/// the event log. The terminal dashboard, `serve`, `events`, `snapshot` and `/metrics` all read
/// the same monitor; it knows no terminal.
///
/// It tells its host of changes through callbacks (`onResourceEvent`, `onEvent`, `onNotice`, …);
/// a host changes it through its methods, on the main actor.
@MainActor
public final class Monitor {
    // What every event reads is stored privately (`stored…`) and reached through public
    // accessors: the compiler then sees every access and needs no run-time exclusivity check
    // (one per read of a public stored property of a class, on every event).
    public var spec: DashboardSpec { storedSpec }
    private var storedSpec: DashboardSpec
    /// The config's engine services, one per service it names.
    public private(set) var services: ServiceGroup
    /// Takes the config's secrets out of everything the monitor reports.
    public var redactor: Redactor { storedRedactor }
    private var storedRedactor: Redactor
    /// One per pane of the config, in its order.
    public private(set) var probes: [Probe] = []
    public let clock: any EngineClock
    let scheduler: any DashboardScheduler
    let makeServices: @MainActor (DashboardSpec) -> ServiceGroup
    /// Makes server text one safe line for alert commands, notifications and webhooks (the
    /// terminal's sanitiser, `Sanitizer.line`, handed down: there is one).
    let oneLine: @Sendable (String) -> String

    /// While paused nothing refreshes on its own; resuming refreshes whatever has fallen due.
    public var isPaused: Bool {
        get { storedIsPaused }
        set {
            let resumed = storedIsPaused && !newValue
            storedIsPaused = newValue
            if resumed { for probe in probes { updateCadence(of: probe) } }
        }
    }
    private var storedIsPaused = false
    /// False for a one-off look (`snapshot`): panes load when told to, never on their own.
    public var refreshesOnItsOwn: Bool {
        get { storedRefreshesOnItsOwn }
        set { storedRefreshesOnItsOwn = newValue }
    }
    var storedRefreshesOnItsOwn: Bool = true
    /// False for a one-off look: kept histories are read (uptime over them) but not written.
    public var savesHistory: Bool {
        get { storedSavesHistory }
        set { storedSavesHistory = newValue }
    }
    var storedSavesHistory: Bool = true
    /// False for a one-off look: states and alert events as ever, but no bell, command or webhook.
    public var actsOnAlerts: Bool {
        get { storedActsOnAlerts }
        set { storedActsOnAlerts = newValue }
    }
    var storedActsOnAlerts: Bool = true
    public internal(set) var eventLog = EventLog()
    /// Recent probes by resource (`Probe.historyKey`: its service, URL and load request), shared
    /// by the probes of that resource.
    public internal(set) var histories: [String: ProbeHistory] = [:]
    /// Where histories are kept across runs; nil for nowhere.
    let historyStore: HistoryStore?
    /// The header's counts, updated as probes change.
    public internal(set) var healthCounts: HealthCounts {
        get { storedHealthCounts }
        set { storedHealthCounts = newValue }
    }
    var storedHealthCounts: HealthCounts = HealthCounts()
    /// Runs what the panes' `alerts:` ask for.
    let alertActions: AlertActions
    /// Each firing probe's reminder timer, by probe.
    var reminders: [ObjectIdentifier: ScheduledAction] = [:]

    /// Called after every event of a probed resource has been judged and logged, with the
    /// probes of that resource (none for a login's).
    public var onResourceEvent: (@MainActor (ResourceEvent, [Probe]) -> Void)? {
        get { storedOnResourceEvent }
        set { storedOnResourceEvent = newValue }
    }
    var storedOnResourceEvent: (@MainActor (ResourceEvent, [Probe]) -> Void)?
    /// Called for every event-log entry (the `events` command streams these).
    public var onEvent: (@MainActor (EventLog.Entry) -> Void)? {
        get { storedOnEvent }
        set { storedOnEvent = newValue }
    }
    var storedOnEvent: (@MainActor (EventLog.Entry) -> Void)?
    /// Called with what the user should know (a live value that cannot be used), redacted.
    public var onNotice: (@MainActor (String) -> Void)? {
        get { storedOnNotice }
        set { storedOnNotice = newValue }
    }
    var storedOnNotice: (@MainActor (String) -> Void)?
    /// Called when an alert rings the bell.
    public var onBell: (@MainActor () -> Void)? {
        get { storedOnBell }
        set { storedOnBell = newValue }
    }
    var storedOnBell: (@MainActor () -> Void)?
    /// Called when an alert's action failed, with a line for the screen.
    public var onAlertActionFailed: (@MainActor (String) -> Void)?
    /// Called after the probes are built, before the monitor observes their resources and before
    /// any of them loads: a screen observes the resources from here on.
    public var onProbesBuilt: (@MainActor ([Probe]) -> Void)?
    /// Called when a chained probe moves to another resource (its request changed, or it waits),
    /// with the resource it left: a screen observes the new one from here on.
    public var onProbeMoved: (@MainActor (Probe, Resource) -> Void)?
    /// Called after a reminder fired, when what the probes say may read differently.
    public var onReminder: (@MainActor () -> Void)?
    /// Called whenever what the probes say may have changed (an event, a reminder, a reload):
    /// `/metrics` and `/api/panes` render again.
    public var onStateChange: (@MainActor () -> Void)? {
        get { storedOnStateChange }
        set { storedOnStateChange = newValue }
    }
    var storedOnStateChange: (@MainActor () -> Void)?

    var started = false
    /// Counts starts, so work a previous start queued (batches of loads) knows it is stale.
    private var generation = 0
    /// What the monitor's observers of the resources are owned by.
    private(set) var eventOwner = EventOwner()
    /// The probes that take values from each probe (`${pane:…}`), by source.
    var dependents: [ObjectIdentifier: [Probe]] = [:]
    /// The probes that depend on each probe (`dependsOn`), by the probe depended on.
    var blockedDependents: [ObjectIdentifier: [Probe]] = [:]
    /// For each login that fails and each origin that refuses connections (`implicitKey`), the
    /// first of its panes to fail on it.
    var implicitRoots: [String: Probe] = [:]
    /// The `connectivity:` checks, while running.
    var connectivity: ConnectivityCheck?
    /// Where firing alerts are posted (`alertmanager:`), while running.
    var alertmanager: AlertmanagerClient?
    /// The place this monitor probes from (`serve --location`): a label of its alerts.
    public var location: String?
    /// Where an Alertmanager alert's `generatorURL` points (`serve`'s `/api/panes`).
    public var generatorURL: String?
    /// Told of probes whose state changed without an event of their own (a pane they depend on
    /// failed or recovered, the network went): a screen makes new reports for them.
    public var onProbesChanged: (@MainActor ([Probe]) -> Void)? {
        get { storedOnProbesChanged }
        set { storedOnProbesChanged = newValue }
    }
    var storedOnProbesChanged: (@MainActor ([Probe]) -> Void)?
    /// The probes of each resource, so a resource event does not scan every probe.
    var probesByResource: [ObjectIdentifier: ResourceProbes] = [:]
    /// The URLs of login requests as written, for their event-log lines.
    var loginURLs: [ObjectIdentifier: String] = [:]

    /// The probes of one resource. A class: it is looked up several times for every event.
    final class ResourceProbes {
        /// Read on every event; changed only by `add` and `remove`, which replace the lists
        /// whole, so no access to them needs a run-time exclusivity check.
        private(set) var probes: [Probe] = []
        private(set) var titles: [String] = []
        let url: String
        let method: String
        let identity: String
        var historyCapacity = 0
        /// When the latest load of the resource started, in this run (the probes' cadence counts from it).
        var lastRequested: TimeInterval?
        /// The content of its latest data, to diff the next answer against.
        var lastContent: ContentValue?

        init(url: String, method: String, identity: String) {
            self.url = url
            self.method = method
            self.identity = identity
        }

        func add(_ probe: Probe) {
            probes = probes + [probe]
            titles = titles + [probe.spec.title]
        }

        func remove(_ probe: Probe) {
            guard let index = probes.firstIndex(where: { $0 === probe }) else { return }
            var (probes, titles) = (self.probes, self.titles)
            (self.probes, self.titles) = ([], [])
            probes.remove(at: index)
            titles.remove(at: index)
            (self.probes, self.titles) = (probes, titles)
        }
    }

    /// The probes of `resource`, if it is probed. The table is read out before it is searched:
    /// an access that spans the search would be checked for overlap at run time.
    func probes(of resource: Resource) -> ResourceProbes? {
        let table = probesByResource
        return table[ObjectIdentifier(resource)]
    }

    final class EventOwner {}

    /// A monitor of `spec`'s panes over the services `makeServices` builds (again on a reload);
    /// `oneLine` is the sanitiser alert text passes through.
    public init(
        spec: DashboardSpec, clock: any EngineClock, scheduler: any DashboardScheduler, historyStore: HistoryStore? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, oneLine: @escaping @Sendable (String) -> String,
        makeServices: @escaping @MainActor (DashboardSpec) -> ServiceGroup
    ) {
        self.oneLine = oneLine
        self.storedSpec = spec
        self.clock = clock
        self.scheduler = scheduler
        self.historyStore = historyStore
        self.makeServices = makeServices
        self.services = makeServices(spec)
        self.storedRedactor = Redactor(spec)
        self.alertActions = AlertActions(environment: environment)
        setUpAlertActions()
        listenForLiveReports()
    }

    /// Values read again while running (a token file) say so when a new content cannot be used.
    private func listenForLiveReports() {
        services.reports.onReport { [weak self] message in
            guard let self else { return }
            self.onNotice?(self.redactor.redact(message))
        }
    }

    // MARK: Life cycle

    /// Builds the probes and starts each one's cadence (which loads at once).
    public func start() {
        guard !started else { return }
        generation += 1
        // Not started while building: cached data arriving as observers are added must not start
        // loads ahead of the host's first frame; the batches below start them.
        buildProbes()
        linkChains()
        linkDependencies()
        // The host's observers first: a screen's overlay has seen an event when the monitor's
        // news of it arrive.
        onProbesBuilt?(probes)
        observeResources()
        started = true
        if histories.isEmpty, let historyStore {
            let capacities = Dictionary(probesByResource.values.map { ($0.identity, $0.historyCapacity) }, uniquingKeysWith: max)
            histories = historyStore.load(namespace: spec.historyNamespace, capacities: capacities)
        }
        assignStartPhases(now: clock.now)
        startCadences(from: 0, generation: generation)
        startConnectivityChecks()
        startAlertmanager()
    }

    /// Stops timers, saves histories, and lets go of every resource.
    public func stop() {
        if savesHistory { historyStore?.save(histories, namespace: spec.historyNamespace) }
        cancelReminders()
        connectivity?.stop()
        connectivity = nil
        alertmanager?.stop()
        alertmanager = nil
        healthCounts.offlineSince = nil
        for probe in probes { probe.cancelCadence() }
        probes = []
        healthCounts = HealthCounts()
        probesByResource = [:]
        dependents = [:]
        eventOwner = EventOwner()
        started = false
    }

    /// How many probes start loading per main-queue turn: the first frame and every key (q,
    /// Ctrl-C) and signal get their turn between batches, however many probes there are.
    public static let startBatch = 500

    /// How many resources start loading in the same instant; more are spread over the first
    /// second (or their refresh interval, if shorter), `phaseGroup` per step.
    public static let phaseGroup = 50

    /// Gives each resource's probes a start phase: the first `phaseGroup` resources load at once,
    /// the next group a step later, and so on across `min(every, 1 s)`. A thousand endpoints
    /// every second then run as a steady stream instead of a burst of a thousand transfers each
    /// second (which holds a thousand responses in memory at once and can stall libcurl).
    private func assignStartPhases(now: TimeInterval) {
        let groups = (probesByResource.count + Self.phaseGroup - 1) / Self.phaseGroup
        guard groups > 1 else { return }
        var index = 0
        var seen = Set<ObjectIdentifier>()
        for probe in probes {
            let id = ObjectIdentifier(probe.resource)
            guard seen.insert(id).inserted, let shown = probesByResource[id] else { continue }
            let window = min(1, shown.probes.map(\.every).min() ?? 1)
            let phase = now + window * Double(index / Self.phaseGroup) / Double(groups)
            for sharing in shown.probes { sharing.firstLoadNotBefore = phase }
            index += 1
        }
    }

    /// Starts the probes' cadences `startBatch` at a time, the rest on later main-queue turns.
    /// `generation` ends a run of batches when the monitor stops or reloads in between.
    private func startCadences(from first: Int, generation: Int) {
        guard started, generation == self.generation else { return }
        let end = min(probes.count, first + Self.startBatch)
        for probe in probes[first..<end] { updateCadence(of: probe) }
        guard end < probes.count else { return }
        DispatchQueue.main.async { @Sendable in
            MainActor.assumeIsolated { self.startCadences(from: end, generation: generation) }
        }
    }

    private func buildProbes() {
        probesByResource = [:]
        probes = spec.panes.map { paneSpec in
            let resource = spec.resource(for: paneSpec, in: services)
            let probe = Probe(
                spec: paneSpec, resource: resource, every: spec.refreshInterval(for: paneSpec), displayURL: spec.displayURL(for: paneSpec),
                redactor: redactor)
            _ = addProbe(probe, on: resource, url: probe.displayURL, method: resource.loadRequest?.method.httpName ?? "GET")
            return probe
        }
        recountAll()
    }

    /// Files `probe` among the probes of `resource`, making its entry (shown as `url` and
    /// `method` in the event log) when it is the first; true when it made one.
    func addProbe(_ probe: Probe, on resource: Resource, url: String, method: String) -> Bool {
        let id = ObjectIdentifier(resource)
        let shown: ResourceProbes
        var made = false
        if let existing = probesByResource[id] {
            shown = existing
        } else {
            shown = ResourceProbes(url: url, method: method, identity: probe.historyKey)
            probesByResource[id] = shown
            made = true
        }
        shown.add(probe)
        shown.historyCapacity = max(shown.historyCapacity, probe.spec.history)
        return made
    }

    /// Observes each probed resource once, and the logins' resources.
    private func observeResources() {
        // Logins are requests like any other: their outcomes go to the event log too.
        let logins = spec.loginResources(in: services).filter { probesByResource[ObjectIdentifier($0.resource)] == nil }
        loginURLs = Dictionary(logins.map { (ObjectIdentifier($0.resource), $0.displayURL) }) { first, _ in first }
        // Each probed resource once, in the file's order (its first probe's place), then the logins.
        let shown = probes.filter { probesByResource[ObjectIdentifier($0.resource)]?.probes.first === $0 }.map(\.resource)
        for resource in shown + logins.map(\.resource) { observe(resource) }
    }

    /// Judges and logs each event of `resource` from now on.
    func observe(_ resource: Resource) {
        resource.addObserver(owner: eventOwner) { [weak self] resource, event in
            self?.record(event, on: resource)
        }
    }

    /// Counts `probe` for the header again (after anything that may change its state).
    func recount(_ probe: Probe) {
        if let old = probe.counted { healthCounts.add(old, -1) }
        let now = HealthCounts.Counted(health: probe.health, loading: probe.resource.isLoading)
        healthCounts.add(now, 1)
        probe.counted = now
    }

    func recountAll() {
        healthCounts = HealthCounts()
        for probe in probes {
            probe.counted = nil
            recount(probe)
        }
    }

    /// The probes kept for the resource a probe watches.
    public func history(for probe: Probe) -> ProbeHistory? {
        histories[probe.historyKey]
    }

    // MARK: Config reload

    /// What a reload did.
    public enum ReloadResult: Sendable {
        /// The new config runs.
        case reloaded
        /// The previous config still runs; the line says why (redacted).
        case rejected(String)
        case unchanged
    }

    /// Runs the new config (alerts, probe counts and histories carry over for panes that stay),
    /// or says why the previous one still runs.
    @discardableResult
    public func apply(_ outcome: ConfigReloader.Outcome) -> ReloadResult {
        switch outcome {
        case .reloaded(let newSpec):
            let counts = countsByProbe()
            stop()
            services.reports.onReport(nil)
            storedSpec = newSpec
            // The new spec's redactor also masks what the old one did (`retiredSecrets`).
            storedRedactor = Redactor(newSpec)
            // Resources hold their service, the service caches them, and its configuration may
            // hold a login session holding one: the old service lets go of all, and all can go.
            services.tearDown()
            services = makeServices(newSpec)
            listenForLiveReports()
            start()
            restoreCounts(counts)
            recountAll()
            resumeFiringAlerts()
            // Histories continue for requests still probed; the rest go.
            let shown = Set(probes.map(\.historyKey))
            histories = histories.filter { shown.contains($0.key) }
            onStateChange?()
            return .reloaded
        case .rejected(let errors):
            let first = errors.problems.first.map(\.description) ?? "invalid config"
            let more = errors.problems.count > 1 ? " (+\(errors.problems.count - 1) more)" : ""
            return .rejected(redactor.redact("config not reloaded: \(first)\(more); still running the previous config"))
        case .unchanged:
            return .unchanged
        }
    }
}
