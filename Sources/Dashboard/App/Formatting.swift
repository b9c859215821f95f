import DashboardConfig
import FoundationEssentials
import Glibc
import TextBasics

/// Short human forms for ages, latencies and clock times.
enum Formatting {
    /// "now", "5s ago", "3m ago", "2h ago", "4d ago".
    static func age(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds < 1e9 else { return "long ago" }
        if seconds < 1 { return "now" }
        if seconds < 60 { return "\(Int(seconds))s ago" }
        if seconds < 3600 { return "\(Int(seconds / 60))m ago" }
        if seconds < 86400 { return "\(Int(seconds / 3600))h ago" }
        return "\(Int(seconds / 86400))d ago"
    }

    /// "41 ms", "1.2 s".
    static func latency(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "? ms" }
        return seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(printf: "%.1f s", seconds)
    }

    /// Seconds until `age(seconds)` reads differently.
    static func untilAgeChanges(_ seconds: TimeInterval) -> TimeInterval {
        guard seconds.isFinite, seconds < 1e9 else { return 86_400 }
        let unit: TimeInterval = seconds < 60 ? 1 : seconds < 3600 ? 60 : seconds < 86400 ? 3600 : 86400
        return (floor(seconds / unit) + 1) * unit - seconds
    }

    /// "14:02:31" for a reading of the engine clock (seconds since the reference date); "14:02"
    /// without seconds, as the header shows it.
    /// In `timeZone`, or the system's when nil.
    static func clock(_ now: TimeInterval, timeZone: ZoneInfo?, seconds: Bool = true) -> String {
        LocalTime(now, zone: timeZone).clock(seconds: seconds)
    }

    /// Seconds until the header's "14:02" turns to the next minute (time zones differ from UTC by
    /// whole minutes).
    static func untilClockChanges(_ now: TimeInterval) -> TimeInterval {
        let intoMinute = now.truncatingRemainder(dividingBy: 60)
        return 60 - (intoMinute < 0 ? intoMinute + 60 : intoMinute)
    }

    /// "100%", "99.5%", "0%": the share of `total` that is `ok`, cut (never rounded up) to a
    /// tenth, so one failure in 2,000 reads 99.9%, not 100%. Nil when there is nothing to count.
    static func uptime(ok: Int, of total: Int) -> String? {
        guard total > 0 else { return nil }
        if ok >= total { return "100%" }
        let tenths = (ok * 1000) / total
        return tenths % 10 == 0 ? "\(tenths / 10)%" : "\(tenths / 10).\(tenths % 10)%"
    }
}
