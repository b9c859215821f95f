import FoundationEssentials
import ResourceEngine
import TextBasics

extension Expectation {
    /// What a response looked like, for evaluation.
    public struct Observation: Sendable {
        public let statusCode: Int?
        public let latency: TimeInterval?
        /// The content as JSON, when it is JSON or text that parses as JSON.
        public let body: JSON?
        /// The content as text, when it is text (or bytes that are UTF-8): `body` alone compares
        /// it, as the pane shows it.
        public let text: String?
        public let headers: [String: String]
        /// Seconds from the response until the server's certificate expires (negative once it
        /// has), or nil without one.
        public let certificateExpiresIn: TimeInterval?
        /// When the answer is judged, in seconds since 1970 (`now - 5m`).
        public let now: Double

        public init(
            statusCode: Int?, latency: TimeInterval?, body: JSON?, text: String? = nil, headers: [String: String],
            certificateExpiresIn: TimeInterval? = nil, now: Double = Date().timeIntervalSince1970
        ) {
            self.now = now
            self.statusCode = statusCode
            self.latency = latency
            self.body = body
            self.text = text
            self.headers = headers
            self.certificateExpiresIn = certificateExpiresIn
        }

        /// What a response's content gives expectations: JSON as it is; text (or UTF-8 bytes) as
        /// text, and as JSON too when it parses as JSON.
        public init(
            statusCode: Int?, latency: TimeInterval?, content: (any Sendable)?, headers: [String: String], certificateExpiresIn: TimeInterval? = nil,
            now: Double = Date().timeIntervalSince1970
        ) {
            var json: JSON?
            var text: String?
            switch content {
            case let value as JSON: json = value
            case let value as String: text = value
            case let data as Data: text = String(validating: data, as: UTF8.self)
            default: break
            }
            if json == nil, let text { json = try? JSONParser.parse(text) }
            self.init(
                statusCode: statusCode, latency: latency, body: json, text: text, headers: headers, certificateExpiresIn: certificateExpiresIn, now: now)
        }
    }

    /// nil when the expectation holds, else a one-line reason that names the test that failed
    /// and what was there: `expected latency < 300ms, got 412 ms`.
    public func failure(in observation: Observation) -> String? {
        Self.failure(of: condition, in: observation)
    }

    static func failure(of condition: Condition, in observation: Observation) -> String? {
        switch condition {
        case .all(let parts):
            return parts.lazy.compactMap { failure(of: $0, in: observation) }.first
        case .any(let parts):
            let failures = parts.map { failure(of: $0, in: observation) }
            guard failures.allSatisfy({ $0 != nil }) else { return nil }
            return "none held: " + failures.compactMap { $0 }.joined(separator: "; ")
        case .not(let inner, let text):
            guard failure(of: inner, in: observation) == nil else { return nil }
            return "expected \(text), but \(Self.text(of: inner)) holds"
        case .compare(let term, let op, let expected, let pattern, let text):
            switch read(term, in: observation) {
            case .failure(let reason): return "expected \(text), \(reason.message)"
            case .success(let found):
                return holds(found.value, op, expected, pattern: pattern, textual: found.textual, now: observation.now)
                    ? nil : "expected \(text), got \(found.shown)"
            }
        case .exists(let term, let present, let text):
            switch read(term, in: observation) {
            case .failure(let reason): return present ? "expected \(text), \(reason.message)" : nil
            case .success(let found): return present ? nil : "expected \(text), got \(found.shown)"
            }
        case .kind(let term, let kind, let text):
            switch read(term, in: observation) {
            case .failure(let reason): return "expected \(text), \(reason.message)"
            case .success(let found): return found.kind == kind ? nil : "expected \(text), got \(found.shown)"
            }
        case .oneOf(let term, let values, let text):
            switch read(term, in: observation) {
            case .failure(let reason): return "expected \(text), \(reason.message)"
            case .success(let found):
                let held = values.contains { holds(found.value, .equal, $0, textual: found.textual, now: observation.now) }
                return held ? nil : "expected \(text), got \(found.shown)"
            }
        }
    }

    /// A condition as written, for messages.
    static func text(of condition: Condition) -> String {
        switch condition {
        case .compare(_, _, _, _, let text), .exists(_, _, let text), .kind(_, _, let text), .oneOf(_, _, let text), .not(_, let text): text
        case .all(let parts): parts.map(text(of:)).joined(separator: " && ")
        case .any(let parts): "(" + parts.map(text(of:)).joined(separator: " || ") + ")"
        }
    }

