import FoundationEssentials
import ResourceEngine
import TextBasics

/// Reads an expectation's text into its condition: tests joined by `&&`, `||`, `not` and
/// parentheses, each `OPERAND TEST VALUE`. Errors say where, in characters from the start.
struct ExpectationParser {
    typealias SyntaxError = Expectation.SyntaxError
    let chars: [Character]
    var position = 0

    init(_ text: String) { chars = Array(text) }

    mutating func parse() throws(SyntaxError) -> Expectation.Condition {
        let condition = try parseOr()
        skipSpaces()
        if position < chars.count {
            throw SyntaxError(message: "expected && or || but found \"\(chars[position])\"", offset: position)
        }
        return condition
    }

    // MARK: Joining

    private mutating func parseOr() throws(SyntaxError) -> Expectation.Condition {
        var parts = [try parseAnd()]
        while lookingAt("||") {
            position += 2
            parts.append(try parseAnd())
        }
        return parts.count == 1 ? parts[0] : .any(parts)
    }

    private mutating func parseAnd() throws(SyntaxError) -> Expectation.Condition {
        var parts = [try parseUnary()]
        while lookingAt("&&") {
            position += 2
            parts.append(try parseUnary())
        }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    private mutating func parseUnary() throws(SyntaxError) -> Expectation.Condition {
        skipSpaces()
        let start = position
        if lookingAt("not"), position + 3 < chars.count, chars[position + 3] == " " || chars[position + 3] == "(" {
            position += 3
            let inner = try parseUnary()
            return .not(inner, text: text(start..<position))
        }
        if lookingAt("!(") {
            position += 1
            let inner = try parseUnary()
            return .not(inner, text: text(start..<position))
        }
        if position < chars.count, chars[position] == "(" {
            position += 1
            let inner = try parseOr()
            skipSpaces()
            guard position < chars.count, chars[position] == ")" else {
                throw SyntaxError(message: "missing ')' for the '(' at \(start + 1)", offset: position)
            }
            position += 1
            return inner
        }
        // A test runs to the next && or || or the ) that closes its group, outside quotes and brackets.
        var end = position
        var depth = 0
        var quote: Character?
        while end < chars.count {
            let c = chars[end]
            if let open = quote {
                if c == open { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "(" || c == "[" {
                depth += 1
            } else if c == ")" || c == "]" {
                if depth == 0 { break }
                depth -= 1
            } else if depth == 0, end + 1 < chars.count, (c == "&" && chars[end + 1] == "&") || (c == "|" && chars[end + 1] == "|") {
                break
            }
            end += 1
        }
        var test = TestParser(chars: chars, start: position, end: end)
        let condition = try test.parse()
        position = end
        return condition
    }

    // MARK: Scanning

    private mutating func skipSpaces() {
        while position < chars.count, chars[position].isWhitespace { position += 1 }
    }

    private mutating func lookingAt(_ word: String) -> Bool {
        skipSpaces()
        let letters = Array(word)
        guard position + letters.count <= chars.count else { return false }
        return Array(chars[position..<position + letters.count]) == letters
    }

    private func text(_ range: Range<Int>) -> String {
        String(chars[range]).trimmingWhitespace()
    }
}
