/// How a value is shown (`format:` on a value pane, a field or a column). The raw value is one
/// key away (`v` on the dashboard).
public enum ValueFormat: String, CaseIterable, Sendable {
    /// 1234567 → `1,234,567`; 0.19360859939327266 → `0.194`.
    case number
    /// 1536 → `1.5 KiB`.
    case bytes
    /// A fraction: 0.194 → `19.4 %`.
    case percent
    /// Seconds: 0.0193 → `19 ms`, 200 → `3m 20s`.
    case duration
    /// A moment (epoch seconds or milliseconds, or ISO 8601) as the time since: `5m ago`.
    case age
    /// A moment as local date and time: `2026-11-23 18:30:05`.
    case time
}
