import DashboardConfig
import Foundation
import HammockHarness
import Testing

/// A failing mutation can be replayed: the generator is seeded.
typealias SeededGenerator = SeededRandom

/// Random mutations of the sample configs never crash the loader, and every outcome is either a
/// valid config or problems with real positions.
@Suite struct ConfigFuzzTests {
    static let fragments = [":", "-", " ", "  ", "\n", "\t", "[", "]", "{", "}", "\"", "'", "*", "&a", "*a", "!", "#", "${", "}", "%",
                            "|", ">", "?", ",", "~", "null", "- x", "panes:", "pattern: ", "\u{0}", "é", "🚀", "\u{1B}[2J", "0x", "-1", "1e999", "10ms", "∞",
                            // Numbers at their limits and alias bombs (the hostile-input issue).
                            "9999999h", "1e308s", "9223372036854775808", "0ms", "every: 1e308\n", " &b [*a, *a, *a, *a, *a, *a, *a, *a]", "? *a\n: 1\n", "*a : 1\n",
                            "x: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n", "title: \"\"\n"]

    static func mutate(_ text: String, using rng: inout SeededGenerator) -> String {
        var lines = text.components(separatedBy: "\n")
        var chars = Array(text)
        switch Int.random(in: 0..<7, using: &rng) {
        case 0 where !chars.isEmpty:
            chars.remove(at: Int.random(in: 0..<chars.count, using: &rng))
            return String(chars)
        case 1:
            let fragment = fragments.randomElement(using: &rng)!
            chars.insert(contentsOf: fragment, at: Int.random(in: 0...chars.count, using: &rng))
            return String(chars)
        case 2 where lines.count > 1:
            let i = Int.random(in: 0..<lines.count, using: &rng)
            lines.insert(lines[i], at: Int.random(in: 0...lines.count, using: &rng))
            return lines.joined(separator: "\n")
        case 3 where lines.count > 1:
            lines.swapAt(Int.random(in: 0..<lines.count, using: &rng), Int.random(in: 0..<lines.count, using: &rng))
            return lines.joined(separator: "\n")
        case 4 where !chars.isEmpty:
            return String(chars.prefix(Int.random(in: 0..<chars.count, using: &rng)))
        case 5 where lines.count > 1:
            lines.remove(at: Int.random(in: 0..<lines.count, using: &rng))
            return lines.joined(separator: "\n")
        default:
            let i = Int.random(in: 0..<max(1, lines.count), using: &rng)
            if lines.indices.contains(i) { lines[i] = String(repeating: " ", count: Int.random(in: 0...6, using: &rng)) + lines[i].trimmingCharacters(in: .whitespaces) }
            return lines.joined(separator: "\n")
        }
    }

    @Test(arguments: SampleConfigTests.samples)
    func mutationsNeverCrashAndAlwaysExplainThemselves(sample: String) throws {
        let original = try String(contentsOf: configDirectory.appendingPathComponent(sample), encoding: .utf8)
        var rng = SeededGenerator(seed: sample.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) })
        var valid = 0
        var invalid = 0
        for round in 0..<300 {
            var text = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) { text = Self.mutate(text, using: &rng) }
            let lineCount = text.components(separatedBy: "\n").count
            do {
                let spec = try ConfigLoader.parse(text, file: sample, environment: ["USERS_API_TOKEN": "t", "BILLING_API_KEY": "k"])
                #expect(!spec.panes.isEmpty)
                valid += 1
            } catch {
                invalid += 1
                #expect(!error.problems.isEmpty, "round \(round): no problems reported")
                for problem in error.problems {
                    #expect(problem.file == sample)
                    #expect(problem.line >= 1 && problem.line <= lineCount + 1, "round \(round): line \(problem.line) of \(lineCount): \(problem)")
                    #expect(problem.column >= 1, "round \(round): \(problem)")
                    #expect(!problem.message.isEmpty)
                }
            }
        }
        #expect(valid + invalid == 300)
        #expect(invalid > 0, "the mutations do break files")
    }
}
