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
}
