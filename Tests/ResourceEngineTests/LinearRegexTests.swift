import Foundation
import ResourceEngine
import Testing

/// The config's `regex` step runs in linear time and matches as ICU (NSRegularExpression) does.
@Suite struct LinearRegexTests {
    private func groups(_ pattern: String, _ text: String) throws -> [String?]? {
        try LinearRegex(pattern).firstMatch(in: text)?.map { $0.map { String(text.unicodeScalars[$0]) } }
    }

    /// What ICU finds, with the same options the step used to have.
    private func icu(_ pattern: String, _ text: String) throws -> [String?]? {
        let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        return (0..<match.numberOfRanges).map { i in Range(match.range(at: i), in: text).map { String(text[$0]) } }
    }

    static let patterns = [
        "a", "ab", "a|b", "a*", "a+", "a?", "a*?", "a+?", "(a|b)*", "(a|ab)(c|bcd)(d*)", "a{2}", "a{1,3}", "a{2,}", "a{0,2}?b",
        "^a", "a$", "^$", "^ab$", "(?:ab)+", "(a)|(b)", "[ab]+", "[^a]+", "[a-c]{2}", ".", ".*", ".+b", "\\d+", "\\w+", "\\s",
        "\\bab\\b", "\\Ba", "(a*)*", "(a*)+b", "(a|a)*c", "((a)|b)+", "x*", "(?<n>a)(b)?", "(?i)AB", "a.c", "\\.", "[.]", "[-a]",
        "\\t", "b\\n", "(ab|a)(bc|c)?", "(a+)(b+)?", "(|a)+", "(a|)+b",
    ]
    /// Groups repeated while able to match nothing: the same match, another capture for the last turn.
    static let emptyTurns: Set<String> = ["(a*)*", "(a*)+b"]
    /// Repeated groups whose first choice is nothing: ICU stops at the empty match, this goes on.
    static let differs: Set<String> = ["(|a)+", "(a|)+b"]
    static let texts = ["", "a", "b", "ab", "aab", "abab", "aaab\nab", "b\nab\n", "ccab", "abcd", "ab ab", "a.c", "AB ab", "x\ty", "bc\nb\n", "aaa", "aabba", "-a"]

    @Test func findsWhatICUFinds() throws {
        for pattern in Self.patterns {
            for text in Self.texts {
                let mine = try groups(pattern, text)
                let theirs = try icu(pattern, text)
                if Self.differs.contains(pattern) {
                    #expect(mine != nil || theirs == nil, "\(pattern.debugDescription) on \(text.debugDescription)")
                } else if Self.emptyTurns.contains(pattern) {
                    // A repeated group that can match nothing: the same match, another last turn (as RE2).
                    #expect(mine?.first == theirs?.first, "\(pattern.debugDescription) on \(text.debugDescription)")
                } else {
                    #expect(mine == theirs, "\(pattern.debugDescription) on \(text.debugDescription)")
                }
            }
        }
    }

    @Test func randomTextsAgreeWithICU() throws {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        for _ in 0..<400 {
            let length = Int(next() % 12)
            let text = String((0..<length).map { _ in Array("ab\nc")[Int(next() % 4)] })
            let pattern = Self.patterns[Int(next() % UInt64(Self.patterns.count))]
            let mine = try groups(pattern, text), theirs = try icu(pattern, text)
            if Self.differs.contains(pattern) {
                continue
            } else if Self.emptyTurns.contains(pattern) {
                #expect(mine?.first == theirs?.first, "\(pattern.debugDescription) on \(text.debugDescription)")
            } else {
                #expect(mine == theirs, "\(pattern.debugDescription) on \(text.debugDescription)")
            }
        }
    }

    @Test func catastrophicPatternsRunInLinearTime() throws {
        // ICU backtracks forever on these; a Pike machine takes at most text × pattern steps.
        let hostile = String(repeating: "a", count: 45)
        for pattern in ["(a|a)*!x", "(a*)*b", "(a+)+$b", "(x+x+)+y", "^(a|aa)+$c"] {
            let regex = try LinearRegex(pattern)
            #expect(try regex.firstMatch(in: hostile, budget: 100_000) == nil, "\(pattern)")
        }
        let long = String(repeating: "a", count: 200_000) + "!"
        #expect(try LinearRegex("(a|a)*!").firstMatch(in: long, budget: 5_000_000) != nil)
        #expect(throws: LinearRegex.TooSlow.self) { try LinearRegex("(a|a)*b").firstMatch(in: long, budget: 1_000) }
    }

    @Test func refusesWhatCannotRunInLinearTime() {
        for (pattern, message) in [
            ("(a)\\1", "backreferences (\\1) are not supported (patterns run in linear time) at character 4"),
            ("a(?=b)", "lookaround is not supported (patterns run in linear time) at character 3"),
            ("(?<!a)b", "lookaround is not supported (patterns run in linear time) at character 2"),
            ("a++", "possessive quantifiers are not supported at character 3"),
            ("(unclosed", "missing \")\" at character 10"),
            ("a{3,1}", "{3,1}: the maximum is below the minimum at character 2"),
            ("*a", "nothing to repeat before \"*\" at character 2"),
            ("a{5000}", "repetition counts go up to 1000 at character 2"),
        ] {
            #expect(throws: LinearRegex.SyntaxError.self, "\(pattern)") { try LinearRegex(pattern) }
            do { _ = try LinearRegex(pattern) } catch { #expect(error.message == message, "\(pattern)") }
        }
    }

    @Test func theRegexStepFailsARunawayInputWithAClearMessageNotAHang() throws {
        let step = try Transformers.regex("(a|a)*!x")
        let response = step.process(.success(Entity(content: String(repeating: "a", count: 45), contentType: "text/plain", timestamp: 0)))
        guard case .failure(let error) = response else { Issue.record("expected no match"); return }
        #expect(error.userMessage == #"regex "(a|a)*!x" did not match"#)
    }
}
