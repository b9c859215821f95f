import FoundationEssentials
import Glibc

/// When a resource that is kept fresh loads next: the rule behind `Configuration.refreshInterval`,
/// and behind Hammock's pane cadence, which times its probes by the same value.
///
/// A load is due `interval` after the latest one started. After a failure it is due `retry`
/// after the failure, twice as long after each failure in a row after the first, at most
/// `backoffLimit`, so a server that is down is not asked every second. Before any load, data
/// that came from elsewhere (a cache, another observer's load) is fresh until `interval` after
/// its own time.
public struct RefreshSchedule: Sendable, Hashable {
    /// Seconds from the start of one load to the start of the next.
    public var interval: TimeInterval
    /// The wait after the first failure in a row.
    public var retry: TimeInterval
    /// The longest wait after failures in a row (never less than `retry`).
    public var backoffLimit: TimeInterval

    /// A schedule; the back-off limit is `interval` unless given.
    public init(interval: TimeInterval, retry: TimeInterval, backoffLimit: TimeInterval? = nil) {
        self.interval = interval
        self.retry = retry
        self.backoffLimit = backoffLimit ?? interval
    }

    /// The wait after `failures` failed loads in a row (1: the first).
    public func retryWait(afterFailures failures: Int) -> TimeInterval {
        let doublings = Double(max(0, min(failures - 1, 30)))
        return min(retry * pow(2, doublings), max(retry, backoffLimit))
    }

    /// When the next load is due, on the clock the arguments were read from (it may be past).
    ///
    /// - Parameters:
    ///   - lastRequested: when the latest load started, if one has since the schedule began.
    ///   - failure: when the latest load failed and how many failed in a row, if it failed.
    ///   - dataTimestamp: the time of the data at hand, if any.
    ///   - notBefore: no load before this one (spreading many schedules over time) is due earlier.
    ///   - now: the time now.
    public func nextLoad(
        lastRequested: TimeInterval?, failure: (at: TimeInterval, inARow: Int)?, dataTimestamp: TimeInterval?,
        notBefore: TimeInterval? = nil, now: TimeInterval
    ) -> TimeInterval {
        // From the failure, or from when the failed load was due if it started early.
        if let failure { return max(failure.at, lastRequested ?? 0) + retryWait(afterFailures: failure.inARow) }
        if let lastRequested { return lastRequested + interval }
        let phase = notBefore ?? now
        if let dataTimestamp { return max(dataTimestamp + interval, phase) }
        return max(now, phase)
    }
}
