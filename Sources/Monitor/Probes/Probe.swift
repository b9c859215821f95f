import DashboardConfig
import FoundationEssentials
import Redaction
import ResourceEngine
import TextBasics

/// One pane's probing: its spec, the resource it watches, and what the latest probes say of it
/// (verdict, unmet expectation, content problem, alert counts, `/metrics` counts, cadence).
///
/// The monitor judges it after each of its resource's events; screens, `snapshot` and `/metrics`
/// read it. It draws nothing and knows no terminal.
@MainActor
public final class Probe {
    // What every verdict reads is stored as `stored…` and reached through public accessors: the
    // compiler then sees every access and needs no run-time exclusivity check (one per read of
    // a public stored property of a class; a verdict reads seven).
    /// How the header counts a pane.
    public enum Health: Equatable, Sendable {
        /// It shows what it should: data (or an error status its expectations ask for), nothing
        /// failed on the way, every expectation met.
        case ok
        /// The latest load failed, or its data cannot be shown as the pane says (see `failure`).
        case failing
        /// The data arrived but an expectation does not hold (see `unmetExpectation`).
        case unmet
        /// Trouble short of failing (see `degradedReason`): failed probes fewer than `failAfter`
        /// in a row, good ones fewer than `recoverAfter` since it failed, or a `thresholds.warn`.
        case degraded
        case loading, waiting
        /// Failing while a pane it depends on is in trouble (see `blockedBy`): the root's alert
        /// speaks for it.
        case blocked

        /// The state's name in `snapshot`, `/api/panes`, `/metrics` and alert events.
        public var name: String {
            switch self {
            case .blocked: "blocked"
            case .ok: "ok"
            case .failing: "failing"
            case .unmet: "unmet"
            case .degraded: "degraded"
            case .loading: "loading"
            case .waiting: "waiting"
            }
        }
    }

    public let spec: PaneSpec
    /// The resource it watches. A chained pane (`${pane:…}`) moves to another when the values it
    /// takes change (see `Monitor`); until then, a resource of its own that is never loaded.
    public internal(set) var resource: Resource {
        get { storedResource }
        set { storedResource = newValue }
    }
    var storedResource: Resource
    /// The pane as its request is sent now: `spec` with the values it takes from other panes
    /// filled in (`spec` itself when it takes none).
    public internal(set) var requestSpec: PaneSpec
    /// Why a chained pane sends nothing yet ("waiting for Latest order"), or nil.
    public internal(set) var waitingFor: String? {
        get { storedWaitingFor }
        set { storedWaitingFor = newValue }
    }
    var storedWaitingFor: String?
    /// The URL that names the pane in `/metrics`, one series whatever it sends: its resource's,
    /// or for a chained pane (whose resource moves) its URL with each reference as written.
    public internal(set) lazy var writtenURL: String = resource.url.absoluteString

    /// The probes it takes values from, and the slot of the values it sends as credentials.
    var chainSources: [Probe] = []
    var chainSecrets: LiveSecrets.Source?
    /// What blocks its failure, while it fails: a pane it depends on in trouble, its service's
    /// login, the first pane of its origin to be refused, or the network. Nil otherwise.
    public internal(set) var blockedBy: Blockage? {
        get { storedBlockedBy }
        set { storedBlockedBy = newValue }
    }
    var storedBlockedBy: Blockage?
    /// The probes of the panes it depends on (`dependsOn`), found by title.
    var dependencies: [Probe] = []
    /// Its latest probe is not counted toward its alert yet: it failed while a pane it depends
    /// on was loading, and waits for that one's verdict.
    var countDeferred = false

    /// One change of its content, and when (engine clock).
    public struct ContentChange: Sendable {
        public let time: TimeInterval
        public let diff: ContentDiff
    }

    /// The latest changes of its content, oldest first (at most `Monitor.keptChanges`).
    public internal(set) var changes: [ContentChange] = []

