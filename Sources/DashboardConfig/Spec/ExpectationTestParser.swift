import FoundationEssentials
import ResourceEngine
import TextBasics

/// One test of an expectation, `OPERAND TEST VALUE`, read from `chars[start..<end]`; errors at
/// offsets into the whole expectation.
struct TestParser {
    typealias SyntaxError = Expectation.SyntaxError
    typealias Operand = Expectation.Operand
    typealias Value = Expectation.Value
    let chars: [Character]
    let start: Int
    let end: Int
    var i: Int

    init(chars: [Character], start: Int, end: Int) {
        self.chars = chars
        self.start = start
        self.end = end
        i = start
    }

    private var text: String { String(chars[start..<end]).trimmingWhitespace() }

    private mutating func skipSpaces() { while i < end, chars[i].isWhitespace { i += 1 } }

    /// The word at `i` (letters only), not consumed.
    private func word() -> String {
        var j = i
        while j < end, chars[j].isLetter { j += 1 }
        return String(chars[i..<j])
    }

    mutating func parse() throws(SyntaxError) -> Expectation.Condition {
        skipSpaces()
        let operandStart = i
        while i < end, !chars[i].isWhitespace, !"=!<>".contains(chars[i]) { i += 1 }
        let operandText = String(chars[operandStart..<i])
        guard !operandText.isEmpty else {
            throw SyntaxError(message: "expected status, latency, body… or header.NAME at the start", offset: operandStart)
        }
        let (term, milliseconds) = try Self.parseTerm(operandText, offset: operandStart)
        skipSpaces()
        let operatorStart = i
        // Tests that take no value, or a list.
        switch word() {
        case "exists":
            i += 6
            try expectEnd("exists")
            return .exists(term, true, text: text)
        case "not":
            i += 3
            skipSpaces()
            guard word() == "exists" else { throw SyntaxError(message: "expected exists after not", offset: i) }
            i += 6
            try expectEnd("not exists")
            return .exists(term, false, text: text)
        case let name where Expectation.Kind(rawValue: name) != nil:
            i += name.count
            try expectEnd(name)
            return .kind(term, Expectation.Kind(rawValue: name)!, text: text)
        case "in":
            i += 2
            skipSpaces()
            let values = try list(for: term, milliseconds: milliseconds)
            return .oneOf(term, values, text: text)
        default: break
        }
        var parsedOperator: Expectation.Operator?
        let rest = String(chars[i..<end])
        for candidate in Expectation.Operator.allCases where rest.hasPrefix(candidate.rawValue) {
            let length = candidate.rawValue.count
            if candidate.rawValue.first!.isLetter, i + length < end, !chars[i + length].isWhitespace { continue }
            parsedOperator = candidate
            i += length
            break
        }
        // `matches` is `=~` in words, as Hurl writes it.
        if parsedOperator == nil, rest.hasPrefix("matches"), i + 7 >= end || chars[i + 7].isWhitespace {
            parsedOperator = .matches
            i += 7
        }
        guard let op = parsedOperator else {
            let found = i < end ? "\"\(chars[i])\"" : "the end"
            throw SyntaxError(
                message: "expected an operator (==, !=, <, <=, >, >=, contains, startsWith, endsWith, =~, !~, in, exists, isNumber…) but found \(found)",
                offset: operatorStart)
        }
        skipSpaces()
        let valueStart = i
        let valueText = String(chars[i..<end]).trimmingWhitespace()
        guard !valueText.isEmpty else { throw SyntaxError(message: "expected a value after \(op.rawValue)", offset: valueStart) }
        // Gatus's value functions: pat(*glob*), any(a, b).
        if op == .equal || op == .notEqual, valueText.hasPrefix("pat("), valueText.hasSuffix(")") {
            let glob = String(valueText.dropFirst(4).dropLast())
            let regex = "^" + glob.split(separator: "*", omittingEmptySubsequences: false).map { Self.escaped(String($0)) }.joined(separator: ".*") + "$"
            let pattern = try Self.pattern(regex, offset: valueStart, op: op)
            return .compare(term, op == .equal ? .matches : .notMatches, .text(glob), pattern, text: text)
        }
        if op == .equal || op == .notEqual, valueText.hasPrefix("any("), valueText.hasSuffix(")") {
            var inner = TestParser(chars: chars, start: valueStart + 3, end: valueStart + valueText.count)
            let values = try inner.list(for: term, milliseconds: milliseconds, open: "(", close: ")")
            let test = Expectation.Condition.oneOf(term, values, text: text)
            return op == .equal ? test : .not(test, text: text)
        }
        if op == .matches || op == .notMatches {
            // A pattern is text, however it reads: `=~ ^2\d\d$`, `=~ "up|ok"`.
            let written = Self.unquoted(valueText)
            return .compare(term, op, .text(written), try Self.pattern(written, offset: valueStart, op: op), text: text)
        }
        let value = try Self.check(
            try Self.parseValue(valueText, offset: valueStart, milliseconds: milliseconds), written: valueText, for: term, op, milliseconds: milliseconds,
            offset: valueStart)
        return .compare(term, op, value, nil, text: text)
    }

