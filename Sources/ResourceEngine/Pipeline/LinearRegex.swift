/// A regular expression that runs in time linear in the text, whatever the pattern: a Pike
/// virtual machine (Thompson's construction with priorities for leftmost-first matches), as in
/// RE2 and Go.
///
/// Backtracking engines (ICU, behind `NSRegularExpression`) take exponential time on patterns
/// such as `(a|a)*!x`, and a resource's pipeline cannot be stopped from outside once it runs; here the
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
    /// Thrown for a pattern that does not parse or needs what linear time cannot do.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and where.
        public let message: String
        public var description: String { message }
    }

    /// Thrown when a match needs more steps than its budget.
    public struct TooSlow: Error, Sendable, CustomStringConvertible {
        public var description: String { "regex: gave up after too many steps" }
    }

    /// The pattern as written.
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
        var parser = RegexParser(scalars: scalars, caseInsensitive: insensitive)
        let tree = try parser.parseAlternation()
        guard parser.index == scalars.count else {
            throw SyntaxError(message: "unexpected \")\" at character \(parser.index + 1)")
        }
        var compiler = RegexCompiler()
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