    /// Why its alerts are held now (a quiet window, a mute), and until when; nil when they are not.
    public internal(set) var silence: Silence? {
        get { storedSilence }
        set { storedSilence = newValue }
    }
    var storedSilence: Silence?
    /// A mute the user set (`m`, `:mute 15m`): until a time, or until the pane recovers.
    public internal(set) var mute: Mute? {
        get { storedMute }
        set { storedMute = newValue }
    }
    var storedMute: Mute?
    /// Its alert fired while silenced: said when the silence ends, if it still fires.
    var alertHeld = false

    /// A user's mute.
    public enum Mute: Sendable, Equatable {
        case until(TimeInterval)
        case untilRecovered
    }

    /// Why a pane's alerts are held.
    public struct Silence: Sendable, Equatable {
        /// "quiet" (a `quiet:` window) or "muted".
        public let reason: String
        /// When it ends, on the engine clock; nil: when the pane recovers.
        public let until: TimeInterval?
    }

    /// Its silence at `now`: a mute first, then a quiet window.
    func silence(at now: TimeInterval) -> Silence? {
        if mute == nil, spec.quiet.isEmpty { return nil }
        switch mute {
        case .until(let end) where end > now: return Silence(reason: "muted", until: end)
        case .untilRecovered: return Silence(reason: "muted", until: nil)
        default: break
        }
        let date = Date(timeIntervalSinceReferenceDate: now)
        let ends = spec.quiet.compactMap { $0.end(containing: date) }
        guard let end = ends.max() else { return nil }
        return Silence(reason: "quiet", until: end.timeIntervalSinceReferenceDate)
    }

    /// Who blocks a pane, and since when that one is in trouble.
    public struct Blockage: Sendable, Equatable {
        /// "Login", "login shop", "the network".
        public let by: String
        /// When the blocker's trouble began, on the engine clock.
        public let since: TimeInterval?
    }
    /// The URL as the config writes it, secrets as `${VAR}`: what every output shows.
    public let displayURL: String
    /// Takes secrets out of everything the pane shows.
    public let redactor: Redactor
    /// What the pane's probe history is kept under: its service and its resource's identity (the
    /// URL and the request), so panes of two services never share one.
    public let historyKey: String
    /// Seconds between refreshes, start to start (`every`, else the configured expiration).
    public let every: TimeInterval
    /// How the content is shown, taken from `spec` once.
    public let contentShape: PaneContentShape
    /// When the pane's first load may start (its phase): thousands of panes do not all start in
    /// the same instant, and keep their spread afterwards (refreshes go start to start).
    var firstLoadNotBefore: TimeInterval?
    /// Why the latest response misses an expectation, or nil when all hold.
    public internal(set) var unmetExpectation: String? {
        get { storedUnmetExpectation }
        set { storedUnmetExpectation = newValue }
    }
    var storedUnmetExpectation: String?
    /// Why the data cannot be shown as the pane says (a `select` path that is missing, a table
    /// over something that is not a list), or nil.
    public internal(set) var contentProblem: String? {
        get { storedContentProblem }
        set { storedContentProblem = newValue }
    }
    var storedContentProblem: String?
    /// The refresh waiting to run, and when it is due on the engine clock.
    var cadence: ScheduledAction?
    var cadenceDue: TimeInterval?
    /// The shown content with the spec applied; made again only when the content changes.
    private var cachedCheck: ContentCheck?
    /// The content `cachedCheck` was made from, when JSON or text, and the redactor's secrets then.
    private var cachedSource: (content: ContentValue, secrets: Int)?

    /// A probe of `resource` as `spec` says.
    public init(spec: PaneSpec, resource: Resource, every: TimeInterval? = nil, displayURL: String? = nil, redactor: Redactor = .none) {
        self.spec = spec
        requestSpec = spec
        contentShape = PaneContentShape(spec)
        self.storedResource = resource
        self.historyKey = (spec.service.map { "service \($0) " } ?? "") + resource.identity
        self.displayURL = displayURL ?? redactor.redactURL(resource.url.absoluteString)
        self.redactor = redactor
        self.every = every ?? spec.every ?? DashboardSpec.defaultRefreshInterval
    }

    // MARK: Verdict

    /// True when the latest load failed with an HTTP status that this pane's expectations ask
    /// for ("status == 401" on a 401): then it is a working pane showing the answer's body. An
    /// error status they do not ask for (a 503 where they say `status == 200`) is a failure
    /// like any other, and says its status and message first.
    public var errorIsExpected: Bool {
        statusAnswersExpectations && spec.expectsStatus && resource.latestError?.httpStatusCode != nil
    }

