import FoundationEssentials
import TextBasics

/// The built-in content transformers that pipelines (and the config file) name.
///
/// Each factory validates its argument up front and throws a `TransformerError` that says what is
/// wrong (an invalid regex, a bad path), so a config file fails at load time, not per response.
/// Text-shaped steps accept `String`, a JSON string or UTF-8 `Data`; JSON-shaped steps need `JSON`.
/// Results are `JSON` so steps compose: `lines` then `count`, `select` then `sort` then `limit`.
public enum Transformers {
    /// Why a built-in transformer could not be built or failed on a response.
    public struct TransformerError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, said for the user.
        public let message: String
        public var description: String { message }
    }

    /// `select: PATH` — the value at a JSON path (`items[0].name`, `items[*].id`).
    public static func select(_ path: String, transformErrors: Bool = false) throws -> ResponseContentTransformer<JSON, JSON> {
        let parsed: JSONPath
        do { parsed = try JSONPath(path) } catch { throw TransformerError(message: "select: \(error)") }
        return ResponseContentTransformer(name: "select \(path)", transformErrors: transformErrors, dependsOnContentAlone: true) { json, _ in
            do { return try parsed.evaluate(json) } catch { throw TransformerError(message: "select \(error)") }
        }
    }

    /// `schema` — the content unchanged when it meets `schema`, else a failure that lists the
    /// places it does not (the first five, and how many more).
    public static func schema(_ schema: JSONSchema, named name: String, transformErrors: Bool = false) -> ResponseContentTransformer<JSON, JSON> {
        ResponseContentTransformer(name: "schema \(name)", transformErrors: transformErrors, dependsOnContentAlone: true) { json, _ in
            let violations = schema.violations(of: json)
            guard !violations.isEmpty else { return json }
            let more = violations.count > 5 ? " (and \(violations.count - 5) more)" : ""
            throw TransformerError(message: "schema \(name): " + violations.prefix(5).map(\.description).joined(separator: "; ") + more)
        }
    }

    /// `lines` — text split into lines (blank trailing line dropped), as a JSON array of strings.
    public static func lines(transformErrors: Bool = false) -> ResponseContentTransformer<any Sendable, JSON> {
        ResponseContentTransformer(name: "lines", transformErrors: transformErrors, dependsOnContentAlone: true) { content, _ in
            let text = try textContent(content, for: "lines")
            // "\r\n" is a single Character in Swift, so both separators are named.
            var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
            if lines.last == "" { lines.removeLast() }
            return .array(lines.map(JSON.string))
        }
    }

    /// `regex: PATTERN` — the first match: the whole match if the pattern has no group, the group
    /// if it has one, an array of the groups if it has several. Runs in time linear in the text
    /// (`LinearRegex`): no pattern, however it nests, can hold a resource's pipeline for long.
    public static func regex(_ pattern: String, transformErrors: Bool = false) throws -> ResponseContentTransformer<any Sendable, JSON> {
        let regex: LinearRegex
        do {
            regex = try LinearRegex(pattern)
        } catch {
            throw TransformerError(message: "regex: \(error.message) in \"\(pattern)\"")
        }
        return ResponseContentTransformer(name: "regex \(pattern)", transformErrors: transformErrors, dependsOnContentAlone: true) { content, _ in
            let text = try textContent(content, for: "regex")
            let found: [Range<String.Index>?]?
            do {
                found = try regex.firstMatch(in: text)
            } catch {
                throw TransformerError(message: "regex \"\(pattern)\" gave up: the body is too large for this pattern")
            }
            guard let groups = found else {
                throw TransformerError(message: "regex \"\(pattern)\" did not match")
            }
            func group(_ i: Int) -> JSON {
                guard let range = groups[i] else { return .null }
                return .string(String(text.unicodeScalars[range]))
            }
            switch regex.groupCount {
            case 0: return group(0)
            case 1: return group(1)
            default: return .array((1...regex.groupCount).map(group))
            }
        }
    }

    /// `count` — the number of items in an array, or members in an object.
    public static func count(transformErrors: Bool = false) -> ResponseContentTransformer<JSON, JSON> {
        ResponseContentTransformer(name: "count", transformErrors: transformErrors, dependsOnContentAlone: true) { json, _ in
            switch json {
            case .array(let items): return .int(items.count)
            case .object(let object): return .int(object.count)
            default: throw TransformerError(message: "count: expected an array or object but found \(json.kindName)")
            }
        }
    }

    /// `limit: N` — the first N items of an array (or members of an object).
    public static func limit(_ n: Int, transformErrors: Bool = false) throws -> ResponseContentTransformer<JSON, JSON> {
        guard n >= 0 else { throw TransformerError(message: "limit: expected a number ≥ 0 but got \(n)") }
        return ResponseContentTransformer(name: "limit \(n)", transformErrors: transformErrors, dependsOnContentAlone: true) { json, _ in
            switch json {
            case .array(let items): return .array(Array(items.prefix(n)))
            case .object(let object): return .object(JSONObject(object.members.prefix(n).map { ($0.key, $0.value) }))
            default: throw TransformerError(message: "limit: expected an array or object but found \(json.kindName)")
            }
        }
    }

    /// `sort: PATH` (or `-PATH` for descending) — an array ordered by the value at PATH in each item.
    ///
    /// Numbers sort numerically, strings by Unicode order ignoring case; items missing the value go last.
    public static func sort(by path: String, transformErrors: Bool = false) throws -> ResponseContentTransformer<JSON, JSON> {
        let descending = path.hasPrefix("-")
        let pathText = descending ? String(path.dropFirst()) : path
        let parsed: JSONPath
        do { parsed = try JSONPath(pathText) } catch { throw TransformerError(message: "sort: \(error)") }
        return ResponseContentTransformer(name: "sort \(path)", transformErrors: transformErrors, dependsOnContentAlone: true) { json, _ in
            guard case .array(let items) = json else {
                throw TransformerError(message: "sort: expected an array but found \(json.kindName)")
            }
            let keyed = items.map { (key: parsed.lookup($0), item: $0) }
            let sorted = keyed.enumerated().sorted { a, b in
                let order = JSONOrdering.compare(a.element.key, b.element.key)
                if order == .same { return a.offset < b.offset }
                if a.element.key == nil || a.element.key?.isNull == true { return false }
                if b.element.key == nil || b.element.key?.isNull == true { return true }
                return descending ? order == .after : order == .before
            }
            return .array(sorted.map(\.element.item))
        }
    }

    /// `ndjson` — newline-delimited JSON into a list of its values, whatever the content type
    /// says (httpbin's `/stream` is served as `application/json`): bytes or text, each non-blank
    /// line one value.
    public static func ndjson(transformErrors: Bool = false) -> ResponseContentTransformer<any Sendable, JSON> {
        ResponseContentTransformer(name: "ndjson", transformErrors: transformErrors, dependsOnContentAlone: true) { content, _ in
            if let data = content as? Data { return try Parsers.parseNDJSON(data) }
            return try Parsers.parseNDJSON(Data(try textContent(content, for: "ndjson").utf8))
        }
    }

    /// `base64` — decodes a base64 body (whitespace ignored) into bytes.
    public static func base64(transformErrors: Bool = false) -> ResponseContentTransformer<any Sendable, Data> {
        ResponseContentTransformer(name: "base64", transformErrors: transformErrors, dependsOnContentAlone: true) { content, _ in
            let text = try textContent(content, for: "base64")
            let compact = text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else {
                throw TransformerError(message: "base64: the body is not valid base64")
            }
            return data
        }
    }

    /// `json` — parses the body as JSON regardless of content type: bytes, or text an earlier
    /// step (or the standard text parser, for JSON served as `text/plain`) made of them. Content
    /// that is already JSON passes through.
    public static func json(transformErrors: Bool = false) -> ResponseContentTransformer<any Sendable, JSON> {
        ResponseContentTransformer(name: "json", transformErrors: transformErrors, dependsOnContentAlone: true) { content, _ in
            switch content {
            case let json as JSON: return json
            case let data as Data: return try Parsers.parseJSON(data)
            case let text as String: return try Parsers.parseJSON(Data(text.utf8))
            default: throw TransformerError(message: "json: expected bytes or text but found \(ContentTypeName.of(content))")
            }
        }
    }

    /// `text` — decodes bytes as text regardless of content type; text (from the standard text
    /// parser, say) passes through, unlike the standard parser's own wrong-input-type failure.
    public static func text(transformErrors: Bool = false) -> ResponseContentTransformer<Data, String> {
        Parsers.text(transformErrors: transformErrors, onInputTypeMismatch: .skipIfOutputTypeMatches)
    }

    /// Text from `String`, a JSON string, or UTF-8 bytes; otherwise a type error naming the step.
    static func textContent(_ content: any Sendable, for step: String) throws -> String {
        switch content {
        case let text as String: return text
        case let json as JSON:
            if case .string(let text) = json { return text }
            throw TransformerError(message: "\(step): expected text but found JSON \(json.kindName)")
        case let data as Data:
            guard let text = String(validating: data, as: UTF8.self) else {
                throw TransformerError(message: "\(step): the body is not valid UTF-8 text")
            }
            return text
        default:
            throw TransformerError(message: "\(step): expected text but found \(ContentTypeName.of(content))")
        }
    }
}

/// A total order over optional JSON values for sorting.
enum JSONOrdering {
    enum Order { case before, same, after }

    static func compare(_ a: JSON?, _ b: JSON?) -> Order {
        switch (a, b) {
        case (nil, nil): return .same
        case (nil, _): return .after
        case (_, nil): return .before
        case let (a?, b?):
            if let x = a.doubleValue, let y = b.doubleValue { return x < y ? .before : x > y ? .after : .same }
            if let x = a.stringValue, let y = b.stringValue {
                let result = x.naturalOrder(y)
                return result == .ascending ? .before : result == .descending ? .after : .same
            }
            if let x = a.boolValue, let y = b.boolValue { return x == y ? .same : (!x ? .before : .after) }
            let ra = rank(a), rb = rank(b)
            return ra < rb ? .before : ra > rb ? .after : .same
        }
    }

    private static func rank(_ json: JSON) -> Int {
        switch json {
        case .int, .double, .bigInteger: 0
        case .string: 1
        case .bool: 2
        case .array: 3
        case .object: 4
        case .null: 5
        }
    }
}
