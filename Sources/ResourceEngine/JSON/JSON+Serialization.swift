import FoundationEssentials
import TextBasics

extension JSON {
    /// Thrown when a value cannot be written as JSON (a NaN or infinite number).
    public struct NotRepresentable: Error, Sendable, CustomStringConvertible {
        /// The number that has no JSON form.
        public let value: Double
        public var description: String { "\(value) cannot be written as JSON" }
    }

    /// Compact UTF-8 JSON text for this value, keys in their stored order.
    public func serialized() throws -> Data {
        var out = ""
        try write(to: &out, indent: nil, level: 0)
        return Data(out.utf8)
    }

    /// Indented JSON text for display, two spaces per level.
    public func prettyPrinted() -> String {
        var out = ""
        try? write(to: &out, indent: "  ", level: 0)
        return out
    }

    private func write(to out: inout String, indent: String?, level: Int) throws {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            guard d.isFinite else {
                if indent != nil { out += String(d); return }
                throw NotRepresentable(value: d)
            }
            out += JSON.format(d)
        case .bigInteger(let digits): out += digits
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                JSON.newline(&out, indent, level + 1)
                try item.write(to: &out, indent: indent, level: level + 1)
            }
            JSON.newline(&out, indent, level)
            out += "]"
        case .object(let object):
            if object.isEmpty { out += "{}"; return }
            out += "{"
            for (i, member) in object.members.enumerated() {
                if i > 0 { out += "," }
                JSON.newline(&out, indent, level + 1)
                JSON.writeString(member.key, to: &out)
                out += indent == nil ? ":" : ": "
                try member.value.write(to: &out, indent: indent, level: level + 1)
            }
            JSON.newline(&out, indent, level)
            out += "}"
        }
    }

    /// A number as the shortest text that reads back the same; whole numbers without ".0".
    public static func format(_ d: Double) -> String {
        if d.rounded() == d, abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    private static func newline(_ out: inout String, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        out += "\n"
        for _ in 0..<level { out += indent }
    }

    static func isInvisibleFormat(_ value: UInt32) -> Bool {
        value == 0x061C || value == 0x200E || value == 0x200F || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Controls, C1 controls, and what reorders or hides text (bidi overrides, isolates,
            // marks, line separators) as escapes: the output may be read on a terminal.
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || JSON.isInvisibleFormat(scalar.value):
                out += String(printf: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSON: CustomStringConvertible {
    /// Compact JSON text: `{"status":"UP"}`, `"UP"`, `42`.
    public var description: String {
        (try? serialized()).map { String(decoding: $0, as: UTF8.self) } ?? prettyPrinted()
    }
}
