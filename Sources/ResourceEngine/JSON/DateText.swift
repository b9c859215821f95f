import TextBasics

/// RFC 3339 dates and times as seconds since 1970: `2026-01-01`, `2026-01-01T10:02:00Z`,
/// `2026-01-01T10:02:00.250+02:00` (a space for the `T`, as many APIs write it). No Foundation:
/// one format, read by hand.
public enum DateText {
    /// The moment `text` names, or nil when it is not such a date.
    public static func seconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(days(year: year, month: month, day: day) * 86_400)
        guard bytes.count > 10 else { return seconds }
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19), hour < 24, minute < 60, second < 61
        else { return nil }
        seconds += Double(hour * 3_600 + minute * 60 + second)
        var i = 19
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            let first = i
            while i < bytes.count, (48...57).contains(bytes[i]) {
                seconds += Double(bytes[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > first else { return nil }
        }
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            return i + 1 == bytes.count ? seconds : nil
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == i + 6, bytes[i + 3] == UInt8(ascii: ":"), let hours = number(i + 1..<i + 3), let minutes = number(i + 4..<i + 6) else { return nil }
            let offset = Double(hours * 3_600 + minutes * 60)
            return bytes[i] == UInt8(ascii: "+") ? seconds - offset : seconds + offset
        default:
            return nil
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// algorithm).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day count from 1970-01-01 (the inverse of `days`).
    public static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `seconds` since 1970 as RFC 3339 in UTC, with milliseconds (`2026-11-28T01:40:36.250Z`) or
    /// without (`2026-11-28T01:40:36Z`).
    public static func utcTimestamp(_ seconds: Double, milliseconds withMilliseconds: Bool = true) -> String {
        let milliseconds = Int64((seconds.isFinite ? min(max(seconds, -1e14), 1e14) : 0) * 1000)
        let whole = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let day = Int(whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400)
        let (year, month, date) = civil(days: day)
        let inDay = Int(whole - Int64(day) * 86_400)
        func padded(_ value: Int, _ width: Int) -> String { String.zeroPadded(value, digits: width) }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(date, 2) + "T" + padded(inDay / 3600, 2) + ":" + padded(inDay / 60 % 60, 2)
            + ":" + padded(inDay % 60, 2) + (withMilliseconds ? "." + padded(Int(milliseconds - whole * 1000), 3) : "") + "Z"
    }

    /// An HTTP date (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`) as seconds since 1970.
    public static func httpDate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT", let day = Int(parts[1]), (1...31).contains(day),
            let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]), parts[3].count == 4
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2], hour < 24, minute < 60, second < 61 else { return nil }
        return Double(days(year: year, month: month + 1, day: day) * 86_400 + hour * 3_600 + minute * 60 + second)
    }
}