    private mutating func expectEnd(_ test: String) throws(SyntaxError) {
        skipSpaces()
        if i < end { throw SyntaxError(message: "nothing may follow \(test) but && or ||", offset: i) }
    }

    /// `[a, b, "c d"]` (or `(a, b)` for Gatus's any), each value checked as a comparison's would be.
    mutating func list(for term: Expectation.Term, milliseconds: Bool, open: Character = "[", close: Character = "]") throws(SyntaxError) -> [Value] {
        guard i < end, chars[i] == open else { throw SyntaxError(message: "in needs a list, e.g. in [200, 204]", offset: i) }
        i += 1
        var values: [Value] = []
        var itemStart = i
        var quote: Character?
        while i <= end {
            let c: Character? = i < end ? chars[i] : nil
            if let open = quote {
                if c == open { quote = nil }
                i += 1
                continue
            }
            if c == "\"" || c == "'" {
                quote = c
                i += 1
                continue
            }
            if c == "," || c == close {
                let item = String(chars[itemStart..<i]).trimmingWhitespace()
                if item.isEmpty {
                    if c == close, values.isEmpty { throw SyntaxError(message: "the list is empty", offset: i) }
                    throw SyntaxError(message: "a value is missing in the list", offset: itemStart)
                }
                let at = itemStart + chars[itemStart..<i].prefix { $0.isWhitespace }.count
                let value = try Self.parseValue(item, offset: at, milliseconds: milliseconds)
                values.append(try Self.check(value, written: item, for: term, .equal, milliseconds: milliseconds, offset: at))
                i += 1
                if c == close {
                    try expectEnd("the list")
                    return values
                }
                itemStart = i
                continue
            }
            if c == nil { break }
            i += 1
        }
        throw SyntaxError(message: "missing '\(close)' at the end of the list", offset: end)
    }

    // MARK: Pieces

