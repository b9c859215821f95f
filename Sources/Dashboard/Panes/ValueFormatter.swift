import DashboardConfig
import FoundationEssentials
import Glibc
import ResourceEngine
import TextBasics

/// Values as people read them: `1,234,567`, `1.5 KiB`, `19.4%`, `19 ms`, `5m ago`,
/// `2026-11-23 18:30:05`. Deterministic (no locale): digits grouped by commas, IEC units.
enum ValueFormatter {
    /// Seconds from 1970 to the engine clock's reference date (2001).
    static let epochToReference: TimeInterval = 978_307_200

    /// `value` in `format`, or nil when the value is not one the format reads (a word where a
    /// number belongs): the raw value is shown then, never a made-up one.
    /// `decimals` rounds a number or a percentage to that many places; without it, a number keeps
    /// the digits it has.
    static func text(_ value: JSON, _ format: ValueFormat, decimals: Int? = nil, now: TimeInterval, timeZone: ZoneInfo?) -> String? {
        switch format {
        case .number:
            if let decimals {
                // Rounded on the digits as written (10243.55 → 10,243.6), not on the nearest double.
                if let digits = integerDigits(value) ?? decimalDigits(value) { return groupedDecimal(rounded(digits, decimals: decimals)) }
                return number(value).map { fixed($0, decimals: decimals) }
            }
            // Grouped digit for digit as the value has them: a double would invent digits past
            // 17, and rounding would drop ones it has (455.68 is not 455.7).
            if let digits = integerDigits(value) { return groupedDigits(digits) }
            // An exponent form (1e+300) as JSON writes it.
            return decimalDigits(value).map(groupedDecimal) ?? number(value).map(JSON.format)
        case .bytes: return number(value).map(bytes)
        case .percent: return number(value).map { fraction in decimals.map { fixed(fraction * 100, decimals: $0) + "%" } ?? percent(fraction) }
        case .duration: return number(value).map(duration)
        case .age:
            guard let moment = moment(value) else { return nil }
            let seconds = now - moment
            // Over 30 years either way is a sentinel or a unit mix-up, not an age: shown raw.
            guard abs(seconds) < 1e9 else { return nil }
            return seconds < -1 ? "in " + Formatting.age(-seconds).replacing(" ago", with: "") : Formatting.age(max(0, seconds))
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
        case .string(let s): Double(s.trimmingWhitespace()).flatMap { $0.isFinite ? $0 : nil }
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
        let trimmed = text.trimmingWhitespace()
        if let moment = zonelessMoment(trimmed) { return moment }
        for style in [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()] {
            if let date = try? style.parse(trimmed) { return date.timeIntervalSinceReferenceDate }
        }
        return nil
    }

    /// An ISO 8601 date and time written without a zone (`2026-11-27T10:00:00`, `2026-11-27
    /// 10:00:00.123456`, Python's `isoformat()` of a naive time), taken as UTC: what servers
    /// keep and log. Nil for any other text (a zone, a date alone).
    static func zonelessMoment(_ text: String) -> TimeInterval? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes.count <= 32 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60
        else { return nil }
        var seconds = 0.0
        var index = 16
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: ":"), bytes.count >= 19, let whole = number(17..<19), whole < 61 else { return nil }
            seconds = Double(whole)
            index = 19
            if index < bytes.count {
                guard bytes[index] == UInt8(ascii: "."), bytes.count > 20, let fraction = number(20..<bytes.count) else { return nil }
                seconds += Double(fraction) / pow(10, Double(bytes.count - 20))
                index = bytes.count
            }
        }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3_600 + minute * 60) + seconds - epochToReference
    }

    /// The digits of a whole number as sent (an integer, a big integer, or text of digits).
    static func integerDigits(_ value: JSON) -> String? {
        let text: String
        switch value {
        case .int(let i): text = String(i)
        case .bigInteger(let digits): text = digits
        case .string(let s): text = s.trimmingWhitespace()
        default: return nil
        }
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !body.isEmpty, body.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return text
    }

    /// The digits of a number with a fraction as the value has them: a JSON number's shortest
    /// form, or text written as a plain decimal (`"455.68"`, as Prometheus sends values); nil
    /// for anything else (an exponent form is left to the caller's raw value).
    static func decimalDigits(_ value: JSON) -> String? {
        let text: String
        switch value {
        case .double(let d):
            guard d.isFinite else { return nil }
            text = JSON.format(d)
        case .string(let s): text = s.trimmingWhitespace()
        default: return nil
        }
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        let digit = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
        guard parts.count <= 2, parts.allSatisfy(digit) else { return nil }
        return text
    }

    /// "10243.55" → "10,243.55": the whole part grouped, the fraction as it is.
    static func groupedDecimal(_ text: String) -> String {
        let parts = text.split(separator: ".", maxSplits: 1)
        return groupedDigits(String(parts[0])) + (parts.count > 1 ? "." + parts[1] : "")
    }

    /// Plain decimal digits (`-10243.555`) rounded half away from zero to `decimals` places,
    /// trailing zeros kept: "-10243.56".
    static func rounded(_ digits: String, decimals: Int) -> String {
        let negative = digits.hasPrefix("-")
        let body = negative ? digits.dropFirst() : Substring(digits)
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var fraction = Array(parts.count > 1 ? parts[1] : "")
        var whole = Array(parts[0].isEmpty ? "0" : parts[0])
        let roundUp = fraction.count > decimals && fraction[decimals] >= "5"
        fraction = Array(fraction.prefix(decimals)) + Array(repeating: "0", count: max(0, decimals - fraction.count))
        if roundUp {
            var carry = true
            for index in fraction.indices.reversed() where carry {
                if fraction[index] == "9" { fraction[index] = "0" } else { fraction[index] = Character(String(fraction[index].wholeNumberValue! + 1)); carry = false }
            }
            for index in whole.indices.reversed() where carry {
                if whole[index] == "9" { whole[index] = "0" } else { whole[index] = Character(String(whole[index].wholeNumberValue! + 1)); carry = false }
            }
            if carry { whole.insert("1", at: 0) }
        }
        let text = String(whole) + (decimals > 0 ? "." + String(fraction) : "")
        let zero = !text.contains { $0 != "0" && $0 != "." }
        return (negative && !zero ? "-" : "") + text
    }

    /// `number` rounded to `decimals` places, trailing zeros kept (40 → "40.00"), grouped.
    static func fixed(_ number: Double, decimals: Int) -> String {
        guard abs(number) < 1e21 else { return String(printf: "%.3g", number) }
        let text = String(printf: "%.\(decimals)f", abs(number))
        let negative = number < 0 && text.contains { $0 != "0" && $0 != "." }
        return (negative ? "-" : "") + groupedDecimal(text)
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
        if magnitude >= 1e21 { return String(printf: "%.3g", number) }
        let decimals: Int
        if magnitude == 0 || magnitude >= 100 {
            decimals = magnitude.rounded() == magnitude || magnitude >= 1e15 ? 0 : 1
        } else if magnitude >= 1 {
            decimals = 2
        } else {
            decimals = min(12, max(3, Int((-log10(magnitude)).rounded(.down)) + 3))
        }
        var text = String(printf: "%.\(decimals)f", magnitude)
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
    static func localTime(_ moment: TimeInterval, timeZone: ZoneInfo?) -> String {
        LocalTime(moment, zone: timeZone).dateTime
    }
}
