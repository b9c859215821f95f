import FoundationEssentials
import TextBasics

/// Parses JSON text into `JSON`, keeping key order and integer exactness.
///
/// Strict RFC 8259: any top-level value, no trailing commas, no comments. Errors say what was
/// wrong and where ("unexpected character 'x' at line 3, column 7"). Nesting deeper than
/// `maxDepth` is an error rather than a stack overflow.
public struct JSONParser {
    /// Why parsing failed, with a 1-based position.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong ("unexpected character 'x'").
        public let message: String
        /// The line it was found on.
        public let line: Int
        /// The column (in characters) it was found at.
        public let column: Int
        public var description: String { "Invalid JSON: \(message) at line \(line), column \(column)" }
    }

    /// The deepest nesting accepted.
    public static let maxDepth = 512

    /// Parses `data` (UTF-8, optionally with a byte-order mark).
    public static func parse(_ data: Data) throws(Failure) -> JSON {
        let result: Result<JSON, Failure> = data.withUnsafeBytes { raw in
            var parser = Cursor(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a string.
    public static func parse(_ text: String) throws(Failure) -> JSON {
        try parse(Data(text.utf8))
    }

    /// Reads bytes in place: the buffer lives only for the duration of `parse`.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func parseDocument() throws(Failure) -> JSON {
            skipWhitespace()
            guard index < bytes.count else { throw failure("empty document") }
            let value = try parseValue()
            skipWhitespace()
            guard index == bytes.count else { throw failure("unexpected \(describeCurrent()) after the value") }
            return value
        }

        mutating func parseValue() throws(Failure) -> JSON {
            guard index < bytes.count else { throw failure("unexpected end of input") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            default: throw failure("unexpected \(describeCurrent())")
            }
        }

        mutating func parseObject() throws(Failure) -> JSON {
            try enter()
            index += 1
            var object = JSONObject()
            skipWhitespace()
            if peek(UInt8(ascii: "}")) {
                index += 1
                depth -= 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard peek(UInt8(ascii: "\"")) else { throw failure("expected a quoted key but found \(describeCurrent())") }
                let key = try parseString()
                skipWhitespace()
                guard peek(UInt8(ascii: ":")) else { throw failure("expected ':' after key \"\(key)\" but found \(describeCurrent())") }
                index += 1
                skipWhitespace()
                object[key] = try parseValue()
                skipWhitespace()
                if peek(UInt8(ascii: ",")) {
                    index += 1
                    continue
                }
                if peek(UInt8(ascii: "}")) {
                    index += 1
                    depth -= 1
                    return .object(object)
                }
                throw failure("expected ',' or '}' in object but found \(describeCurrent())")
            }
        }

        mutating func parseArray() throws(Failure) -> JSON {
            try enter()
            index += 1
            var array: [JSON] = []
            skipWhitespace()
            if peek(UInt8(ascii: "]")) {
                index += 1
                depth -= 1
                return .array(array)
            }
            while true {
                skipWhitespace()
                array.append(try parseValue())
                skipWhitespace()
                if peek(UInt8(ascii: ",")) {
                    index += 1
                    continue
                }
                if peek(UInt8(ascii: "]")) {
                    index += 1
                    depth -= 1
                    return .array(array)
                }
                throw failure("expected ',' or ']' in array but found \(describeCurrent())")
            }
        }

        mutating func enter() throws(Failure) {
            depth += 1
            if depth > JSONParser.maxDepth { throw failure("nesting deeper than \(JSONParser.maxDepth) levels") }
        }

        mutating func parseString() throws(Failure) -> String {
            let start = index
            index += 1
            var runStart = index
            var runIsASCII = true
            // Only a string with escapes needs a buffer; most are one run decoded in place.
            var buffer: [UInt8]? = nil
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    if !runIsASCII { try validateUTF8(runStart..<index) }
                    if byte == UInt8(ascii: "\"") {
                        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                        index += 1
                        guard var text = buffer else { return String(decoding: run, as: UTF8.self) }
                        text.append(contentsOf: run)
                        return String(decoding: text, as: UTF8.self)
                    }
                    var text = buffer ?? []
                    text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    index += 1
                    text.append(contentsOf: String(try parseEscape()).utf8)
                    buffer = text
                    runStart = index
                    runIsASCII = true
                    continue
                }
                if byte < 0x20 { throw failure("unescaped control character in string") }
                if byte >= 0x80 { runIsASCII = false }
                index += 1
            }
            throw failure("unterminated string", at: start)
        }

        func validateUTF8(_ range: Range<Int>) throws(Failure) {
            var iterator = UnsafeBufferPointer(rebasing: bytes[range]).makeIterator()
            var decoder = UTF8()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: return
                case .error: throw failure("invalid UTF-8 in string", at: range.lowerBound)
                }
            }
        }

        mutating func parseEscape() throws(Failure) -> Unicode.Scalar {
            guard index < bytes.count else { throw failure("unterminated escape") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try parseHex4()
                if (0xD800..<0xDC00).contains(high) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw failure("unpaired surrogate \\u\(String(high, radix: 16))")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("invalid low surrogate") }
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
                }
                guard let scalar = Unicode.Scalar(high) else { throw failure("unpaired surrogate \\u\(String(high, radix: 16))") }
                return scalar
            default:
                index -= 1
                throw failure("invalid escape \\\(describeCurrent())")
            }
        }

        mutating func parseHex4() throws(Failure) -> UInt32 {
            guard index + 4 <= bytes.count else { throw failure("incomplete \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw failure("invalid hex digit in \\u escape")
                }
                value = value * 16 + digit
                index += 1
            }
            return value
        }

        mutating func parseNumber() throws(Failure) -> JSON {
            let start = index
            var isInteger = true
            if peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < bytes.count, isDigit(bytes[index]) { throw failure("leading zero in number") }
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if peek(UInt8(ascii: ".")) {
                isInteger = false
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected digits after '.'") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
                isInteger = false
                index += 1
                if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected digits in exponent") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if isInteger, index - start <= 18 {
                // Up to 18 digits cannot overflow Int64: no string needed.
                var value = 0
                var position = start
                let negative = bytes[position] == UInt8(ascii: "-")
                if negative { position += 1 }
                while position < index {
                    value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                    position += 1
                }
                return .int(negative ? -value : value)
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger { return Int(text).map(JSON.int) ?? .bigInteger(text) }
            guard let double = Double(text), double.isFinite else { throw failure("number out of range", at: start) }
            return .double(double)
        }

        mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
            let start = index
            let count = literal.utf8CodeUnitCount
            let matches = literal.withUTF8Buffer { expected in
                index + count <= bytes.count && bytes[index..<index + count].elementsEqual(expected)
            }
            guard matches else { throw failure("unexpected \(describeCurrent())", at: start) }
            index += count
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        func describeCurrent() -> String {
            guard index < bytes.count else { return "end of input" }
            let byte = bytes[index]
            if byte >= 0x21 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
            return String(printf: "byte 0x%02X", byte)
        }

        func failure(_ message: String, at position: Int? = nil) -> Failure {
            let position = min(position ?? index, bytes.count)
            var line = 1
            var lineStart = 0
            for i in 0..<position where bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            let column = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<position]), as: UTF8.self).count + 1
            return Failure(message: message, line: line, column: column)
        }
    }
}
