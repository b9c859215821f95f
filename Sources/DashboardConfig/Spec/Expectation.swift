import FoundationEssentials
import ResourceEngine

/// A condition a pane's responses must meet: `status == 200`, `latency < 300ms`,
/// `body.items.count > 0 && body.items[0].state == up`, `header.etag exists`,
/// `status >= 200 && status < 300`, `body.updated > now - 5m`, and Gatus's forms as Gatus writes
/// them (`[STATUS] == 200`, `[RESPONSE_TIME] < 300`, `len([BODY].items) > 0`).
///
/// Operands: `status`, `latency`, `tls.expires`, `body` or `body.PATH` (a final `.count` counts an
/// array or object unless it has a member called `count`), `header.NAME`, `len(…)` or `count(…)`
/// of one. Tests: `==`, `!=`, `<`, `<=`, `>`, `>=`, `contains`, `startsWith`, `endsWith`, `=~`,
/// `!~` (the pipeline's linear-time regex engine), `in [a, b]`, `exists`, `not exists`,
/// `isNumber`, `isString`, `isBool`, `isList`, `isObject`, `isNull`. Values: numbers, durations
/// (`300ms`), dates (`2026-01-01T00:00:00Z`, `now - 5m`), `true`, `false`, `null`, quoted strings
/// or bare words. Joined by `&&`, `||`, `not`/`!` and parentheses.
public struct Expectation: Sendable, Equatable, CustomStringConvertible {
    public enum Operand: Sendable, Equatable {
        case status
        case latency
        /// Time left until the https server's certificate expires (`tls.expires > 14d`).
        case tlsExpires
        case body(JSONPath?)
        case header(String)
        /// Whether an answer came at all (Gatus's `[CONNECTED]`).
        case connected
    }

    /// What a test reads: an operand, or the length of one (`len(body.items)`).
    public enum Term: Sendable, Equatable {
        case operand(Operand)
        case length(Operand)

        var operand: Operand {
            switch self {
            case .operand(let operand), .length(let operand): operand
            }
        }
    }

    public enum Operator: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", matches = "=~", notMatches = "!~", lessOrEqual = "<=", greaterOrEqual = ">=", less = "<",
            greater = ">", contains, startsWith, endsWith
    }

    public enum Value: Sendable, Equatable {
        case number(Double)
        case text(String)
        case bool(Bool)
        case null
        /// A moment, in seconds since 1970 (`2026-01-01T00:00:00Z`).
        case date(Double)
        /// Now, and this many seconds after it (`now - 5m` is -300), when the answer is judged.
        case now(Double)
    }

    /// The JSON types `isNumber` and its kin test for.
    public enum Kind: String, Sendable, CaseIterable {
        case isNumber, isString, isBool, isList, isObject, isNull

        /// "a number", "a list"…, for messages.
        var noun: String {
            switch self {
            case .isNumber: "a number"
            case .isString: "text"
            case .isBool: "true or false"
            case .isList: "a list"
            case .isObject: "an object"
            case .isNull: "null"
            }
        }
    }

    /// One test, or tests joined.
    public indirect enum Condition: Sendable, Equatable {
        case compare(Term, Operator, Value, Pattern?, text: String)
        case exists(Term, Bool, text: String)
        case kind(Term, Kind, text: String)
        case oneOf(Term, [Value], text: String)
        case all([Condition])
        case any([Condition])
        case not(Condition, text: String)
    }

    /// A parse error; `offset` counts characters from the start of the expectation text.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public let offset: Int
        public var description: String { message }
    }

    /// A regular expression an expectation matches text against.
    public struct Pattern: Sendable, Equatable {
        public let regex: LinearRegex
        public static func == (a: Pattern, b: Pattern) -> Bool { a.regex.pattern == b.regex.pattern }
    }

    public let text: String
    public let condition: Condition

    public var description: String { text }

    /// Whether every test reads the status alone (`status >= 200 && status < 300`): such an
    /// expectation can judge an error answer by its status. Known at parse time: a probe asks.
    public let readsOnlyStatus: Bool

    /// Whether some test reads the status: a 4xx or 5xx the expectations ask for (`status ==
    /// 401`) is then the pane working, not failing.
    public let readsStatus: Bool

    public init(_ text: String) throws(SyntaxError) {
        self.text = text
        var parser = ExpectationParser(text)
        condition = try parser.parse()
        let operands = Self.operands(of: condition)
        readsOnlyStatus = operands.allSatisfy { $0 == .status }
        readsStatus = operands.contains(.status)
    }

    static func operands(of condition: Condition) -> [Operand] {
        switch condition {
        case .compare(let term, _, _, _, _), .exists(let term, _, _), .kind(let term, _, _), .oneOf(let term, _, _): [term.operand]
        case .all(let parts), .any(let parts): parts.flatMap(operands)
        case .not(let inner, _): operands(of: inner)
        }
    }
}
