/// Reads a pattern into a `RegexNode` tree, numbering its capture groups.
struct RegexParser {
    let scalars: [Unicode.Scalar]
    let caseInsensitive: Bool
    var index = 0
    var groupCount = 0

    init(scalars: [Unicode.Scalar], caseInsensitive: Bool) {
        self.scalars = scalars
        self.caseInsensitive = caseInsensitive
    }

    typealias SyntaxError = LinearRegex.SyntaxError

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(message: "\(message) at character \(min(index, scalars.count) + 1)")
    }

    mutating func parseAlternation() throws(SyntaxError) -> RegexNode {
        var branches = [try parseSequence()]
        while index < scalars.count, scalars[index] == "|" {
            index += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func parseSequence() throws(SyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while index < scalars.count, scalars[index] != "|", scalars[index] != ")" {
            var atom = try parseAtom()
            atom = try parseQuantifiers(atom)
            items.append(atom)
        }
        return items.isEmpty ? .empty : items.count == 1 ? items[0] : .sequence(items)
    }

    mutating func parseQuantifiers(_ atom: RegexNode) throws(SyntaxError) -> RegexNode {
        var node = atom
        while index < scalars.count {
            let c = scalars[index]
            var minimum = 0, maximum: Int? = nil
            switch c {
            case "*": (minimum, maximum) = (0, nil)
            case "+": (minimum, maximum) = (1, nil)
            case "?": (minimum, maximum) = (0, 1)
            case "{":
                guard let bounds = try parseBounds() else { return node }
                (minimum, maximum) = bounds  // `index` is on the "}"; the step below moves past it
            default: return node
            }
            index += 1
            if case .assert = node { throw error("a quantifier after an anchor") }
            var lazy = false
            if index < scalars.count, scalars[index] == "?" {
                lazy = true
                index += 1
            } else if index < scalars.count, scalars[index] == "+" {
                throw error("possessive quantifiers are not supported")
            }
            node = .repeated(node, min: minimum, max: maximum, lazy: lazy)
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}` from the "{" at `index`, leaving `index` on the "}"; nil (and `index`
    /// unmoved) when it is not a repetition, so "{" is a literal.
    mutating func parseBounds() throws(SyntaxError) -> (Int, Int?)? {
        var i = index + 1
        func number() -> Int? {
            var digits = ""
            while i < scalars.count, ("0"..."9").contains(scalars[i]) {
                digits.unicodeScalars.append(scalars[i])
                i += 1
            }
            return digits.isEmpty ? nil : Int(digits)
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if i < scalars.count, scalars[i] == "," {
            i += 1
            high = number()
        }
        guard i < scalars.count, scalars[i] == "}" else { return nil }
        guard low <= 1000, (high ?? low) <= 1000 else { throw error("repetition counts go up to 1000") }
        if let high, high < low { throw error("{\(low),\(high)}: the maximum is below the minimum") }
        index = i
        return (low, high)
    }

    mutating func parseAtom() throws(SyntaxError) -> RegexNode {
        let c = scalars[index]
        index += 1
        switch c {
        case ".": return .any
        case "^": return .assert(.lineStart)
        case "$": return .assert(.lineEnd)
        case "[": return .set(try parseClass())
        case "\\": return try parseEscape(inClass: false).node
        case "*", "+", "?": throw error("nothing to repeat before \"\(c)\"")
        case "(":
            var capturing = true
            if index < scalars.count, scalars[index] == "?" {
                let rest = scalars[(index + 1)...].prefix(2).map(Character.init)
                if rest.first == ":" {
                    capturing = false
                    index += 2
                } else if rest.first == "<", rest.count > 1, rest[1] != "=", rest[1] != "!" {
                    guard let close = scalars[index...].firstIndex(of: ">") else { throw error("unterminated group name") }
                    index = close + 1
                } else if rest.first == "=" || rest.first == "!" || (rest.first == "<" && rest.count > 1) {
                    throw error("lookaround is not supported (patterns run in linear time)")
                } else {
                    throw error("this (? group is not supported")
                }
            }
            var number: Int?
            if capturing {
                groupCount += 1
                number = groupCount
            }
            let inner = try parseAlternation()
            guard index < scalars.count, scalars[index] == ")" else { throw error("missing \")\"") }
            index += 1
            return .group(inner, index: number)
        default:
            return .scalar(c)
        }
    }

    /// After a "\": a shorthand class, an assertion or an escaped scalar.
    mutating func parseEscape(inClass: Bool) throws(SyntaxError) -> (node: RegexNode, item: ScalarSet.Item?) {
        guard index < scalars.count else { throw error("a pattern cannot end with \\") }
        let c = scalars[index]
        index += 1
        switch c {
        case "d": return (.set(ScalarSet(items: [.digit(true)])), .digit(true))
        case "D": return (.set(ScalarSet(items: [.digit(false)])), .digit(false))
        case "w": return (.set(ScalarSet(items: [.word(true)])), .word(true))
        case "W": return (.set(ScalarSet(items: [.word(false)])), .word(false))
        case "s": return (.set(ScalarSet(items: [.space(true)])), .space(true))
        case "S": return (.set(ScalarSet(items: [.space(false)])), .space(false))
        case "b" where !inClass: return (.assert(.wordBoundary), nil)
        case "B" where !inClass: return (.assert(.notWordBoundary), nil)
        case "A" where !inClass, "z" where !inClass, "Z" where !inClass, "G" where !inClass:
            throw error("\\\(c) is not supported; use ^ and $")
        case "t": return (.scalar("\t"), nil)
        case "n": return (.scalar("\n"), nil)
        case "r": return (.scalar("\r"), nil)
        case "1"..."9": throw SyntaxError(message: "backreferences (\\\(c)) are not supported (patterns run in linear time) at character \(index - 1)")
        default:
            if c.properties.isAlphabetic, c.isASCII { throw error("unknown escape \\\(c)") }
            return (.scalar(c), nil)
        }
    }

    /// After "[": items up to "]".
    mutating func parseClass() throws(SyntaxError) -> ScalarSet {
        var set = ScalarSet()
        if index < scalars.count, scalars[index] == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard index < scalars.count else { throw error("missing \"]\"") }
            let c = scalars[index]
            if c == "]", !first {
                index += 1
                return set
            }
            first = false
            index += 1
            var low: Unicode.Scalar
            if c == "\\" {
                let escaped = try parseEscape(inClass: true)
                if let item = escaped.item {
                    set.items.append(item)
                    continue
                }
                guard case .scalar(let s) = escaped.node else { continue }
                low = s
            } else if c == "[", index < scalars.count, scalars[index] == ":" {
                throw error("POSIX classes ([:alpha:]) are not supported; use \\w, \\d, \\s or ranges")
            } else {
                low = c
            }
            if index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] != "]" {
                index += 1
                var high = scalars[index]
                index += 1
                if high == "\\" {
                    guard case .scalar(let s) = try parseEscape(inClass: true).node else { throw error("a class cannot end a range") }
                    high = s
                }
                guard low.value <= high.value else { throw error("range out of order") }
                set.items.append(.range(low.value...high.value))
            } else {
                set.items.append(.range(low.value...low.value))
            }
        }
    }
}
