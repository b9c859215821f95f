import FoundationEssentials
import ResourceEngine

/// What a probe says at one moment, as a value: its verdicts, why, its alert's counts, when it
/// next loads, and the state of its resource. Screens keep it in their model and draw from it;
/// the monitor makes one after each of the resource's events (`Probe.report`).
///
/// Immutable, its fields kept in one shared box: a model copies it with each pane it copies
/// (a sort, a filter, a frame), and a copy is then one reference, not a dozen.
public struct ProbeReport: Sendable {
    private final class Storage: Sendable {
        let health: Probe.Health
        let verdict: Probe.Health
        let unmetExpectation: String?
        let contentProblem: String?
        let failure: String?
        let displayedError: String?
        let degradedReason: String?
        let thresholdWarning: String?
        let errorIsExpected: Bool
        let lastAnswerTime: TimeInterval?
        let alert: AlertTracker
        let probeCounts: ProbeCounts
        let nextDue: TimeInterval?
        let resource: ResourceSnapshot
        let contentCheck: ContentCheck?
        let waitingFor: String?
        let blockedBy: Probe.Blockage?
        let silence: Probe.Silence?
        let changes: [Probe.ContentChange]

        init(
            health: Probe.Health,
            verdict: Probe.Health,
            unmetExpectation: String?,
            contentProblem: String?,
            failure: String?,
            displayedError: String?,
            degradedReason: String?,
            thresholdWarning: String?,
            errorIsExpected: Bool,
            lastAnswerTime: TimeInterval?,
            alert: AlertTracker,
            probeCounts: ProbeCounts,
            nextDue: TimeInterval?,
            resource: ResourceSnapshot,
            contentCheck: ContentCheck?,
            waitingFor: String?,
            blockedBy: Probe.Blockage?,
            silence: Probe.Silence?,
            changes: [Probe.ContentChange]
        ) {
            self.health = health
            self.verdict = verdict
            self.unmetExpectation = unmetExpectation
            self.contentProblem = contentProblem
            self.failure = failure
            self.displayedError = displayedError
            self.degradedReason = degradedReason
            self.thresholdWarning = thresholdWarning
            self.errorIsExpected = errorIsExpected
            self.lastAnswerTime = lastAnswerTime
            self.alert = alert
            self.probeCounts = probeCounts
            self.nextDue = nextDue
            self.resource = resource
            self.contentCheck = contentCheck
            self.waitingFor = waitingFor
            self.blockedBy = blockedBy
            self.silence = silence
            self.changes = changes
        }
    }

    private let storage: Storage

    /// How the header counts the pane: the verdict weighed by the probes before it.
    public var health: Probe.Health { storage.health }
    /// What the latest probe alone says.
    public var verdict: Probe.Health { storage.verdict }
    /// Why the latest response misses an expectation, or nil when all hold.
    public var unmetExpectation: String? { storage.unmetExpectation }
    /// Why the data cannot be shown as the pane says, or nil.
    public var contentProblem: String? { storage.contentProblem }
    /// Why the pane is failing, or nil.
    public var failure: String? { storage.failure }
    /// The latest error's message as shown (redacted, bounded), or nil.
    public var displayedError: String? { storage.displayedError }
    /// Why the pane is degraded, or nil when it is not.
    public var degradedReason: String? { storage.degradedReason }
    /// "0.85 meets the warn threshold > 0.8", or nil.
    public var thresholdWarning: String? { storage.thresholdWarning }
    /// The latest error is an HTTP status the pane's expectations ask for: an answer to show.
    public var errorIsExpected: Bool { storage.errorIsExpected }
    /// When the pane last had an answer to show, on the engine clock.
    public var lastAnswerTime: TimeInterval? { storage.lastAnswerTime }
    /// Failed and good probes in a row, firing or not.
    public var alert: AlertTracker { storage.alert }
    /// Probes since the pane started.
    public var probeCounts: ProbeCounts { storage.probeCounts }
    /// When the next refresh is due on the engine clock, or nil when none is set.
    public var nextDue: TimeInterval? { storage.nextDue }
    /// The resource's state.
    public var resource: ResourceSnapshot { storage.resource }
    /// What the pane shows: the latest data, or the body of an error its expectations asked for.
    @MainActor
    public var shownEntity: Entity? {
        Self.shownEntity(data: resource.latestData, error: resource.latestError, errorIsExpected: errorIsExpected)
    }

    /// The latest data, or the body of the latest error when it is an answer the expectations
    /// asked for.
    static func shownEntity(data: Entity?, error: RequestError?, errorIsExpected: Bool) -> Entity? {
        if errorIsExpected, let error {
            return error.entity ?? Entity(content: "", timestamp: error.timestamp)
        }
        return data
    }
    /// The shown entity with the spec applied (redacted), or nil when there is none.
    public var contentCheck: ContentCheck? { storage.contentCheck }
    /// Why a chained pane sends nothing yet ("waiting for Latest order"), or nil.
    public var waitingFor: String? { storage.waitingFor }
    /// Who blocks the pane's failure, and since when, or nil.
    public var blockedBy: Probe.Blockage? { storage.blockedBy }
    /// Why its alerts are held (quiet, muted) and until when, or nil.
    public var silence: Probe.Silence? { storage.silence }
    /// The latest changes of its content, oldest first.
    public var changes: [Probe.ContentChange] { storage.changes }

    /// A report of a probe that has not run: waiting, with nothing to show.
    public init(
        health: Probe.Health = .waiting, verdict: Probe.Health = .waiting, unmetExpectation: String? = nil, contentProblem: String? = nil,
        failure: String? = nil, displayedError: String? = nil, degradedReason: String? = nil, thresholdWarning: String? = nil,
        errorIsExpected: Bool = false, lastAnswerTime: TimeInterval? = nil, alert: AlertTracker = AlertTracker(),
        probeCounts: ProbeCounts = ProbeCounts(), nextDue: TimeInterval? = nil,
        resource: ResourceSnapshot = ResourceSnapshot(isLoading: false, latestData: nil, latestError: nil),
        contentCheck: ContentCheck? = nil, waitingFor: String? = nil, blockedBy: Probe.Blockage? = nil, silence: Probe.Silence? = nil,
        changes: [Probe.ContentChange] = []
    ) {
        storage = Storage(
            health: health,
            verdict: verdict,
            unmetExpectation: unmetExpectation,
            contentProblem: contentProblem,
            failure: failure,
            displayedError: displayedError,
            degradedReason: degradedReason,
            thresholdWarning: thresholdWarning,
            errorIsExpected: errorIsExpected,
            lastAnswerTime: lastAnswerTime,
            alert: alert,
            probeCounts: probeCounts,
            nextDue: nextDue,
            resource: resource,
            contentCheck: contentCheck,
            waitingFor: waitingFor,
            blockedBy: blockedBy,
            silence: silence,
            changes: changes)
    }
}

extension Probe {
    /// What the probe says now, as a value.
    public var report: ProbeReport {
        let verdict = self.verdict
        let health = health(given: verdict)
        return ProbeReport(
            health: health, verdict: verdict, unmetExpectation: unmetExpectation, contentProblem: contentProblem, failure: failure,
            displayedError: displayedError, degradedReason: degradedReason(health: health, verdict: verdict),
            thresholdWarning: thresholdWarning, errorIsExpected: errorIsExpected, lastAnswerTime: lastAnswerTime, alert: alert,
            probeCounts: probeCounts, nextDue: cadenceDue, resource: resource.snapshot, contentCheck: contentCheck,
            waitingFor: waitingFor, blockedBy: blockedBy, silence: silence,
            changes: changes)
    }
}
