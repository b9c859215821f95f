import Glibc

/// The header block of the response being received, one line at a time as libcurl hands them
/// over: names lower-cased, a repeated header's values joined with ", ", folded lines joined to
/// their header. A status line starts a new block (what came before belonged to a redirect or an
/// interim 1xx response).
///
/// A value type the transfer keeps in one stored property: one exclusivity check per line.
struct ResponseHeaderBlock {
    private(set) var headers: [String: String] = [:]
    /// True once a status line arrived: there is a response, even without headers.
    private(set) var statusLineSeen = false
    /// The Content-Length the server declared, if it did.
    private(set) var declaredLength: Int64?
    /// Two Content-Length headers that disagree: the exchange is refused (a truncated or smuggled
    /// body must not pass as the answer).
    private(set) var conflictingLengths: (String, String)?
    /// A Content-Length that is not a length (not digits, or past any size a body can have): the
    /// exchange is refused, not read as far as the connection goes and called a success.
    private(set) var invalidLength: String?
    /// The name of the last header line, for a folded continuation line.
    private var lastName: String?
    private var lengthValue: String?

    /// Takes one line (its line end included or not); false when the block must be refused.
    mutating func add(_ line: UnsafeRawBufferPointer) -> Bool {
        if line.count >= 5, line[0] == 0x48, line[1] == 0x54, line[2] == 0x54, line[3] == 0x50, line[4] == 0x2F {  // "HTTP/"
            self = ResponseHeaderBlock()
            headers = Dictionary(minimumCapacity: 12)
            statusLineSeen = true
            return true
        }
        if let first = line.first, first == 0x20 || first == 0x09 {
            let continuation = ResponseHeaderBlock.text(line)
            if let lastName, !continuation.isEmpty { headers[lastName, default: ""] += " " + continuation }
            return true
        }
        guard let base = line.baseAddress, let found = memchr(base, 0x3A, line.count) else { return true }
        let colon = base.distance(to: UnsafeRawPointer(found))
        let name = ResponseHeaderBlock.text(UnsafeRawBufferPointer(rebasing: line[..<colon]), lowercased: true)
        let value = ResponseHeaderBlock.text(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        if name == "content-length" {
            if let earlier = lengthValue, earlier != value {
                conflictingLengths = (earlier, value)
                return false
            }
            lengthValue = value
            declaredLength = Int64(value)
            if declaredLength == nil || !value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                invalidLength = value
                return false
            }
        }
        if let earlier = headers.updateValue(value, forKey: name) { headers[name] = "\(earlier), \(value)" }
        lastName = name
        return true
    }

    /// The bytes as text without leading and trailing spaces, tabs and line ends; with `unfolding`,
    /// line ends inside become spaces; with `lowercased`, ASCII letters are lower-cased (header names
    /// are ASCII tokens). Plain byte work: this runs for every header of every probe.
    static func text(_ bytes: UnsafeRawBufferPointer, unfolding: Bool = false, lowercased: Bool = false) -> String {
        var first = 0
        var end = bytes.count
        while first < end, isSpace(bytes[first]) { first += 1 }
        while end > first, isSpace(bytes[end - 1]) { end -= 1 }
        guard first < end else { return "" }
        let run = UnsafeRawBufferPointer(rebasing: bytes[first..<end])
        var rewrites = false
        for byte in run where (lowercased && byte >= 0x41 && byte <= 0x5A) || (unfolding && (byte == 0x0D || byte == 0x0A)) {
            rewrites = true
            break
        }
        guard rewrites else { return String(decoding: run, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: run.count) { out in
            for index in 0..<run.count {
                let byte = run[index]
                if unfolding, byte == 0x0D || byte == 0x0A {
                    out[index] = 0x20
                } else if lowercased, byte >= 0x41, byte <= 0x5A {
                    out[index] = byte + 0x20
                } else {
                    out[index] = byte
                }
            }
            return run.count
        }
    }

    /// A request header's name or value as `text(_:unfolding: true)` makes it: the string itself
    /// when it has nothing to trim or unfold (most do), no copy.
    static func unfolded(_ text: String) -> String {
        var text = text
        let clean = text.withUTF8 { utf8 in
            guard let first = utf8.first, let last = utf8.last else { return true }
            return !isSpace(first) && !isSpace(last) && !utf8.contains { $0 == 0x0D || $0 == 0x0A }
        }
        return clean ? text : text.withUTF8 { self.text(UnsafeRawBufferPointer($0), unfolding: true) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
}
