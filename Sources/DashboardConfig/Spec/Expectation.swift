import Foundation
import ResourceEngine

/// One condition a pane's responses must meet: `status == 200`, `latency < 300ms`,
/// `body.status == UP`, `body.items.count > 0`, `header.content-type == application/json`,
/// `tls.expires > 14d`.
///
/// Operands: `status`, `latency`, `body` or `body.PATH` (a JSON path; a final `.count` counts an
/// array or object unless it has a member called `count`), `header.NAME`. Operators: `==`, `!=`,
/// `<`, `<=`, `>`, `>=`, `contains`. Values: numbers, durations (`300ms`, `2s`), `true`, `false`,
/// `null`, quoted strings, or bare words (`UP`, `application/json`).
public struct Expectation: Sendable, Equatable, CustomStringConvertible {
    public enum Operand: Sendable, Equatable {
        case status
        case latency
        /// Time left until the https server's certificate expires (`tls.expires > 14d`).
        case tlsExpires
        case body(JSONPath?)
        case header(String)
    }

    public enum Operator: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", matches = "=~", notMatches = "!~", lessOrEqual = "<=", greaterOrEqual = ">=", less = "<",
            greater = ">", contains
    }

    public enum Value: Sendable, Equatable {
        case number(Double)
        case text(String)
        case bool(Bool)
        case null
    }

    /// A parse error; `offset` counts characters from the start of the expectation text.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public let offset: Int
        public var description: String { message }
    }

    public let text: String
    public let operand: Operand
    public let op: Operator
    public let value: Value
    /// The pattern of `=~` and `!~`, compiled (linear time, as the pipeline's `regex:`).
    public let pattern: Pattern?

    /// A regular expression an expectation matches text against.
    public struct Pattern: Sendable, Equatable {
        public let regex: LinearRegex
        public static func == (a: Pattern, b: Pattern) -> Bool { a.regex.pattern == b.regex.pattern }
    }

    public var description: String { text }

    // MARK: Parsing

    public init(_ text: String) throws(SyntaxError) {
        self.text = text
        let chars = Array(text)
        var i = 0
        func skipSpaces() { while i < chars.count, chars[i].isWhitespace { i += 1 } }
        skipSpaces()
        let operandStart = i
        while i < chars.count, !chars[i].isWhitespace, !"=!<>".contains(chars[i]) { i += 1 }
        let operandText = String(chars[operandStart..<i])
        guard !operandText.isEmpty else {
            throw SyntaxError(message: "expected status, latency, body… or header.NAME at the start", offset: operandStart)
        }
        operand = try Expectation.parseOperand(operandText, offset: operandStart)
        skipSpaces()
        let operatorStart = i
        var parsedOperator: Operator?
        let rest = String(chars[i...])
        for candidate in Operator.allCases where rest.hasPrefix(candidate.rawValue) {
            if candidate == .contains, i + 8 < chars.count, !chars[i + 8].isWhitespace { continue }
            parsedOperator = candidate
            i += candidate.rawValue.count
            break
        }
        // `matches` is `=~` in words, as Hurl writes it.
        if parsedOperator == nil, rest.hasPrefix("matches"), i + 7 >= chars.count || chars[i + 7].isWhitespace {
            parsedOperator = .matches
            i += 7
        }
        guard let parsedOperator else {
            let found = i < chars.count ? "\"\(chars[i])\"" : "the end"
            throw SyntaxError(message: "expected an operator (==, !=, <, <=, >, >=, contains, =~, !~) but found \(found)", offset: operatorStart)
        }
        op = parsedOperator
        skipSpaces()
        let valueStart = i
        let valueText = String(chars[i...]).trimmingCharacters(in: .whitespaces)
        guard !valueText.isEmpty else { throw SyntaxError(message: "expected a value after \(op.rawValue)", offset: valueStart) }
        if op == .matches || op == .notMatches {
            // A pattern is text, however it reads: `=~ ^2\d\d$`, `=~ "up|ok"`.
            let written = Expectation.unquoted(valueText)
            do {
                pattern = Pattern(regex: try LinearRegex(written))
            } catch {
                throw SyntaxError(message: "\(op.rawValue): \(error.message) in \"\(written)\"", offset: valueStart)
            }
            value = .text(written)
            return
        }
        pattern = nil
        value = try Expectation.parseValue(valueText, offset: valueStart)
        switch (operand, op, value) {
        case (.status, _, .number): break
        case (.latency, _, .number), (.tlsExpires, _, .number):
            // A duration needs its unit: a bare 1000 would silently be 1000 seconds.
            if !DurationText.hasUnit(valueText) {
                let name = operand == .latency ? "latency" : "tls.expires"
                let example = operand == .latency ? "\(name) < \(valueText)ms or \(name) < \(valueText)s" : "\(name) > \(valueText)d"
                throw SyntaxError(
                    message: "\(name) is a duration: write its unit (ms, s, m, h, d), e.g. \(example)", offset: valueStart)
            }
        case (.tlsExpires, _, _): throw SyntaxError(message: "tls.expires is compared with a duration, e.g. tls.expires > 14d", offset: valueStart)
        case (.status, _, _): throw SyntaxError(message: "status is compared with a number, e.g. status == 200", offset: valueStart)
        case (.latency, _, _): throw SyntaxError(message: "latency is compared with a duration, e.g. latency < 300ms", offset: valueStart)
        default: break
        }
        if op != .contains, op != .equal, op != .notEqual, case .text = value {
            throw SyntaxError(message: "\(op.rawValue) needs a number or duration, not text", offset: valueStart)
        }
    }

    /// A quoted value without its quotes; anything else as written.
    static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let quote = text.first, quote == "\"" || quote == "'", text.last == quote else { return text }
        return String(text.dropFirst().dropLast())
    }

    static func parseOperand(_ text: String, offset: Int) throws(SyntaxError) -> Operand {
        switch text {
        case "status": return .status
        case "latency": return .latency
        case "tls.expires": return .tlsExpires
        case "body": return .body(nil)
        default: break
        }
        if text.hasPrefix("header.") {
            let name = String(text.dropFirst(7))
            guard !name.isEmpty else { throw SyntaxError(message: "header. needs a header name", offset: offset + 7) }
            return .header(name.lowercased())
        }
        if text.hasPrefix("body.") || text.hasPrefix("body[") {
            let pathText = String(text.dropFirst(text.hasPrefix("body.") ? 5 : 4))
            do {
                return .body(try JSONPath(pathText))
            } catch {
                throw SyntaxError(message: error.message, offset: offset + (text.count - pathText.count) + error.position - 1)
            }
        }
        let known = ["status", "latency", "body", "header", "tls.expires"]
        let hint = known.first { Suggestions.editDistance(text.lowercased(), $0) <= 2 }.map { " (did you mean \"\($0)\"?)" } ?? ""
        throw SyntaxError(message: "unknown operand \"\(text)\"; use status, latency, body.PATH, header.NAME or tls.expires\(hint)", offset: offset)
    }

    static func parseValue(_ text: String, offset: Int) throws(SyntaxError) -> Value {
        if let quote = text.first, quote == "\"" || quote == "'" {
            guard text.count >= 2, text.last == quote else { throw SyntaxError(message: "unterminated quoted value", offset: offset) }
            return .text(String(text.dropFirst().dropLast()))
        }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if let number = Double(text), number.isFinite { return .number(number) }
        if text.first?.isNumber == true, let seconds = DurationText.parse(text) { return .number(seconds) }
        return .text(text)
    }

    // MARK: Evaluating

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

        public init(
            statusCode: Int?, latency: TimeInterval?, body: JSON?, text: String? = nil, headers: [String: String],
            certificateExpiresIn: TimeInterval? = nil
        ) {
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
            statusCode: Int?, latency: TimeInterval?, content: (any Sendable)?, headers: [String: String], certificateExpiresIn: TimeInterval? = nil
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
            self.init(statusCode: statusCode, latency: latency, body: json, text: text, headers: headers, certificateExpiresIn: certificateExpiresIn)
        }
    }

    /// nil when the expectation holds, else a one-line reason: `expected latency < 300ms, got 412 ms`.
    public func failure(in observation: Observation) -> String? {
        let actual: Value
        let shown: String
        switch operand {
        case .status:
            guard let status = observation.statusCode else { return "expected \(text), got no response" }
            actual = .number(Double(status))
            shown = String(status)
        case .latency:
            guard let latency = observation.latency else { return "expected \(text), got no response" }
            actual = .number(latency)
            shown = latency < 1 ? "\(Int((latency * 1000).rounded())) ms" : String(format: "%.1f s", latency)
        case .tlsExpires:
            guard let left = observation.certificateExpiresIn else {
                return "expected \(text), but no certificate was seen (plain HTTP, or no https answer yet)"
            }
            actual = .number(left)
            shown = left < 0 ? "expired \(Expectation.span(-left)) ago" : "in \(Expectation.span(left))"
        case .header(let name):
            guard let value = observation.headers[name] else { return "expected \(text), but there is no \(name) header" }
            actual = .text(value)
            // Compared as sent, shown masked when it is a credential (a session cookie).
            shown = "\"\(HeaderSpec.shownResponseValue(name: name, value: value))\""
        case .body(nil) where observation.text != nil:
            // The text the pane shows, without the white space around it.
            let content = (observation.text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            actual = .text(content)
            shown = Expectation.quoted(content)
        case .body(let path):
            guard let body = observation.body else {
                return observation.text == nil
                    ? "expected \(text), but the body is neither text nor JSON"
                    : "expected \(text), but the body is text, not JSON (body alone compares the text)"
            }
            switch Expectation.lookup(path, in: body) {
            case .success(let json):
                actual = Expectation.value(of: json)
                // Strings quoted, so "true" never reads like true, nor "200" like 200.
                shown = (try? json.serialized()).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            case .failure(let failure):
                // The lookup names the path without "body."; say it as the user wrote it.
                let detail = failure.message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? failure.message
                return "expected \(text), but body.\(path?.text ?? ""): \(detail)"
            }
        }
        let textual = if case .body(nil) = operand, observation.text != nil { true } else { false }
        return Expectation.holds(actual, op, value, pattern: pattern, textual: textual) ? nil : "expected \(text), got \(shown)"
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
    }

    static func value(of json: JSON) -> Value {
        switch json {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .number(Double(i))
        case .double(let d): .number(d)
        case .bigInteger(let digits): .number(Double(digits) ?? 0)
        case .string(let s): .text(s)
        case .array, .object: .text((try? json.serialized()).map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
    }

    /// True when `actual` meets `op expected`. With `textual`, `actual` is a text body, which
    /// `true`, `false` and `null` are compared with as they are written (a body `true`); JSON
    /// values keep their types (etcd's `"true"` is a string, not `true`).
    static func holds(_ actual: Value, _ op: Operator, _ expected: Value, pattern: Pattern? = nil, textual: Bool = false) -> Bool {
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
        case .number(let n): JSON.format(n)
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
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

