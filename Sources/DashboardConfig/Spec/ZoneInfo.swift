import FoundationEssentials
import Glibc
import ResourceEngine

/// A time zone from the system's time zone database (`/usr/share/zoneinfo`, the TZif files
/// glibc reads), or a fixed offset: how far a moment's wall clock is from UTC there.
///
/// Hammock's own, because Foundation without ICU knows no zone but GMT (DECISIONS §29). Offsets
/// come from the file's transitions; past its last one, from the POSIX rule at its end
/// (`CET-1CEST,M3.5.0,M10.5.0/3`).
public struct ZoneInfo: Sendable, Equatable {
    /// The name it was read by ("Europe/Berlin", "UTC").
    public let identifier: String
    private let transitions: [Int64]
    /// Per transition, the offset that starts with it.
    private let offsets: [Int32]
    /// The offset before the first transition.
    private let initial: Int32
    private let rule: Rule?

    /// UTC.
    public static let utc = ZoneInfo(identifier: "UTC", secondsFromGMT: 0)

    /// A zone `secondsFromGMT` east of UTC all year.
    public init(identifier: String, secondsFromGMT: Int) {
        self.init(identifier: identifier, transitions: [], offsets: [], initial: Int32(secondsFromGMT), rule: nil)
    }

    private init(identifier: String, transitions: [Int64], offsets: [Int32], initial: Int32, rule: Rule?) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.initial = initial
        self.rule = rule
    }

    /// The zone named `identifier` in the database under `directory`; nil for a name it does not
    /// hold, or one that is not a zone's name (`..`, an absolute path).
    public init?(identifier: String, directory: String = "/usr/share/zoneinfo") {
        if ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z", "Zulu", "UCT", "Universal"].contains(identifier) {
            self.init(identifier: identifier, secondsFromGMT: 0)
            return
        }
        let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard !identifier.isEmpty, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
            identifier.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/_+-".unicodeScalars.contains($0)) }),
            let bytes = Self.read(directory + "/" + identifier), let parsed = Self.parse(bytes)
        else { return nil }
        self.init(identifier: identifier, transitions: parsed.0, offsets: parsed.1, initial: parsed.2, rule: parsed.3)
    }

    /// Seconds east of UTC at `unixTime` (seconds since 1970).
    public func secondsFromGMT(atUnixTime unixTime: Int64) -> Int {
        if let last = transitions.last, unixTime >= last, let rule { return rule.offset(at: unixTime) }
        if transitions.isEmpty { return rule?.offset(at: unixTime) ?? Int(initial) }
        // The last transition at or before the moment.
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= unixTime { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? Int(initial) : Int(offsets[low - 1])
    }

    /// The system's own zone's offset at `unixTime` (`TZ`, else /etc/localtime, as glibc reads them).
    public static func systemSecondsFromGMT(atUnixTime unixTime: Int64) -> Int {
        _ = setUp
        var seconds = time_t(unixTime)
        var fields = tm()
        localtime_r(&seconds, &fields)
        return Int(fields.tm_gmtoff)
    }

    private static let setUp: Void = tzset()

    public static func == (a: ZoneInfo, b: ZoneInfo) -> Bool { a.identifier == b.identifier }

    private static func read(_ path: String) -> [UInt8]? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)), data.count <= 1 << 20 else { return nil }
        return Array(data)
    }

    /// A TZif file (RFC 8536): its 64-bit block when it has one, and the rule of its footer.
    private static func parse(_ bytes: [UInt8]) -> ([Int64], [Int32], Int32, Rule?)? {
        func integer(_ at: Int, _ size: Int) -> Int64? {
            guard at >= 0, at + size <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[at..<at + size] { value = value << 8 | Int64(byte) }
            // Sign-extend 32-bit values.
            return size == 4 ? Int64(Int32(truncatingIfNeeded: value)) : value
        }
        guard bytes.count >= 44, bytes[0..<4].elementsEqual("TZif".utf8) else { return nil }
        func counts(_ at: Int) -> [Int]? {
            let values = (0..<6).compactMap { integer(at + 20 + $0 * 4, 4).map(Int.init) }
            return values.count == 6 && values.allSatisfy({ $0 >= 0 && $0 < 1 << 20 }) ? values : nil
        }
        guard var header = counts(0) else { return nil }
        var start = 44
        var timeSize = 4
        if bytes[4] >= UInt8(ascii: "2") {
            // Skip the 32-bit block to the 64-bit one.
            let (isut, isstd, leap, time, type, chars) = (header[0], header[1], header[2], header[3], header[4], header[5])
            let skip = time * 5 + type * 6 + chars + leap * 8 + isstd + isut
            guard let second = counts(start + skip) else { return nil }
            header = second
            start += skip + 44
            timeSize = 8
        }
        let (isut, isstd, leap, timeCount, typeCount, chars) = (header[0], header[1], header[2], header[3], header[4], header[5])
        guard typeCount > 0 else { return nil }
        let indices = start + timeCount * timeSize
        let types = indices + timeCount
        var transitions: [Int64] = []
        var offsets: [Int32] = []
        for index in 0..<timeCount {
            guard let time = integer(start + index * timeSize, timeSize), let type = integer(indices + index, 1).map(Int.init), type < typeCount,
                let offset = integer(types + type * 6, 4)
            else { return nil }
            transitions.append(time)
            offsets.append(Int32(offset))
        }
        // Before the first transition: the first type that is not daylight time.
        let standard = (0..<typeCount).first { integer(types + $0 * 6 + 4, 1) == 0 } ?? 0
        guard let initial = integer(types + standard * 6, 4) else { return nil }
        var rule: Rule?
        let footer = types + typeCount * 6 + chars + leap * (timeSize + 4) + isstd + isut
        if timeSize == 8, footer < bytes.count, bytes[footer] == UInt8(ascii: "\n"),
            let end = bytes[(footer + 1)...].firstIndex(of: UInt8(ascii: "\n"))
        {
            rule = Rule(String(decoding: bytes[(footer + 1)..<end], as: UTF8.self))
        }
        return (transitions, offsets, Int32(initial), rule)
    }

    /// A POSIX `TZ` rule: a standard offset, and daylight time between two `Mm.w.d[/time]` days.
    struct Rule: Sendable {
        let standard: Int
        let daylight: Int?
        let start: (month: Int, week: Int, day: Int, time: Int)
        let end: (month: Int, week: Int, day: Int, time: Int)

        init?(_ text: String) {
            var rest = Substring(text)
            func name() -> Bool {
                if rest.first == "<" {
                    guard let close = rest.firstIndex(of: ">") else { return false }
                    rest = rest[rest.index(after: close)...]
                    return true
                }
                let letters = rest.prefix { $0.isLetter }
                rest = rest.dropFirst(letters.count)
                return letters.count >= 3
            }
            // [+-]hh[:mm[:ss]]
            func time() -> Int? {
                var sign = 1
                if rest.first == "-" { sign = -1; rest = rest.dropFirst() } else if rest.first == "+" { rest = rest.dropFirst() }
                var parts: [Int] = []
                while parts.count < 3 {
                    let digits = rest.prefix { $0.isASCII && $0.isNumber }
                    guard !digits.isEmpty, let value = Int(digits) else { return parts.isEmpty ? nil : sign * Self.seconds(parts) }
                    parts.append(value)
                    rest = rest.dropFirst(digits.count)
                    guard rest.first == ":" else { break }
                    rest = rest.dropFirst()
                }
                return sign * Self.seconds(parts)
            }
            func day() -> (Int, Int, Int, Int)? {
                guard rest.first == "," else { return nil }
                rest = rest.dropFirst()
                guard rest.first == "M" else { return nil }
                rest = rest.dropFirst()
                let fields = rest.prefix { $0 != "," && $0 != "/" }.split(separator: ".").compactMap { Int($0) }
                rest = rest.dropFirst(rest.prefix { $0 != "," && $0 != "/" }.count)
                guard fields.count == 3, (1...12).contains(fields[0]), (1...5).contains(fields[1]), (0...6).contains(fields[2]) else { return nil }
                var at = 7200
                if rest.first == "/" {
                    rest = rest.dropFirst()
                    guard let value = time() else { return nil }
                    at = value
                }
                return (fields[0], fields[1], fields[2], at)
            }
            guard name(), let offset = time() else { return nil }
            // POSIX counts west of UTC as positive.
            standard = -offset
            guard !rest.isEmpty else {
                (daylight, start, end) = (nil, (0, 0, 0, 0), (0, 0, 0, 0))
                return
            }
            guard name() else { return nil }
            var daylightOffset = standard + 3600
            if rest.first != ",", let value = time() { daylightOffset = -value }
            guard let from = day(), let to = day() else { return nil }
            (daylight, start, end) = (daylightOffset, from, to)
        }

        private static func seconds(_ parts: [Int]) -> Int {
            parts.enumerated().reduce(0) { $0 + $1.element * [3600, 60, 1][$1.offset] }
        }

        func offset(at unixTime: Int64) -> Int {
            guard let daylight else { return standard }
            let year = Self.year(of: unixTime + Int64(standard))
            // Transitions are written in the local time in force before each.
            let begins = Self.moment(year, start) - Int64(standard)
            let ends = Self.moment(year, end) - Int64(daylight)
            let inside = begins < ends ? unixTime >= begins && unixTime < ends : unixTime >= begins || unixTime < ends
            return inside ? daylight : standard
        }

        /// The civil year of a day count's moment.
        private static func year(of seconds: Int64) -> Int {
            let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
            return DateText.civil(days: days).year
        }

        /// Seconds from 1970 to the rule's day of `year`, at its time, as if UTC.
        private static func moment(_ year: Int, _ when: (month: Int, week: Int, day: Int, time: Int)) -> Int64 {
            let first = DateText.days(year: year, month: when.month, day: 1)
            let firstWeekday = ((first % 7) + 11) % 7  // 1970-01-01 was a Thursday (4)
            var day = 1 + (when.day - firstWeekday + 7) % 7 + (when.week - 1) * 7
            let length = DateText.days(year: when.month == 12 ? year + 1 : year, month: when.month == 12 ? 1 : when.month + 1, day: 1) - first
            while day > length { day -= 7 }
            return Int64(first + day - 1) * 86_400 + Int64(when.time)
        }
    }
}