    /// Whether the latest error's status meets every expectation about the status (worked out
    /// by `evaluate` for each finished load).
    private var statusAnswersExpectations = false

    /// When the pane last had an answer to show (data, or an error status it expects), on the
    /// engine clock: "last answer 5m ago" once it fails with neither.
    public var lastAnswerTime: TimeInterval? { storedLastAnswerTime }
    private var storedLastAnswerTime: TimeInterval?

    /// What the pane shows: the latest data, or the body of an error response its expectations
    /// asked for.
    public var shownEntity: Entity? {
        ProbeReport.shownEntity(data: resource.latestData, error: resource.latestError, errorIsExpected: errorIsExpected)
    }

    /// The pane's state: the latest probe's verdict, weighed by the probes before it
    /// (`alerts.failAfter`, `alerts.recoverAfter`) and the warn threshold.
    public var health: Health { health(given: verdict) }

    /// The pane's state when the latest probe's verdict is `verdict`.
    func health(given verdict: Health) -> Health {
        if blockedBy != nil, verdict == .failing || verdict == .unmet { return .blocked }
        switch verdict {
        case .failing, .unmet: return alert.firing ? verdict : .degraded
        case .ok: return alert.firing || thresholdWarning != nil ? .degraded : .ok
        case .degraded, .loading, .waiting, .blocked: return verdict
        }
    }

    /// Why the pane is degraded ("1 of 3 failed probes before it fails", "recovering: 1 of 2
    /// good probes", "0.85 meets the warn threshold > 0.8"), or nil when it is not.
    public var degradedReason: String? {
        let verdict = self.verdict
        return degradedReason(health: health(given: verdict), verdict: verdict)
    }

    /// Why the pane is degraded, given its state and the latest verdict.
    func degradedReason(health: Health, verdict: Health) -> String? {
        guard health == .degraded else { return nil }
        let alerts = spec.alerts
        if alert.firing {
            return "recovering: \(alert.goodInARow) of \(alerts.recoverAfter) good probes"
        }
        if verdict != .ok {
            return "\(alert.badInARow) of \(alerts.failAfter) failed probes before it fails"
        }
        return thresholdWarning
    }

    /// What the header last counted this pane as.
    var counted: HealthCounts.Counted?

    /// Failed probes in a row, blocked or not: what its back-off counts (a blocked pane's alert
    /// does not count them, but a server that is down is not asked more often for it).
    var failedInARow = 0

    /// The alert's counts: failed and good probes in a row, firing or not.
    public internal(set) var alert: AlertTracker {
        get { storedAlert }
        set { storedAlert = newValue }
    }
    var storedAlert: AlertTracker = AlertTracker()

    /// "0.85 meets the warn threshold > 0.8", or nil.
    public internal(set) var thresholdWarning: String? {
        get { storedThresholdWarning }
        set { storedThresholdWarning = newValue }
    }
    var storedThresholdWarning: String?

    /// Probes since the pane started, for `/metrics`.
    public internal(set) var probeCounts = ProbeCounts()

    /// Counts a finished probe (after `evaluate`) toward the pane's alert and its metrics.
    func recordProbe(at time: TimeInterval) -> AlertTracker.Transition {
        let good = verdict == .ok
        probeCounts.record(ok: good, answered: !resource.hasError || errorIsExpected, latency: resource.latestMetrics?.latency)
        failedInARow = good ? 0 : failedInARow + 1
        // Blocked, it probes on quietly: its failure is the blocker's, whose alert speaks.
        if !good, blockedBy != nil { return .none }
        return storedAlert.record(good: good, at: time, failAfter: spec.alerts.failAfter, recoverAfter: spec.alerts.recoverAfter)
    }

