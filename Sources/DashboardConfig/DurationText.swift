import FoundationEssentials
import TextBasics

/// Durations as people write them in config: `250ms`, `5s`, `1.5s`, `2m`, `1h`, `14d`. A config
/// must write the unit (`hasUnit`): a bare `1000` reads as seconds to some and milliseconds to
/// others (Hurl, Gatus), so only `0` may go without.
public enum DurationText {
    /// The units, shortest first as they are written.
    public static let units = "ms, s, m, h or d"

    /// True when `text` ends in a unit, or is zero (which needs none).
    public static func hasUnit(_ text: String) -> Bool {
        let trimmed = trimmingSpaces(Substring(text))
        guard let last = trimmed.unicodeScalars.last else { return false }
        if last.properties.isAlphabetic { return true }
        return Double(trimmed) == 0
    }

    /// Seconds for `text`, or nil when it is not a duration.
    public static func parse(_ text: String) -> TimeInterval? {
        let trimmed = trimmingSpaces(Substring(text))
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        for (suffix, scale) in units where trimmed.utf8.reversed().starts(with: suffix.utf8.reversed()) {
            let number = trimmingSpaces(Substring(trimmed.utf8.dropLast(suffix.utf8.count)))
            guard let value = Double(number), value.isFinite, value >= 0, number.first?.isNumber == true else { return nil }
            return value * scale
        }
        guard let value = Double(trimmed), value.isFinite, value >= 0, trimmed.first?.isNumber == true else { return nil }
        return value
    }

    /// Without leading and trailing spaces and tabs (`CharacterSet.whitespaces`: tab and the
    /// Unicode space separators), scalar by scalar: every pane's `every` goes through here.
    private static func trimmingSpaces(_ text: Substring) -> Substring {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return Substring(scalars[first...last])
    }

    /// A compact form for display: "250ms", "5s", "2m", "1h30m".
    public static func format(_ seconds: TimeInterval) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded()))ms" }
        if seconds < 60 {
            return seconds.rounded() == seconds ? "\(Int(seconds))s" : String(printf: "%.1fs", seconds)
        }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return whole % 60 == 0 ? "\(whole / 60)m" : "\(whole / 60)m\(whole % 60)s" }
        return whole % 3600 == 0 ? "\(whole / 3600)h" : "\(whole / 3600)h\((whole % 3600) / 60)m"
    }
}