    /// What a test found: the value compared, how a message shows it, its JSON type, and whether
    /// it is a text body (compared as written).
    struct Found {
        let value: Value
        let shown: String
        let kind: Kind
        var textual = false
    }

    /// Why a test found nothing to compare: the words after "expected X, ".
    struct Absent: Error {
        let message: String
    }

    static func read(_ term: Term, in observation: Observation) -> Result<Found, Absent> {
        switch term {
        case .operand(let operand): return read(operand, in: observation)
        case .length(let operand):
            let length: Int
            switch operand {
            case .body(nil) where observation.body == nil && observation.text != nil:
                length = (observation.text ?? "").trimmingWhitespaceAndNewlines().count
            case .body(let path):
                guard let body = observation.body else { return .failure(Absent(message: "but the body is neither text nor JSON")) }
                switch lookup(path, in: body) {
                case .success(.array(let items)): length = items.count
                case .success(.object(let object)): length = object.count
                case .success(.string(let text)): length = text.count
                case .success(let other):
                    return .failure(Absent(message: "but body\(path.map { "." + $0.text } ?? "") is \(kind(of: other).noun), which has no length"))
                case .failure(let failure): return .failure(Absent(message: "but body.\(path?.text ?? ""): \(failure.detail)"))
                }
            default:
                switch read(operand, in: observation) {
                case .failure(let absent): return .failure(absent)
                case .success(let found): length = written(found.value).count
                }
            }
            return .success(Found(value: .number(Double(length)), shown: String(length), kind: .isNumber))
        }
    }

    static func read(_ operand: Operand, in observation: Observation) -> Result<Found, Absent> {
        switch operand {
        case .status:
            guard let status = observation.statusCode else { return .failure(Absent(message: "got no response")) }
            return .success(Found(value: .number(Double(status)), shown: String(status), kind: .isNumber))
        case .connected:
            let connected = observation.statusCode != nil
            return .success(Found(value: .bool(connected), shown: connected ? "true" : "false", kind: .isBool))
        case .latency:
            guard let latency = observation.latency else { return .failure(Absent(message: "got no response")) }
            let shown = latency < 1 ? "\(Int((latency * 1000).rounded())) ms" : String(printf: "%.1f s", latency)
            return .success(Found(value: .number(latency), shown: shown, kind: .isNumber))
        case .tlsExpires:
            guard let left = observation.certificateExpiresIn else {
                return .failure(Absent(message: "but no certificate was seen (plain HTTP, or no https answer yet)"))
            }
            return .success(Found(value: .number(left), shown: left < 0 ? "expired \(span(-left)) ago" : "in \(span(left))", kind: .isNumber))
        case .header(let name):
            guard let value = observation.headers[name] else { return .failure(Absent(message: "but there is no \(name) header")) }
            // Compared as sent, shown masked when it is a credential (a session cookie).
            return .success(Found(value: .text(value), shown: "\"\(HeaderSpec.shownResponseValue(name: name, value: value))\"", kind: .isString))
        case .body(nil) where observation.text != nil:
            // The text the pane shows, without the white space around it.
            let content = (observation.text ?? "").trimmingWhitespaceAndNewlines()
            return .success(Found(value: .text(content), shown: quoted(content), kind: .isString, textual: true))
        case .body(let path):
            guard let body = observation.body else {
                return .failure(Absent(message: observation.text == nil
                    ? "but the body is neither text nor JSON"
                    : "but the body is text, not JSON (body alone compares the text)"))
            }
            switch lookup(path, in: body) {
            case .success(let json):
                // Strings quoted, so "true" never reads like true, nor "200" like 200.
                let shown = json.description
                return .success(Found(value: value(of: json), shown: shown, kind: kind(of: json)))
            case .failure(let failure):
                return .failure(Absent(message: "but body.\(path?.text ?? ""): \(failure.detail)"))
            }
        }
    }

    static func kind(of json: JSON) -> Kind {
        switch json {
        case .null: .isNull
        case .bool: .isBool
        case .int, .double, .bigInteger: .isNumber
        case .string: .isString
        case .array: .isList
        case .object: .isObject
        }
    }

    /// `"text"`, cut to a line's worth (the message is one line; the view shows the rest).
    static func quoted(_ text: String) -> String {
        let line = text.prefix { $0 != "\n" && $0 != "\r" }
        let cut = line.count > 120 || line.count < text.count
        return "\"" + String(line.prefix(120)) + (cut ? "…" : "") + "\""
    }

