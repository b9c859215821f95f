/// A regular expression that runs in time linear in the text, whatever the pattern: a Pike
/// virtual machine (Thompson's construction with priorities for leftmost-first matches), as in
/// RE2 and Go.
///
/// Backtracking engines (ICU, behind `NSRegularExpression`) take exponential time on patterns
/// such as `(a|a)*!x`, and a pane's pipeline cannot be stopped from outside once it runs; here the
/// cost is at most the text's length times the pattern's size, and a step budget bounds it on top.
///
/// Syntax: literals and `\`-escaped metacharacters; `.` (not a newline); classes `[a-z]`,
/// `[^…]`; `\d \D \w \W \s \S \b \B \t \n \r`; `^` and `$` at line boundaries; groups `(…)`,
/// `(?:…)`, `(?<name>…)`; `|`; `* + ? {n} {n,} {n,m}` and their lazy forms; `(?i)` at the start.
/// Backreferences and lookaround are refused: they cannot run in linear time. One difference from
/// ICU and Perl: a group repeated by `*` or `+` that can match nothing keeps what its last
/// non-empty turn matched (`(a*)*` on "aaa" captures "aaa", not ""), and one whose first choice is
/// nothing (`(|a)+`) goes on to what follows instead of stopping at an empty match.
public struct LinearRegex: Sendable {
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Thrown when a match needs more steps than its budget.
    public struct TooSlow: Error, Sendable, CustomStringConvertible {
        public var description: String { "regex: gave up after too many steps" }
    }

    public let pattern: String
    /// The number of capturing groups.
    public let groupCount: Int
    private let program: [Instruction]
    private let caseInsensitive: Bool

    /// Compiles `pattern`; throws for syntax this engine refuses or does not know.
    public init(_ pattern: String) throws(SyntaxError) {
        self.pattern = pattern
        var scalars = Array(pattern.unicodeScalars)
        var insensitive = false
        if scalars.starts(with: "(?i)".unicodeScalars) {
            insensitive = true
            scalars.removeFirst(4)
        }
        var parser = Parser(scalars: scalars, caseInsensitive: insensitive)
        let tree = try parser.parseAlternation()
        guard parser.index == scalars.count else {
            throw SyntaxError(message: "unexpected \")\" at character \(parser.index + 1)")
        }
        var compiler = Compiler()
        compiler.emit(.save(0))
        compiler.compile(tree)
        compiler.emit(.save(1))
        compiler.emit(.match)
        guard compiler.program.count <= 100_000 else {
            throw SyntaxError(message: "the pattern is too large (its repetitions expand to more than 100,000 steps)")
        }
        program = compiler.program
        groupCount = parser.groupCount
        caseInsensitive = insensitive
    }

    /// The first match in `text`, leftmost and then by the pattern's preferences (as Perl and ICU
    /// choose): for each group 0…`groupCount`, the matched range of `text`'s scalars, or nil.
    /// Gives up with `TooSlow` after `budget` steps.
    public func firstMatch(in text: String, budget: Int = 500_000_000) throws(TooSlow) -> [Range<String.Index>?]? {
        let view = text.unicodeScalars
        guard let slots = try run(Array(view), budget: budget) else { return nil }
        return (0...groupCount).map { group in
            let start = slots[2 * group], end = slots[2 * group + 1]
            guard start >= 0, end >= start else { return nil }
            let lower = view.index(view.startIndex, offsetBy: start)
            return lower..<view.index(lower, offsetBy: end - start)
        }
    }

    // MARK: The machine

    enum Instruction: Sendable {
        case scalar(Unicode.Scalar)
        case any
        case set(ScalarSet)
        case split(Int, Int)  // try the first, then the second
        case jump(Int)
        case save(Int)
        case assert(Assertion)
        case match
    }

    enum Assertion: Sendable {
        case lineStart, lineEnd, wordBoundary, notWordBoundary
    }

    private struct Thread {
        let pc: Int
        let slots: [Int]
    }

