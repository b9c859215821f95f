import Foundation

/// How long a failing resource waits before it is tried again: `retry` after the first failure,
/// twice as long after each one in a row after that, at most `limit` (never less than `retry`).
/// The engine's keep-fresh (`Configuration.refreshInterval`) and Hammock's pane cadence both
/// wait this way.
public enum RetryBackoff {
    /// The wait after `failures` failed tries in a row (1: the first).
    public static func wait(afterFailures failures: Int, retry: TimeInterval, limit: TimeInterval) -> TimeInterval {
        let doublings = Double(max(0, min(failures - 1, 30)))
        return min(retry * pow(2, doublings), max(retry, limit))
    }
}
