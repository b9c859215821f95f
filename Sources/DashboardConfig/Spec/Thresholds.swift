import ResourceEngine

/// `thresholds: { warn: "> 0.8", fail: "> 0.95" }`: conditions on a value pane's value. A value
/// meeting `warn` is shown in yellow; one meeting `fail` in red, and the pane is failing.
public struct Thresholds: Sendable, Equatable {
    /// Each as an expectation on the shown value (`body > 0.8`), so the comparison rules are the
    /// expectations' own: numbers, durations, `==`, `contains`…
    public var warn: Expectation?
    public var fail: Expectation?

    public init(warn: Expectation? = nil, fail: Expectation? = nil) {
        self.warn = warn
        self.fail = fail
    }

    /// What a written condition is read as: an expectation on the shown value.
    private static let operand = "body "

    /// A condition as written (`> 0.8`), read as one on the value.
    public static func condition(_ text: String) throws(Expectation.SyntaxError) -> Expectation {
        do {
            return try Expectation(operand + text)
        } catch {
            throw Expectation.SyntaxError(message: error.message, offset: max(0, error.offset - operand.count))
        }
    }

    /// A condition as the config wrote it (`> 0.95`), for messages.
    public static func written(_ condition: Expectation) -> String {
        condition.text.hasPrefix(operand) ? String(condition.text.dropFirst(operand.count)) : condition.text
    }

    public enum Level: Sendable, Equatable {
        case normal, warn, fail
    }

    /// Which threshold `value` meets (fail before warn).
    public func level(of value: JSON) -> Level {
        let observation = Expectation.Observation(statusCode: nil, latency: nil, body: value, headers: [:])
        if let fail, fail.failure(in: observation) == nil { return .fail }
        if let warn, warn.failure(in: observation) == nil { return .warn }
        return .normal
    }
}