    private func run(_ text: [Unicode.Scalar], budget: Int) throws(TooSlow) -> [Int]? {
        let slotCount = 2 * (groupCount + 1)
        var current: [Thread] = []
        var next: [Thread] = []
        var seen = [Int](repeating: -1, count: program.count)
        var matched: [Int]?
        var steps = 0
        var position = 0
        while true {
            if matched == nil {
                // A new attempt from here, below every thread already running (leftmost first).
                addThread(&current, pc: 0, slots: [Int](repeating: -1, count: slotCount), at: position, in: text, seen: &seen)
            }
            // Nothing running: done once a match is in hand; else on to the next start.
            if current.isEmpty, matched != nil { break }
            let scalar = position < text.count ? text[position] : nil
            for thread in current {
                steps += 1
                if steps > budget { throw TooSlow() }
                switch program[thread.pc] {
                case .match:
                    matched = thread.slots
                    // Lower-priority threads are cut: this match wins over them.
                    break
                case .scalar(let expected):
                    if let scalar, equal(scalar, expected) {
                        addThread(&next, pc: thread.pc + 1, slots: thread.slots, at: position + 1, in: text, seen: &seen)
                    }
                    continue
                case .any:
                    if let scalar, scalar != "\n" {
                        addThread(&next, pc: thread.pc + 1, slots: thread.slots, at: position + 1, in: text, seen: &seen)
                    }
                    continue
                case .set(let set):
                    if let scalar, set.contains(scalar, caseInsensitive: caseInsensitive) {
                        addThread(&next, pc: thread.pc + 1, slots: thread.slots, at: position + 1, in: text, seen: &seen)
                    }
                    continue
                default:
                    continue
                }
                break
            }
            if position >= text.count { break }
            swap(&current, &next)
            next.removeAll(keepingCapacity: true)
            position += 1
        }
        return matched
    }

    /// Adds the thread at `pc` and, through jumps, splits, saves and assertions, every thread it
    /// reaches without reading, in priority order; each instruction once per position (`seen`
    /// holds the position each was last added at). An explicit stack, not recursion: a pattern's
    /// empty paths can be thousands of steps long, and the pipeline runs on a small stack.
    private func addThread(
        _ list: inout [Thread], pc start: Int, slots initial: [Int], at position: Int, in text: [Unicode.Scalar], seen: inout [Int]
    ) {
        var stack = [(pc: start, slots: initial)]
        while let (pc, slots) = stack.popLast() {
            if seen[pc] == position { continue }
            seen[pc] = position
            switch program[pc] {
            case .jump(let target):
                stack.append((target, slots))
            case .split(let first, let second):
                stack.append((second, slots))
                stack.append((first, slots))
            case .save(let slot):
                var copy = slots
                copy[slot] = position
                stack.append((pc + 1, copy))
            case .assert(let assertion):
                if holds(assertion, at: position, in: text) { stack.append((pc + 1, slots)) }
            default:
                list.append(Thread(pc: pc, slots: slots))
            }
        }
    }

