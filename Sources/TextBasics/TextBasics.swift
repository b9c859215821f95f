#if canImport(Glibc)
import Glibc
#endif

// What Hammock used of NSString, on the standard library and the C library, so that no module of
// the binary needs full Foundation (and with it ICU's 34 MB of data): trimming, percent-encoding,
// printf-style numbers, padding, and the comparison a sort by name uses (DECISIONS §29).

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (and other horizontal space).
    public func trimmingWhitespace() -> String {
        trimming { $0.properties.isWhitespace && !Self.isNewline($0) }
    }

    /// Without leading and trailing white space, line breaks included.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming { $0.properties.isWhitespace }
    }

    /// Without leading and trailing characters of `characters`.
    public func trimming(charactersIn characters: String) -> String {
        let set = Set(characters.unicodeScalars)
        return trimming { set.contains($0) }
    }

    private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex { !drop($0) }!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": true
        default: false
        }
    }

    /// The UTF-8 bytes `allowed` says stay as they are, every other byte as `%XX`.
    public func percentEncoded(allowing allowed: (UInt8) -> Bool) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for byte in utf8 {
            if allowed(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String.hex(byte, digits: 2)
            }
        }
        return out
    }

    /// `%XX` sequences as the bytes they stand for; nil when one is malformed or the bytes are not UTF-8.
    public var percentDecoded: String? {
        var bytes: [UInt8] = []
        var rest = Array(utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Cut or padded with spaces on the right to `length` characters.
    public func padded(toLength length: Int) -> String {
        count >= length ? String(prefix(length)) : String(self) + String(repeating: " ", count: length - count)
    }
}

extension String {
    /// `format` filled in as C's `printf` fills it: numbers only (`%.1f`, `%04X`, `%g`, `%ld`).
    public init(printf format: String, _ arguments: any CVarArg...) {
        var buffer = [CChar](repeating: 0, count: 64)
        let needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `value` in upper-case hexadecimal, zero-padded to `digits`.
    public static func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }

    /// `value` in decimal, zero-padded to `digits`.
    public static func zeroPadded(_ value: Int, digits: Int) -> String {
        let text = String(value.magnitude)
        let padded = text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
        return value < 0 ? "-" + padded : padded
    }

    /// Ordered as people order names: case ignored, and runs of digits by their value ("pane 9"
    /// before "pane 10").
    public func naturalOrder(_ other: String) -> Comparison {
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
        let a = Array(lowercased().unicodeScalars), b = Array(other.lowercased().unicodeScalars)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                var endI = i, endJ = j
                while endI < a.count, isDigit(a[endI]) { endI += 1 }
                while endJ < b.count, isDigit(b[endJ]) { endJ += 1 }
                let left = a[i..<endI].drop { $0 == "0" }, right = b[j..<endJ].drop { $0 == "0" }
                if left.count != right.count { return left.count < right.count ? .ascending : .descending }
                if let (l, r) = zip(left, right).first(where: { $0 != $1 }) { return l < r ? .ascending : .descending }
                (i, j) = (endI, endJ)
                continue
            }
            if a[i] != b[j] { return a[i] < b[j] ? .ascending : .descending }
            i += 1
            j += 1
        }
        if i == a.count, j == b.count { return .same }
        return i == a.count ? .ascending : .descending
    }

    /// The order of two strings.
    public enum Comparison: Sendable { case ascending, same, descending }
}

extension StringProtocol {
    /// The scheme this starts with, as RFC 3986 writes one (a letter, then letters, digits, `+`,
    /// `.` or `-`, then `:`), without its colon; nil when it starts with none.
    public var leadingScheme: SubSequence? {
        guard let first = unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return nil }
        guard let colon = firstIndex(of: ":") else { return nil }
        let scheme = self[..<colon]
        let valid = scheme.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0)) }
        return valid ? scheme : nil
    }
}

extension UInt8 {
    /// A letter, a digit or `-._~`: what RFC 3986 never percent-encodes.
    public var isURIUnreserved: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
