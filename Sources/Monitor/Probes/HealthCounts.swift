/// The header's counts (✓ ◐ ✗ ⚠ ⟳), kept up to date as panes change rather than recounted on
/// every frame: a pane's state changes only with its resource's events, and a thousand panes
/// counted five times a second was a measurable share of the dashboard's time.
public struct HealthCounts: Equatable, Sendable {
    public internal(set) var ok = 0
    public internal(set) var degraded = 0
    public internal(set) var failing = 0
    public internal(set) var unmet = 0
    public internal(set) var loading = 0
    /// Failing while a pane they depend on is in trouble.
    public internal(set) var blocked = 0
    /// While every `connectivity:` check fails: since when (the machine has lost the network).
    public internal(set) var offlineSince: Double?

    /// What a pane was last counted as.
    struct Counted: Equatable {
        let health: Probe.Health
        let loading: Bool
    }

    mutating func add(_ counted: Counted, _ sign: Int) {
        switch counted.health {
        case .ok: ok += sign
        case .degraded: degraded += sign
        case .failing: failing += sign
        case .unmet: unmet += sign
        case .blocked: blocked += sign
        case .loading, .waiting: break
        }
        if counted.loading { loading += sign }
    }
}