    private func holds(_ assertion: Assertion, at position: Int, in text: [Unicode.Scalar]) -> Bool {
        switch assertion {
        // As Perl and ICU: not after a newline that ends the text.
        case .lineStart: return position == 0 || (text[position - 1] == "\n" && position < text.count)
        case .lineEnd: return position == text.count || text[position] == "\n"
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && ScalarSet.isWord(text[position - 1])
            let after = position < text.count && ScalarSet.isWord(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }

    private func equal(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        a == b || (caseInsensitive && ScalarSet.folded(a) == ScalarSet.folded(b))
    }
}

/// A set of scalars: ranges and shorthand classes, possibly negated.
struct ScalarSet: Sendable {
    enum Item: Sendable {
        case range(ClosedRange<UInt32>)
        case digit(Bool), word(Bool), space(Bool)  // true: the class, false: its complement
    }

    var items: [Item] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar, caseInsensitive: Bool) -> Bool {
        func inItems(_ s: Unicode.Scalar) -> Bool {
            items.contains { item in
                switch item {
                case .range(let range): range.contains(s.value)
                case .digit(let yes): ScalarSet.isDigit(s) == yes
                case .word(let yes): ScalarSet.isWord(s) == yes
                case .space(let yes): ScalarSet.isSpace(s) == yes
                }
            }
        }
        var found = inItems(scalar)
        if !found, caseInsensitive {
            let lower = ScalarSet.folded(scalar)
            let upper = Unicode.Scalar(String(scalar).uppercased()) ?? scalar
            found = inItems(lower) || inItems(upper)
        }
        return found != negated
    }

    static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
    static func isWord(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || isDigit(s) || s == "_"
            || (s.value > 0x7F && (s.properties.isAlphabetic || s.properties.numericType != nil))
    }
    static func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || ("\t"..."\r").contains(s) || s.properties.isWhitespace }
    static func folded(_ s: Unicode.Scalar) -> Unicode.Scalar {
        if ("A"..."Z").contains(s) { return Unicode.Scalar(s.value + 32)! }
        guard s.value > 0x7F else { return s }
        return String(s).lowercased().unicodeScalars.first ?? s
    }
}

/// The parsed pattern.
private indirect enum Node {
    case empty
    case scalar(Unicode.Scalar)
    case any
    case set(ScalarSet)
    case assert(LinearRegex.Assertion)
    case group(Node, index: Int?)
    case sequence([Node])
    case alternation([Node])
    case repeated(Node, min: Int, max: Int?, lazy: Bool)
}

private struct Parser {
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

    mutating func parseAlternation() throws(SyntaxError) -> Node {
        var branches = [try parseSequence()]
        while index < scalars.count, scalars[index] == "|" {
            index += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func parseSequence() throws(SyntaxError) -> Node {
        var items: [Node] = []
        while index < scalars.count, scalars[index] != "|", scalars[index] != ")" {
            var atom = try parseAtom()
            atom = try parseQuantifiers(atom)
            items.append(atom)
        }
        return items.isEmpty ? .empty : items.count == 1 ? items[0] : .sequence(items)
    }

    mutating func parseQuantifiers(_ atom: Node) throws(SyntaxError) -> Node {
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

    mutating func parseAtom() throws(SyntaxError) -> Node {
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
    mutating func parseEscape(inClass: Bool) throws(SyntaxError) -> (node: Node, item: ScalarSet.Item?) {
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

private struct Compiler {
    var program: [LinearRegex.Instruction] = []

    mutating func emit(_ instruction: LinearRegex.Instruction) {
        program.append(instruction)
    }

    mutating func compile(_ node: Node) {
        guard program.count <= 100_000 else { return }  // reported by the caller
        switch node {
        case .empty: break
        case .scalar(let s): emit(.scalar(s))
        case .any: emit(.any)
        case .set(let set): emit(.set(set))
        case .assert(let assertion): emit(.assert(assertion))
        case .group(let inner, let index):
            if let index { emit(.save(2 * index)) }
            compile(inner)
            if let index { emit(.save(2 * index + 1)) }
        case .sequence(let items):
            for item in items { compile(item) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (i, branch) in branches.enumerated() {
                if i < branches.count - 1 {
                    let split = program.count
                    emit(.split(split + 1, -1))
                    compile(branch)
                    jumps.append(program.count)
                    emit(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    compile(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let inner, let minimum, let maximum, let lazy):
            for _ in 0..<minimum { compile(inner) }
            if let maximum {
                // Each optional copy: split over it; all skip to the end.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    emit(.split(-1, -1))
                    compile(inner)
                }
                let end = program.count
                for split in splits { program[split] = lazy ? .split(end, split + 1) : .split(split + 1, end) }
            } else {
                let loop = program.count
                emit(.split(-1, -1))
                compile(inner)
                emit(.jump(loop))
                let end = program.count
                program[loop] = lazy ? .split(end, loop + 1) : .split(loop + 1, end)
            }
        }
    }
}