    /// "9d 23h", "5h 10m", "42s": a span of time in its two largest units.
    static func span(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded(.down))
        if whole >= 86_400 { return "\(whole / 86_400)d \(whole % 86_400 / 3_600)h" }
        if whole >= 3_600 { return "\(whole / 3_600)h \(whole % 3_600 / 60)m" }
        if whole >= 60 { return "\(whole / 60)m \(whole % 60)s" }
        return "\(whole)s"
    }

    static func lookup(_ path: JSONPath?, in body: JSON) -> Result<JSON, LookupFailure> {
        guard let path else { return .success(body) }
        do {
            return .success(try path.evaluate(body))
        } catch {
            // A final ".count" counts, unless the data has a member called "count".
            if case .key("count")? = path.segments.last {
                let parent = JSONPath(segments: Array(path.segments.dropLast()))
                if let container = try? parent.evaluate(body) {
                    if let array = container.arrayValue { return .success(.int(array.count)) }
                    if let object = container.objectValue { return .success(.int(object.count)) }
                }
            }
            return .failure(LookupFailure(message: error.message))
        }
    }

    struct LookupFailure: Error {
        let message: String

        /// The lookup names the path without "body."; the message says it as the user wrote it.
        var detail: String {
            message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingWhitespace() } ?? message
        }
    }

    static func value(of json: JSON) -> Value {
        switch json {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .number(Double(i))
        case .double(let d): .number(d)
        case .bigInteger(let digits): .number(Double(digits) ?? 0)
        case .string(let s): .text(s)
        case .array, .object: .text(json.description)
        }
    }

    /// True when `actual` meets `op expected`. With `textual`, `actual` is a text body, which
    /// `true`, `false` and `null` are compared with as they are written (a body `true`); JSON
    /// values keep their types (etcd's `"true"` is a string, not `true`).
    static func holds(_ actual: Value, _ op: Operator, _ expected: Value, pattern: Pattern? = nil, textual: Bool = false, now: Double = 0) -> Bool {
        // A date, or now and a span: the answer's value read as a moment.
        switch expected {
        case .date(let when): return holds(Self.moment(of: actual).map(Value.number) ?? actual, op, .number(when), now: now)
        case .now(let offset): return holds(Self.moment(of: actual).map(Value.number) ?? actual, op, .number(now + offset), now: now)
        default: break
        }
        switch op {
        case .equal: return equal(actual, expected, textual: textual)
        case .notEqual: return !equal(actual, expected, textual: textual)
        case .matches, .notMatches:
            guard let pattern else { return false }
            // Numbers and booleans match as they are written; a pattern that gives up does not match.
            let found = (try? pattern.regex.firstMatch(in: written(actual))) != nil
            return op == .matches ? found : !found
        case .contains:
            guard case .text(let haystack) = actual else { return false }
            return haystack.contains(written(expected))
        case .startsWith:
            guard case .text(let haystack) = actual else { return false }
            return haystack.hasPrefix(written(expected))
        case .endsWith:
            guard case .text(let haystack) = actual else { return false }
            return haystack.hasSuffix(written(expected))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let a = number(actual), let b = number(expected) else { return false }
            switch op {
            case .less: return a < b
            case .lessOrEqual: return a <= b
            case .greater: return a > b
            default: return a >= b
            }
        }
    }

    static func equal(_ a: Value, _ b: Value, textual: Bool = false) -> Bool {
        if let x = number(a), let y = number(b) { return x == y }
        if textual, case .text(let text) = a { return text == written(b) }
        return a == b
    }

    /// A value as text: numbers as JSON writes them, `true`, `false`, `null`.
    static func written(_ value: Value) -> String {
        switch value {
        case .text(let s): s
        case .number(let n), .date(let n): JSON.format(n)
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .now(let offset): offset == 0 ? "now" : "now \(offset < 0 ? "-" : "+") \(JSON.format(abs(offset)))s"
        }
    }

    /// A value as a moment: an RFC 3339 date, or a number of seconds since 1970.
    static func moment(of value: Value) -> Double? {
        switch value {
        case .text(let text): DateText.seconds(text)
        case .number(let seconds), .date(let seconds): seconds
        default: nil
        }
    }

    /// A number from a number, or from text that reads as one (a JSON "12.50").
    static func number(_ value: Value) -> Double? {
        switch value {
        case .number(let n): n
        case .text(let s): Double(s)
        default: nil
        }
    }
}

