/// A path into a JSON value: `items[0].name`, `data.users[*].email`, `["odd.key"]`, `list[-1]`.
///
/// `[*]` maps the rest of the path over every element of an array (a missing member there gives
/// null, so one incomplete item does not hide the others). A leading `$` is allowed. The empty
/// path is the value itself.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Segment: Sendable, Hashable {
        /// An object's member (`.name`, `["name"]`).
        case key(String)
        /// A list's element (`[2]`; negative counts from the end).
        case index(Int)
        /// Every element of a list (`[*]`).
        case all
    }

    /// A path that could not be parsed; `position` is 1-based within the path text.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The path as written.
        public let path: String
        /// What is wrong with it.
        public let message: String
        /// Where, 1-based, in `path`.
        public let position: Int
        public var description: String { "invalid path \"\(path)\": \(message) at position \(position)" }
    }

    /// A path that does not fit the value it was applied to.
    public struct LookupError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Which step found nothing, and what was there instead.
        public let message: String
        public var description: String { message }
    }

    /// The steps, in order.
    public let segments: [Segment]
    /// The path as written.
    public let text: String

    public var description: String { text }

    /// Parses path text.
    public init(_ text: String) throws(SyntaxError) {
        self.text = text
        var segments: [Segment] = []
        let chars = Array(text)
        var i = 0
        func fail(_ message: String, _ at: Int) -> SyntaxError {
            SyntaxError(path: text, message: message, position: at + 1)
        }
        if i < chars.count, chars[i] == "$" { i += 1 }
        var expectKey = true
        while i < chars.count {
            let c = chars[i]
            if c == "." {
                guard i + 1 < chars.count, chars[i + 1] != ".", chars[i + 1] != "[" else {
                    throw fail("expected a name after '.'", i)
                }
                i += 1
                expectKey = true
                continue
            }
            if c == "[" {
                guard let close = chars[(i + 1)...].firstIndex(of: "]") else { throw fail("missing ']'", i) }
                let inner = String(chars[(i + 1)..<close]).trimmingWhitespace()
                if inner == "*" {
                    segments.append(.all)
                } else if let index = Int(inner) {
                    segments.append(.index(index))
                } else if inner.count >= 2, let q = inner.first, q == "\"" || q == "'", inner.last == q {
                    segments.append(.key(String(inner.dropFirst().dropLast())))
                } else {
                    throw fail("expected a number, * or a quoted name inside [ ]", i + 1)
                }
                i = close + 1
                expectKey = false
                continue
            }
            guard expectKey || segments.isEmpty else { throw fail("expected '.' or '['", i) }
            var name = ""
            while i < chars.count, chars[i] != ".", chars[i] != "[" {
                if chars[i] == "]" { throw fail("unexpected ']'", i) }
                name.append(chars[i])
                i += 1
            }
            segments.append(.key(name))
            expectKey = false
        }
        self.segments = segments
    }

    /// A path made of segments directly (e.g. a prefix of another path).
    public init(segments: [Segment]) {
        self.segments = segments
        self.text = JSONPath.render(segments[...])
    }

    /// The value at this path, or a `LookupError` that names where and why it did not fit.
    public func evaluate(_ json: JSON) throws(LookupError) -> JSON {
        try evaluate(json, from: 0, lenient: false)
    }

    /// The value at this path, or nil when it does not fit.
    public func lookup(_ json: JSON) -> JSON? {
        try? evaluate(json, from: 0, lenient: false)
    }

    private func evaluate(_ json: JSON, from start: Int, lenient: Bool) throws(LookupError) -> JSON {
        var current = json
        var index = start
        while index < segments.count {
            let segment = segments[index]
            switch segment {
            case .key(let key):
                // `items.0.id` as Gatus and Hurl users write it: a number after a dot indexes a list.
                if case .array(let array) = current, let i = Int(key), i >= 0, key.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                    guard array.indices.contains(i) else {
                        if lenient { return .null }
                        throw LookupError(message: "\(text): index \(i) out of range at \(place(index)) (\(array.count) items)")
                    }
                    current = array[i]
                    index += 1
                    continue
                }
                guard case .object(let object) = current else {
                    if lenient { return .null }
                    throw LookupError(message: "\(text): expected an object at \(place(index)) but found \(current.kindName)")
                }
                guard let value = object[key] else {
                    if lenient { return .null }
                    throw LookupError(message: "\(text): no member \"\(key)\" at \(place(index))")
                }
                current = value
            case .index(let i):
                guard case .array(let array) = current else {
                    if lenient { return .null }
                    throw LookupError(message: "\(text): expected an array at \(place(index)) but found \(current.kindName)")
                }
                let resolved = i < 0 ? array.count + i : i
                guard array.indices.contains(resolved) else {
                    if lenient { return .null }
                    throw LookupError(message: "\(text): index \(i) out of range at \(place(index)) (\(array.count) items)")
                }
                current = array[resolved]
            case .all:
                guard case .array(let array) = current else {
                    if lenient { return .null }
                    throw LookupError(message: "\(text): expected an array at \(place(index)) but found \(current.kindName)")
                }
                var mapped: [JSON] = []
                mapped.reserveCapacity(array.count)
                for element in array {
                    mapped.append(try evaluate(element, from: index + 1, lenient: true))
                }
                return .array(mapped)
            }
            index += 1
        }
        return current
    }

    /// "the top level" or "items[0]": where in the path a lookup stopped.
    private func place(_ index: Int) -> String {
        index == 0 ? "the top level" : JSONPath.render(segments[..<index])
    }

    static func render(_ segments: ArraySlice<Segment>) -> String {
        var out = ""
        for segment in segments {
            switch segment {
            case .key(let key):
                if key.contains(where: { ".[]".contains($0) }) {
                    out += "[\"\(key)\"]"
                } else {
                    out += out.isEmpty ? key : ".\(key)"
                }
            case .index(let i): out += "[\(i)]"
            case .all: out += "[*]"
            }
        }
        return out
    }
}

import FoundationEssentials
import TextBasics