    /// What the latest probe alone says. Asked for every pane on every frame (the header's
    /// counts): it looks at the resource without copying its entity (`shownEntity != nil` is
    /// "an expected error, or data").
    public var verdict: Health {
        if waitingFor != nil { return .waiting }
        let expected = errorIsExpected
        if !expected, resource.hasError { return .failing }
        if contentProblem != nil { return .failing }
        if unmetExpectation != nil { return .unmet }
        if expected || resource.hasData { return .ok }
        return resource.isLoading ? .loading : .waiting
    }

    /// Why the pane is failing ("Service Unavailable", "select items: no member…"), or nil.
    public var failure: String? {
        if resource.hasError, !errorIsExpected { return displayedError }
        return contentProblem
    }

    /// The latest error's message as shown: redacted and at most 2,000 characters (a server can
    /// put megabytes into an error body's message); worked out once per error, not per frame.
    public var displayedError: String? {
        guard let error = resource.latestError else { return nil }
        if let cached = displayedErrorCache, cached.timestamp == error.timestamp, cached.source == error.userMessage.utf8.count {
            return cached.text
        }
        let text = redactor.redact(error.userMessage).bounded(to: 2_000)
        displayedErrorCache = (error.timestamp, error.userMessage.utf8.count, text)
        return text
    }
    private var displayedErrorCache: (timestamp: TimeInterval, source: Int, text: String)?

    /// The number the pane shows after `select`, when it is one (`42`, `"23.51"`, `" 7 "`).
    var shownNumber: Double? {
        guard case .success(let value)? = contentCheck?.selected else { return nil }
        if let number = value.doubleValue { return number }
        // Most values are words ("UP"): only text that starts like a number is parsed.
        guard let text = value.stringValue, let first = text.utf8.first(where: { $0 != 0x20 }),
            (0x30...0x39).contains(first) || first == 0x2D || first == 0x2B || first == 0x2E
        else { return nil }
        return Double(text) ?? Double(text.trimmingWhitespace())
    }

    /// The shown entity with the spec applied (redacted); made once per new content.
    public var contentCheck: ContentCheck? {
        // Kept only while there is a shown entity (an error that hides it drops the check).
        if let cachedCheck { return cachedCheck }
        guard let entity = shownEntity else { return nil }
        let secrets = redactor.secretsVersion
        let check = ContentCheck(shape: contentShape, content: redactor.redact(content: entity.content))
        cachedCheck = check
        cachedSource = ContentValue(entity.content).map { ($0, secrets) }
        return check
    }

    /// After an event: new data whose content is the very value the check was made from (the
    /// pipeline hands a byte-identical body the content it made before) keeps the check, unless
    /// a secret has been learnt since; anything else is checked again when next asked.
    func contentMayHaveChanged(by event: ResourceEvent) {
        switch event {
        case .newData:
            guard cachedCheck != nil else { return }
            if let source = cachedSource, let entity = shownEntity, source.secrets == redactor.secretsVersion,
                source.content.isIdentical(to: entity.content)
            {
                return
            }
            cachedCheck = nil
        case .error:
            cachedCheck = nil
        default:
            break
        }
    }

    /// Re-checks the expectations and whether the content can be shown, after a finished load.
    /// Returns which verdicts changed.
    func evaluate() -> (expectations: Bool, content: Bool) {
        statusAnswersExpectations = false
        if spec.expectsStatus, let status = resource.latestError?.httpStatusCode {
            let observation = Expectation.Observation(statusCode: status, latency: nil, body: nil, headers: [:])
            statusAnswersExpectations = spec.expect.allSatisfy { expectation in
                guard expectation.readsOnlyStatus else { return true }
                return expectation.failure(in: observation) == nil
            }
        }
        if let shown = shownEntity { storedLastAnswerTime = max(storedLastAnswerTime ?? shown.timestamp, shown.timestamp) }
        let check = contentCheck
        let problem = check?.problem
        thresholdWarning = problem == nil ? check?.warning : nil
        let contentChanged = problem != contentProblem
        contentProblem = problem
        return (evaluateExpectations(), contentChanged)
    }