    /// A quoted value without its quotes; anything else as written.
    static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let quote = text.first, quote == "\"" || quote == "'", text.last == quote else { return text }
        return String(text.dropFirst().dropLast())
    }

    static func escaped(_ literal: String) -> String {
        String(literal.flatMap { "\\^$.|?*+()[]{}".contains($0) ? ["\\", $0] : [$0] })
    }

    static func pattern(_ written: String, offset: Int, op: Expectation.Operator) throws(SyntaxError) -> Expectation.Pattern {
        do {
            return Expectation.Pattern(regex: try LinearRegex(written))
        } catch {
            throw SyntaxError(message: "\(op.rawValue): \(error.message) in \"\(written)\"", offset: offset)
        }
    }

    /// An operand, or `len(…)`/`count(…)` of one; true when a unitless number is milliseconds
    /// (Gatus's `[RESPONSE_TIME]`).
    static func parseTerm(_ text: String, offset: Int) throws(SyntaxError) -> (Expectation.Term, Bool) {
        for function in ["len(", "count("] where text.hasPrefix(function) {
            guard text.hasSuffix(")") else { throw SyntaxError(message: "missing ')' after \(function.dropLast())(…", offset: offset + text.count) }
            let inner = String(text.dropFirst(function.count).dropLast())
            let (operand, _) = try parseOperand(inner, offset: offset + function.count)
            switch operand {
            case .body, .header: return (.length(operand), false)
            default: throw SyntaxError(message: "\(function.dropLast()) counts a body's list, object or text, or a header's text", offset: offset + function.count)
            }
        }
        let (operand, milliseconds) = try parseOperand(text, offset: offset)
        return (.operand(operand), milliseconds)
    }

    static func parseOperand(_ text: String, offset: Int) throws(SyntaxError) -> (Operand, Bool) {
        switch text {
        case "status", "[STATUS]": return (.status, false)
        case "latency": return (.latency, false)
        case "[RESPONSE_TIME]": return (.latency, true)
        case "tls.expires", "[CERTIFICATE_EXPIRATION]": return (.tlsExpires, false)
        case "[CONNECTED]": return (.connected, false)
        case "body", "[BODY]": return (.body(nil), false)
        default: break
        }
        if text.hasPrefix("header.") {
            let name = String(text.dropFirst(7))
            guard !name.isEmpty else { throw SyntaxError(message: "header. needs a header name", offset: offset + 7) }
            return (.header(name.lowercased()), false)
        }
        for prefix in ["body.", "body[", "[BODY].", "[BODY]["] where text.hasPrefix(prefix) {
            let pathText = String(text.dropFirst(prefix.hasSuffix("[") ? prefix.count - 1 : prefix.count))
            do {
                return (.body(try JSONPath(pathText)), false)
            } catch {
                throw SyntaxError(message: error.message, offset: offset + (text.count - pathText.count) + error.position - 1)
            }
        }
        if text.hasPrefix("["), text.hasSuffix("]") {
            throw SyntaxError(
                message: "Hammock reads Gatus's [STATUS], [RESPONSE_TIME], [BODY], [CERTIFICATE_EXPIRATION] and [CONNECTED], not \(text)", offset: offset)
        }
        let known = ["status", "latency", "body", "header", "tls.expires"]
        let hint = known.first { Suggestions.editDistance(text.lowercased(), $0) <= 2 }.map { " (did you mean \"\($0)\"?)" } ?? ""
        throw SyntaxError(message: "unknown operand \"\(text)\"; use status, latency, body.PATH, header.NAME or tls.expires\(hint)", offset: offset)
    }

    static func parseValue(_ text: String, offset: Int, milliseconds: Bool = false) throws(SyntaxError) -> Value {
        if let quote = text.first, quote == "\"" || quote == "'" {
            guard text.count >= 2, text.last == quote else { throw SyntaxError(message: "unterminated quoted value", offset: offset) }
            return .text(String(text.dropFirst().dropLast()))
        }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case "now": return .now(0)
        default: break
        }
        if text.hasPrefix("now"), let sign = text.dropFirst(3).first(where: { !$0.isWhitespace }), sign == "-" || sign == "+" {
            let span = String(text.dropFirst(3).drop { $0.isWhitespace }.dropFirst()).trimmingWhitespace()
            guard let seconds = DurationText.parse(span), DurationText.hasUnit(span) else {
                throw SyntaxError(message: "now \(sign) needs a duration with its unit, e.g. now - 5m", offset: offset)
            }
            return .now(sign == "-" ? -seconds : seconds)
        }
        if let number = Double(text), number.isFinite { return .number(milliseconds ? number / 1000 : number) }
        if text.first?.isNumber == true, let seconds = DurationText.parse(text) { return .number(seconds) }
        if let moment = DateText.seconds(text) { return .date(moment) }
        return .text(text)
    }

    /// `value` if it fits what `term` reads and what `op` compares, else why not.
    static func check(
        _ value: Value, written: String, for term: Expectation.Term, _ op: Expectation.Operator, milliseconds: Bool, offset: Int
    ) throws(SyntaxError) -> Value {
        switch (term, value) {
        case (.length, .number): return value
        case (.length, _): throw SyntaxError(message: "a length is compared with a number, e.g. len(body.items) > 0", offset: offset)
        case (.operand(.status), .number): break
        case (.operand(.latency), .number), (.operand(.tlsExpires), .number):
            // A duration needs its unit: a bare 1000 would silently be 1000 seconds (Gatus's [RESPONSE_TIME] is in ms).
            if !DurationText.hasUnit(written), !milliseconds {
                let name = term == .operand(.latency) ? "latency" : "tls.expires"
                let example = name == "latency" ? "\(name) < \(written)ms or \(name) < \(written)s" : "\(name) > \(written)d"
                throw SyntaxError(message: "\(name) is a duration: write its unit (ms, s, m, h, d), e.g. \(example)", offset: offset)
            }
        case (.operand(.connected), .bool): break
        case (.operand(.connected), _): throw SyntaxError(message: "[CONNECTED] is true or false", offset: offset)
        case (.operand(.tlsExpires), _): throw SyntaxError(message: "tls.expires is compared with a duration, e.g. tls.expires > 14d", offset: offset)
        case (.operand(.status), _): throw SyntaxError(message: "status is compared with a number, e.g. status == 200", offset: offset)
        case (.operand(.latency), _): throw SyntaxError(message: "latency is compared with a duration, e.g. latency < 300ms", offset: offset)
        default: break
        }
        switch (op, value) {
        case (.less, .text), (.lessOrEqual, .text), (.greater, .text), (.greaterOrEqual, .text):
            throw SyntaxError(message: "\(op.rawValue) needs a number, duration or date, not text", offset: offset)
        default: return value
        }
    }
}
