import DashboardConfig
import Foundation
import ResourceEngine

/// Values as people read them: `1,234,567`, `1.5 KiB`, `19.4%`, `19 ms`, `5m ago`,
/// `2026-11-23 18:30:05`. Deterministic (no locale): digits grouped by commas, IEC units.
enum ValueFormatter {
    /// Seconds from 1970 to the engine clock's reference date (2001).
    static let epochToReference: TimeInterval = 978_307_200

    /// `value` in `format`, or nil when the value is not one the format reads (a word where a
    /// number belongs): the raw value is shown then, never a made-up one.
    static func text(_ value: JSON, _ format: ValueFormat, now: TimeInterval, timeZone: TimeZone?) -> String? {
        switch format {
        case .number:
            // Whole numbers are grouped digit for digit: a double would invent the digits past 17.
            if let digits = integerDigits(value) { return groupedDigits(digits) }
            return number(value).map(grouped)
        case .bytes: return number(value).map(bytes)
        case .percent: return number(value).map(percent)
        case .duration: return number(value).map(duration)
        case .age:
            guard let moment = moment(value) else { return nil }
            let seconds = now - moment
            // Over 30 years either way is a sentinel or a unit mix-up, not an age: shown raw.
            guard abs(seconds) < 1e9 else { return nil }
            return seconds < -1 ? "in " + Formatting.age(-seconds).replacingOccurrences(of: " ago", with: "") : Formatting.age(max(0, seconds))
        case .time:
            // Years 1 to 9999 only: further out is not a time anyone means.
            guard let moment = moment(value), abs(moment) < 2.5e11 else { return nil }
            return localTime(moment, timeZone: timeZone)
        }
    }

    /// Seconds until `text` reads differently (ages), or nil when it never does by itself.
    static func untilChange(_ value: JSON, _ format: ValueFormat, now: TimeInterval) -> TimeInterval? {
        guard format == .age, let moment = moment(value) else { return nil }
        return Formatting.untilAgeChanges(abs(now - moment))
    }

    /// A number, from a JSON number or text that reads as one (Prometheus sends "0.19").
    static func number(_ value: JSON) -> Double? {
        switch value {
        case .int(let i): Double(i)
        case .double(let d): d.isFinite ? d : nil
        case .bigInteger(let digits): Double(digits)
        case .string(let s): Double(s.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// A moment on the engine clock: epoch seconds, milliseconds, microseconds or nanoseconds
    /// (told apart by size), or ISO 8601 text.
    static func moment(_ value: JSON) -> TimeInterval? {
        if let number = number(value) {
            let magnitude = abs(number)
            // Int64.max and min: "no sample yet" in Prometheus's TSDB status, not a moment.
            guard magnitude < 9e18 else { return nil }
            let seconds = magnitude >= 1e17 ? number / 1e9 : magnitude >= 1e14 ? number / 1e6 : magnitude >= 1e11 ? number / 1e3 : number
            return seconds - epochToReference
        }
        guard case .string(let text) = value else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for style in [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()] {
            if let date = try? style.parse(trimmed) { return date.timeIntervalSinceReferenceDate }
        }
        return nil
    }

    /// The digits of a whole number as sent (an integer, a big integer, or text of digits).
    static func integerDigits(_ value: JSON) -> String? {
        let text: String
        switch value {
        case .int(let i): text = String(i)
        case .bigInteger(let digits): text = digits
        case .string(let s): text = s.trimmingCharacters(in: .whitespaces)
        default: return nil
        }
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !body.isEmpty, body.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return text
    }

    /// "-1234567" → "-1,234,567".
    static func groupedDigits(_ digits: String) -> String {
        let negative = digits.hasPrefix("-")
        var whole = negative ? String(digits.dropFirst()) : digits
        var groups: [Substring] = []
        while whole.count > 3 {
            groups.insert(Substring(whole.suffix(3)), at: 0)
            whole.removeLast(3)
        }
        groups.insert(Substring(whole), at: 0)
        return (negative ? "-" : "") + groups.joined(separator: ",")
    }

    /// 1234567 → "1,234,567"; 1234.56 → "1,234.6"; 12.345 → "12.35"; 0.19360859 → "0.194".
    static func grouped(_ number: Double) -> String {
        decimal(number, grouping: true)
    }

    /// At most one decimal from 100, two from 1, three significant digits below 1; trailing
    /// zeros dropped.
    static func decimal(_ number: Double, grouping: Bool = false) -> String {
        let magnitude = abs(number)
        // Past 1e21 a double's digits are not the number's: say its size instead.
        if magnitude >= 1e21 { return String(format: "%.3g", number) }
        let decimals: Int
        if magnitude == 0 || magnitude >= 100 {
            decimals = magnitude.rounded() == magnitude || magnitude >= 1e15 ? 0 : 1
        } else if magnitude >= 1 {
            decimals = 2
        } else {
            decimals = min(12, max(3, Int((-log10(magnitude)).rounded(.down)) + 3))
        }
        var text = String(format: "%.\(decimals)f", magnitude)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if grouping {
            let parts = text.split(separator: ".", maxSplits: 1)
            text = groupedDigits(String(parts[0])) + (parts.count > 1 ? "." + parts[1] : "")
        }
        return (number < 0 && text != "0" ? "-" : "") + text
    }

    /// A fraction: 0.1936 → "19.4%"; 0.005 → "0.5%"; 1 → "100%".
    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        return (abs(value) >= 1 ? decimal((value * 10).rounded() / 10) : decimal(value)) + "%"
    }

    /// 512 → "512 B"; 1536 → "1.5 KiB"; 123456789 → "118 MiB".
    static func bytes(_ number: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = abs(number)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        // Past EiB the number stays a number (and never overflows an Int).
        let text = unit == 0 || value >= 100 ? decimal(value.rounded(), grouping: true) : decimal((value * 10).rounded() / 10)
        return (number < 0 ? "-" : "") + text + " " + units[unit]
    }

    /// Seconds: 0.00085 → "850 µs"; 0.0193 → "19 ms"; 1.234 → "1.2 s"; 200 → "3m 20s";
    /// 7500 → "2h 5m"; 273600 → "3d 4h".
    static func duration(_ seconds: Double) -> String {
        if seconds < 0 { return "-" + duration(-seconds) }
        // Beyond a million years a duration is a number of days, grouped (and never an Int overflow).
        if seconds >= 3e13 { return decimal((seconds / 86400).rounded(), grouping: true) + "d" }
        if seconds == 0 { return "0 s" }
        if seconds < 0.001 { return "\(Int((seconds * 1e6).rounded())) µs" }
        if seconds < 1 { return "\(Int((seconds * 1e3).rounded())) ms" }
        if seconds < 10 { return decimal((seconds * 10).rounded() / 10) + " s" }
        if seconds < 60 { return "\(Int(seconds.rounded())) s" }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return "\(whole / 60)m" + (whole % 60 == 0 ? "" : " \(whole % 60)s") }
        if whole < 86400 { return "\(whole / 3600)h" + (whole % 3600 / 60 == 0 ? "" : " \(whole % 3600 / 60)m") }
        return "\(whole / 86400)d" + (whole % 86400 / 3600 == 0 ? "" : " \(whole % 86400 / 3600)h")
    }

    /// "2026-11-23 18:30:05" in `timeZone`, or the system's when nil.
    static func localTime(_ moment: TimeInterval, timeZone: TimeZone?) -> String {
        LocalTime(moment, zone: timeZone).dateTime
    }
}
