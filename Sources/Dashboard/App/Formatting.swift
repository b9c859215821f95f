import Foundation

/// Short human forms for ages, latencies and clock times.
enum Formatting {
    /// "now", "5s ago", "3m ago", "2h ago", "4d ago".
    static func age(_ seconds: TimeInterval) -> String {
        if seconds < 1 { return "now" }
        if seconds < 60 { return "\(Int(seconds))s ago" }
        if seconds < 3600 { return "\(Int(seconds / 60))m ago" }
        if seconds < 86400 { return "\(Int(seconds / 3600))h ago" }
        return "\(Int(seconds / 86400))d ago"
    }

    /// "41 ms", "1.2 s".
    static func latency(_ seconds: TimeInterval) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.1f s", seconds)
    }

    /// "14:02:31" for a reading of the engine clock (seconds since the reference date).
    static func clock(_ now: TimeInterval, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: Date(timeIntervalSinceReferenceDate: now))
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
