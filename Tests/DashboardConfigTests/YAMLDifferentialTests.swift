@testable import DashboardConfig
import Foundation
import HammockHarness
import Testing
import Yams

/// The config reader on libyaml (`YAMLDocument`) against Yams, which Hammock read its configs
/// with before: over every config in `config/`, every YAML block the tests write, hand-made
/// corner cases and seeded mutations of the samples, both give the same tree (kinds, text, style,
/// place, and the null, true/false and numbers a config reads from each scalar) or the same
/// problem at the same place.
@Suite struct YAMLDifferentialTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every multi-line string literal in the test sources that looks like YAML, as the program sees it.
    static func testBlocks() throws -> [(String, String)] {
        var blocks: [(String, String)] = []
        let files = FileManager.default.enumerator(atPath: root.appendingPathComponent("Tests").path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let lines = try String(contentsOf: root.appendingPathComponent("Tests/\(file)"), encoding: .utf8).components(separatedBy: "\n")
            var open: Int?
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if open == nil, trimmed.hasSuffix("\"\"\"") || trimmed.hasSuffix("\"\"\"#"), !trimmed.hasPrefix("\"\"\"") {
                    open = index + 1
                } else if let start = open, trimmed.hasPrefix("\"\"\"") {
                    open = nil
                    let indent = line.prefix { $0 == " " }.count
                    let body = lines[start..<index].map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
                    let text = body.joined(separator: "\n").replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\") + "\n"
                    if text.contains(": ") || text.contains(":\n") { blocks.append(("\(file):\(start)", text)) }
                }
            }
        }
        return blocks
    }

    static let corners: [String] = [
        "", "# only a comment\n", "---\n", "~\n", "a: 1\n---\nb: 2\n", "a: 1\n...\n", "a: b\r\nc: d\r\n", "a: b\rc: d\r",
        "x: &a [1, 2]\ny: *a\n", "x: *nope\n", "a: 1\na: 2\nb: 1\nb: 3\n", "'a': 1\n\"a\": 2\n", "a: [1, 2\n", "a: {b: 1\n",
        "a:\n  - b\n - c\n", "a: 'unterminated\n", "a: \"bad \\q escape\"\n", "a: \u{7}bell\n", "\t- tab\n", "a: !!str true\n",
        "a: !!int '5'\n", "a: !custom x\n", "n: [0, 00, 010, 09, 0x1F, 0o17, 0b101, +5, -0x10, 1_000, 1:30, -1:30, 190:20:30, 9223372036854775808, 1::2]\n",
        "f: [1.5, .5, -.inf, .Inf, .NaN, 1e3, 1_0.5, 1:30.5, +.inf, nan, inf, 0x1p3, '1.5']\n",
        "b: [true, True, TRUE, yes, Yes, on, ON, y, n, false, no, off, 'true', \"no\", tRuE]\n",
        "z: [~, null, Null, NULL, nUll, '', \"~\", ]\n", "e:\n", "e: ''\n", "t: |\n  line\n  two\n", "t: >-\n  folded\n  text\n",
        "t: |+\n  kept\n\n", "k: \"\\u00e9\\n\\t\"\n", "é: 🚀\n", "a: b: c\n", "- a\nb: c\n", "a:\n- b\n-c\n", "[a, b]: c\n",
        "{a: 1, b: [x, {c: d}]}\n", "a: &x 1\nb: &x 2\nc: *x\n", "%YAML 1.1\n---\na: 1\n", "%TAG ! tag:example.com,2000:\n---\na: !foo 1\n",
        "a: @reserved\n", "a: `tick\n", "? a\n: b\n", "a: 1 # comment\n#x\n", "a:    \n  b\n", String(repeating: "[", count: 200) + "\n",
        "a: \"multi\n  line\"\n", "a: 'it''s'\n", "a\u{85}b: c\n", "a: b\u{2028}c: d\n",
    ]

    @Test func everySampleConfigReadsTheSame() throws {
        let folder = Self.root.appendingPathComponent("config")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
        #expect(names.count >= 10)
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            try Self.compare(text, name)
        }
    }

    @Test func everyYAMLBlockOfTheTestsReadsTheSame() throws {
        let blocks = try Self.testBlocks()
        #expect(blocks.count > 100, "the tests' YAML blocks are found")
        for (place, text) in blocks { try Self.compare(text, place) }
    }

    @Test func cornerCasesReadTheSame() throws {
        for (index, text) in Self.corners.enumerated() { try Self.compare(text, "corner \(index): \(text.debugDescription)") }
    }

    /// Where the two differ, on purpose: a byte order mark, which no editor shows, takes no column.
    @Test func aByteOrderMarkTakesNoColumn() throws {
        let node = try #require(try YAMLDocument.compose("\u{FEFF}a: 1\n"))
        guard case .mapping(let mapping) = node else { Issue.record("not a mapping"); return }
        #expect(mapping[0].key.mark == YAMLNode.Mark(line: 1, column: 1))
        #expect(mapping[0].value.mark == YAMLNode.Mark(line: 1, column: 4))
        #expect(try Yams.compose(yaml: "\u{FEFF}a: 1\n")?.mapping?.first?.key.mark?.column == 2)
    }

    /// Nesting is bounded: deeper than `YAMLDocument.maximumDepth` is a problem at its place, so no
    /// file can exhaust the stack of whatever walks or frees the tree (Yams recursed until it crashed).
    @Test func nestingDeeperThanTheLimitIsAProblem() throws {
        let limit = YAMLDocument.maximumDepth
        let fits = "a: " + String(repeating: "[", count: limit - 1) + String(repeating: "]", count: limit - 1) + "\n"
        var node = try #require(try YAMLDocument.compose(fits))
        var levels = 1
        while case .mapping(let mapping) = node { node = mapping[0].value; levels += 1 }
        while case .sequence(let list) = node, let first = list.first { node = first; levels += 1 }
        #expect(levels == limit)
        let deep = (0..<300).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " x\n"
        let error = try #require(throws: ConfigErrors.self) { try ConfigLoader.parse(deep, file: "deep.yaml", environment: [:]) }
        #expect(error.problems.map(\.description) == ["deep.yaml:\(limit + 1):\(limit + 1): YAML syntax: nesting deeper than \(limit) levels"])
    }

    @Test func mutatedSamplesReadTheSame() throws {
        let folder = Self.root.appendingPathComponent("config")
        var rng = SeededRandom(seed: 50)
        for sample in SampleConfigTests.samples {
            let original = try String(contentsOf: folder.appendingPathComponent(sample), encoding: .utf8)
            for round in 0..<150 {
                var text = original
                for _ in 0..<Int.random(in: 1...4, using: &rng) { text = ConfigFuzzTests.mutate(text, using: &rng) }
                try Self.compare(text, "\(sample) round \(round)")
            }
        }
    }

    /// Both readers on `text`: the same tree, or the same problem. Text the key guard refuses
    /// never reaches either reader in Hammock (an alias key can keep Yams hashing forever).
    static func compare(_ text: String, _ place: String) throws {
        guard YAMLGuard.keyProblems(in: text).isEmpty else { return }
        let ours = Result { () throws(YAMLDocument.SyntaxError) in try YAMLDocument.compose(text) }
        let theirs = Result { try Yams.compose(yaml: text, .basic) }
        switch (ours, theirs) {
        case (.success(let mine), .success(let yams)):
            switch (mine, yams) {
            case (nil, nil): break
            case (let mine?, let yams?): same(mine, yams, place)
            default: Issue.record("\(place): one reader found a document, the other none")
            }
        case (.failure(let mine), .failure(let yams)):
            let expected = problem(of: yams)
            #expect(mine.message == expected.message, "\(place)")
            #expect(mine.mark.line == expected.line && mine.mark.column == expected.column, "\(place): \(mine) against \(expected)")
        case (.success, .failure(let yams)):
            Issue.record("\(place): Yams refused it (\(problem(of: yams).message)), libyaml's reader took it")
        case (.failure(let mine), .success):
            Issue.record("\(place): Yams took it, libyaml's reader refused it: \(mine)")
        }
    }

    /// What the config loader said of a Yams error when it read with Yams.
    static func problem(of error: any Error) -> (line: Int, column: Int, message: String) {
        guard let yaml = error as? YamlError else { return (1, 1, "YAML: \(error)") }
        switch yaml {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _), .composer(let context, let problem, let mark, _):
            var message = "YAML syntax: \(problem)"
            if let context, context.mark.line != mark.line || context.mark.column != mark.column {
                message += " (\(context.text) that starts at line \(context.mark.line), column \(context.mark.column))"
            }
            return (mark.line, mark.column, message)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return (context.mark.line, context.mark.column, "duplicate keys \(duplicates.joined(separator: ", "))")
        case .reader(let problem, _, _, _):
            return (1, 1, "YAML: \(problem)")
        default:
            return (1, 1, "YAML: \(error)")
        }
    }

    static func same(_ mine: YAMLNode, _ yams: Yams.Node, _ place: String) {
        let at = "\(place) at \(mine.mark.line):\(mine.mark.column)"
        #expect(mine.mark.line == yams.mark?.line && mine.mark.column == yams.mark?.column, "\(at): Yams says \(String(describing: yams.mark))")
        switch (mine, yams) {
        case (.scalar(let scalar), .scalar(let other)):
            #expect(scalar.string == other.string, "\(at)")
            #expect("\(scalar.style)" == "\(other.style)", "\(at)")
            #expect(mine.isNull == (yams.null != nil), "\(at): null")
            #expect(mine.bool == yams.bool, "\(at): bool")
            #expect(mine.int == yams.int, "\(at): int")
            #expect(mine.float == yams.float || (mine.float?.isNaN == true && yams.float?.isNaN == true), "\(at): float")
        case (.sequence(let list), .sequence(let other)):
            #expect(list.count == other.count, "\(at)")
            for (item, otherItem) in zip(list, other) { same(item, otherItem, place) }
        case (.mapping(let mapping), .mapping(let other)):
            #expect(mapping.count == other.count, "\(at)")
            for (entry, otherEntry) in zip(mapping, other) {
                same(entry.key, otherEntry.key, place)
                same(entry.value, otherEntry.value, place)
            }
        default:
            Issue.record("\(at): \(mine) against \(yams)")
        }
    }
}
