import FoundationEssentials

/// A pane's probes since it started, for `/metrics`: how many worked and failed, and the
/// latencies of those that were answered (`ProbeHistory`'s rule) in Prometheus's cumulative buckets.
public struct ProbeCounts: Sendable, Equatable {
    /// The histogram's upper bounds, in seconds (as blackbox_exporter's probe_duration_seconds).
    public static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    public private(set) var successes = 0
    public private(set) var failures = 0
    /// Answered probes at or under each bound (not yet cumulative: `cumulative` sums them).
    public private(set) var buckets = [Int](repeating: 0, count: ProbeCounts.bounds.count)
    public private(set) var latencySum: Double = 0
    /// Answered probes: the histogram's count.
    public private(set) var answered = 0

    public init() {}

    public mutating func record(ok: Bool, answered: Bool, latency: TimeInterval?) {
        if ok { successes += 1 } else { failures += 1 }
        guard answered, let latency, latency.isFinite, latency >= 0 else { return }
        self.answered += 1
        latencySum += latency
        if let index = ProbeCounts.bounds.firstIndex(where: { latency <= $0 }) { buckets[index] += 1 }
    }

    /// Answered probes at or under each bound, then all of them (`+Inf`).
    public var cumulative: [Int] {
        var running = 0
        return buckets.map { running += $0; return running } + [answered]
    }
}
