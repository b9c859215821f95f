/// The header's counts (✓ ◐ ✗ ⚠ ⟳), kept up to date as panes change rather than recounted on
/// every frame: a pane's state changes only with its resource's events, and a thousand panes
/// counted five times a second was a measurable share of the dashboard's time.
struct HealthCounts: Equatable {
    var ok = 0
    var degraded = 0
    var failing = 0
    var unmet = 0
    var loading = 0

    /// What a pane was last counted as.
    struct Counted: Equatable {
        let health: Pane.Health
        let loading: Bool
    }

    mutating func add(_ counted: Counted, _ sign: Int) {
        switch counted.health {
        case .ok: ok += sign
        case .degraded: degraded += sign
        case .failing: failing += sign
        case .unmet: unmet += sign
        case .loading, .waiting: break
        }
        if counted.loading { loading += sign }
    }
}
