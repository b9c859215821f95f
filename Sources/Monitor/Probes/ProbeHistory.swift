import FoundationEssentials
import ResourceEngine

/// The last N probes of one resource: when, how long, what status, whether it worked.
///
/// A probe is `ok` when its pane was ✓ with it (the uptime counts those) and `answered` when its
/// request got the answer it asked for — an unmet expectation is answered but not ok. Latency
/// percentiles and the sparkline use answered probes only (a timeout or a refused connection is
/// not a latency; a slow 200 that misses `latency < 1s` is exactly the latency to show), by the
/// nearest-rank method, so p50 of [10, 20, 30] is 20 and p95 of 20 samples is the 19th.
public struct ProbeHistory: Sendable, Equatable {
    public struct Probe: Sendable, Equatable {
        public let time: TimeInterval
        public let latency: TimeInterval
        public let statusCode: Int?
        public let ok: Bool
        public let answered: Bool
        /// The number a `show: value` pane showed after this probe, when it was one.
        public let value: Double?

        /// `answered` defaults to `ok` (a probe that worked was answered).
        public init(time: TimeInterval, latency: TimeInterval, statusCode: Int?, ok: Bool, answered: Bool? = nil, value: Double? = nil) {
            self.time = time
            self.latency = latency
            self.statusCode = statusCode
            self.ok = ok
            self.answered = answered ?? ok
            self.value = value.flatMap { $0.isFinite ? $0 : nil }
        }
    }

    public let capacity: Int
    /// The kept probes, oldest first.
    public var probes: Probes { Probes(storage: storage, start: start) }

    /// Grows to `capacity`, then is a ring: the newest probe overwrites the oldest, at `start`
    /// (an array with its first element removed moved every kept probe, per probe).
    private var storage: [Probe] = []
    private var start = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many kept probes have a value (a value pane's number): drawing asks it every frame.
    public private(set) var valueCount = 0

    public mutating func append(_ probe: Probe) {
        if probe.ok { okCount += 1 }
        if probe.value != nil { valueCount += 1 }
        if probe.answered, probe.latency.isFinite {
            orderedLatencies.insert(probe.latency, at: Self.firstIndex(in: orderedLatencies) { $0 > probe.latency })
        }
        guard storage.count == capacity else { return storage.append(probe) }
        let old = storage[start]
        storage[start] = probe
        start = start + 1 == capacity ? 0 : start + 1
        if old.ok { okCount -= 1 }
        if old.value != nil { valueCount -= 1 }
        if old.answered, old.latency.isFinite {
            let index = Self.firstIndex(in: orderedLatencies) { $0 >= old.latency }
            if index < orderedLatencies.count, orderedLatencies[index] == old.latency { orderedLatencies.remove(at: index) }
        }
    }

    /// The first index of sorted `values` where `isPast` holds (it holds from there on).
    private static func firstIndex(in values: [TimeInterval], where isPast: (TimeInterval) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if isPast(values[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The answered probes' latencies in order, kept as probes come and go: title bars ask for
    /// two percentiles of every pane on every frame.
    private var orderedLatencies: [TimeInterval] = []

    /// Equal when they keep the same probes, in order, with the same capacity.
    public static func == (lhs: ProbeHistory, rhs: ProbeHistory) -> Bool {
        lhs.capacity == rhs.capacity && lhs.probes.elementsEqual(rhs.probes)
    }

    /// The kept probes, oldest first, read in place from the ring.
    public struct Probes: RandomAccessCollection, Sendable {
        fileprivate let storage: [Probe]
        fileprivate let start: Int

        public var startIndex: Int { 0 }
        public var endIndex: Int { storage.count }

        public subscript(position: Int) -> Probe {
            precondition(position >= 0 && position < storage.count, "probe index out of range")
            let index = start + position
            return storage[index < storage.count ? index : index - storage.count]
        }
    }

    /// The latency at percentile `p` (0…100) of the answered probes, or nil if there are none.
    public func percentile(_ p: Double) -> TimeInterval? {
        let latencies = orderedLatencies
        guard !latencies.isEmpty else { return nil }
        let rank = Int((p / 100 * Double(latencies.count)).rounded(.up))
        return latencies[min(latencies.count, max(1, rank)) - 1]
    }

    /// How many of the kept probes worked (kept up to date: the title bars ask every frame).
    public private(set) var okCount = 0

    /// The share of kept probes that worked, 0…100, or nil with none.
    public var uptimePercent: Double? {
        probes.isEmpty ? nil : 100 * Double(okCount) / Double(probes.count)
    }

    /// Latencies for a sparkline, nil for unanswered probes (drawn as gaps).
    public var sparklineValues: [Double?] { probes.map { $0.answered ? $0.latency : nil } }
}
