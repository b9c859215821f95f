import DashboardConfig
import FoundationEssentials

/// How every pane shows values right now: formatted or raw (`v`), in which time zone, and the
/// clock that ages (`5m ago`) are read against. One per dashboard, shared by its panes.
@MainActor
public final class ValueDisplay {
    /// True while the dashboard shows values as received instead of formatted.
    public var raw = false
    /// Nil: the system's zone, read as the C library reads it (`TZ`, /etc/localtime).
    public let timeZone: ZoneInfo?
    let now: @MainActor () -> TimeInterval

    public init(timeZone: ZoneInfo? = nil, now: @escaping @MainActor () -> TimeInterval = { Date().timeIntervalSinceReferenceDate }) {
        self.timeZone = timeZone
        self.now = now
    }
}