    /// Checks the expectations against the latest response; returns whether the verdict changed.
    private func evaluateExpectations() -> Bool {
        guard !spec.expect.isEmpty else { return false }
        let metrics = resource.latestMetrics
        let entity = resource.latestError.map { $0.entity } ?? resource.latestData
        let observation = Expectation.Observation(
            statusCode: metrics?.statusCode, latency: metrics?.latency, content: entity?.content, headers: entity?.headers ?? [:],
            certificateExpiresIn: metrics.flatMap { metrics in metrics.certificate.map { $0.notAfter - metrics.finishedAt } })
        let verdict = spec.expect.lazy.compactMap { $0.failure(in: observation) }.first.map { self.redactor.redact($0).bounded(to: 2_000) }
        defer { unmetExpectation = verdict }
        return verdict != unmetExpectation
    }

    // MARK: Loading

    /// Loads unless fresh or already loading (`Resource.loadIfNeeded()`).
    @discardableResult
    public func loadIfNeeded() -> Request? {
        waitingFor == nil ? resource.loadIfNeeded() : nil
    }

    /// Loads now (a key press), unless it waits for another pane's value.
    @discardableResult
    public func load() -> Request? {
        waitingFor == nil ? resource.load() : nil
    }

    /// Watches `resource` from now on, sending `requestSpec` (or waiting, with the reason): what
    /// it knew of the previous resource's answers goes.
    func move(to resource: Resource, requestSpec: PaneSpec, waitingFor: String?) {
        cancelCadence()
        self.resource = resource
        self.requestSpec = requestSpec
        self.waitingFor = waitingFor
        cachedCheck = nil
        cachedSource = nil
        displayedErrorCache = nil
        storedLastAnswerTime = nil
        unmetExpectation = nil
        contentProblem = nil
        thresholdWarning = nil
        statusAnswersExpectations = false
        // A resource already loaded (an earlier value's) is judged now; a new one when it answers.
        if resource.hasData || resource.hasError { _ = evaluate() }
    }

    // MARK: Cadence

    /// When the pane should next load, on the engine clock, or nil while a load is in flight
    /// (its end decides): the engine's keep-fresh rule (`RefreshSchedule`) with the pane's
    /// `every`, `retry` and `backoff`. So after a failure: `retry` after it, then twice as long
    /// after each failure in a row, up to `backoff` (its `every` unless it says) — a server that
    /// is down is not asked every second. Otherwise `every` after the latest load of its resource
    /// started (whichever pane or key started it), or after the data's own time when it came
    /// from the cache; at once when there is neither, but not before the pane's phase.
    func nextLoadDue(lastRequested: TimeInterval?, now: TimeInterval) -> TimeInterval? {
        if resource.isLoading || waitingFor != nil { return nil }
        let failure = errorIsExpected ? nil : resource.latestError.map { (at: $0.timestamp, inARow: max(failedInARow, alert.badInARow)) }
        return refreshSchedule.nextLoad(
            lastRequested: lastRequested, failure: failure, dataTimestamp: resource.latestData?.timestamp, notBefore: firstLoadNotBefore, now: now)
    }

    /// The pane's cadence as the engine's schedule. `retry: 0` must not retry a refused
    /// connection back to back.
    var refreshSchedule: RefreshSchedule {
        RefreshSchedule(interval: every, retry: max(resource.configuration.retryTime, ConfigLoader.minimumEvery), backoffLimit: spec.backoff ?? every)
    }

    /// Sets the probe's timer for `due`, when `monitor` looks at its cadence again (unless one
    /// is set for that time or sooner).
    func scheduleCadence(at due: TimeInterval, now: TimeInterval, scheduler: any DashboardScheduler, monitor: Monitor) {
        if let cadenceDue, cadence != nil, cadenceDue <= due { return }
        cadence?.cancel()
        cadenceDue = due
        cadenceMonitor = monitor
        cadence = scheduler.schedule(after: max(0, due - now), cadenceFired)
    }

    /// Who looks at the cadence when the timer fires.
    private weak var cadenceMonitor: Monitor?
    /// The timer's action, made once: a probe's timer is set for every refresh.
    private lazy var cadenceFired: @MainActor () -> Void = { [weak self] in
        guard let self else { return }
        cadence = nil
        cadenceDue = nil
        cadenceMonitor?.updateCadence(of: self)
    }

    func cancelCadence() {
        cadence?.cancel()
        cadence = nil
        cadenceDue = nil
    }
}
