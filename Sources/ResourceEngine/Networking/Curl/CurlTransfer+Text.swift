import CCurl
import FoundationEssentials

/// Text a transfer writes for libcurl or reads from it: header lines, header names, messages.
extension CurlTransfer {
    /// `Name: value`, or `Name;` for an empty value (libcurl's syntax for sending it empty), or
    /// `Name:` for `Expect` (which removes the header). Line breaks cannot smuggle in headers.
    static func headerLine(name: String, value: String) -> String {
        let name = ResponseHeaderBlock.unfolded(name)
        let value = ResponseHeaderBlock.unfolded(value)
        if value.isEmpty { return isNamed(name, "expect") ? "\(name):" : "\(name);" }
        return name + ": " + value
    }

    /// Whether a header name is `lowerCaseName` in any case (ASCII letters; no allocation).
    static func isNamed(_ name: String, _ lowerCaseName: StaticString) -> Bool {
        guard name.utf8.count == lowerCaseName.utf8CodeUnitCount else { return false }
        let wanted = UnsafeBufferPointer(start: lowerCaseName.utf8Start, count: lowerCaseName.utf8CodeUnitCount)
        for (byte, expected) in zip(name.utf8, wanted) where byte != expected {
            guard byte >= 0x41, byte <= 0x5A, byte + 0x20 == expected else { return false }
        }
        return true
    }

    /// N from libcurl's "transfer closed with N bytes remaining to read".
    static func remainingBytes(_ text: String) -> Int? {
        guard let range = text.firstRange(of: "with ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}
