import DashboardConfig
import Foundation
import Glibc
import HammockHarness
import ResourceEngine
import Testing

/// No config value can trap, and no file can expand past a bound: numbers at their limits, and
/// anchors and aliases that would expand to billions of values.
@Suite struct HostileConfigTests {
    private func problems(_ text: String) -> [String] {
        do {
            _ = try ConfigLoader.parse(text, file: "h.yaml", environment: [:])
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    static let extremes = ["0", "-1", "1e308", "9999999h", "1e308s", "1e999s", "NaN", "inf", "-inf", "9223372036854775807",
                           "18446744073709551616", "0.0000001ms", "1e-320", "99999999999999999999999ms", "720h", "721h", "0x10", "1_000"]

    /// Every number a config holds, at every extreme: the loader answers with a config or with
    /// problems at their places — it never traps — and a config it accepts runs.
    @Test(arguments: ["every", "expiration", "retry", "timeout", "history", "limit", "columns"])
    func numbersAtTheirLimitsNeverTrap(field: String) throws {
        for value in Self.extremes {
            let text: String
            switch field {
            case "every", "history":
                text = "service:\n  baseURL: https://x.test/\npanes:\n  - title: A\n    resource: /a\n    \(field): \(value)\n"
            case "limit":
                text = "service:\n  baseURL: https://x.test/\nconfigure:\n  - pattern: /a\n    pipeline:\n      model: [ { limit: \(value) } ]\npanes:\n  - title: A\n    resource: /a\n"
            case "columns":
                text = "service:\n  baseURL: https://x.test/\npanes:\n  - title: A\n    resource: /a\nlayout:\n  columns: \(value)\n"
            default:
                text = "service:\n  baseURL: https://x.test/\n  \(field): \(value)\nconfigure:\n  - pattern: /a\n    \(field): \(value)\npanes:\n  - title: A\n    resource: /a\n"
            }
            do {
                let spec = try ConfigLoader.parse(text, file: "h.yaml", environment: [:])
                // Accepted: every duration is one a timer can hold.
                for pane in spec.panes {
                    let every = spec.refreshInterval(for: pane)
                    #expect(every.isFinite && every > 0 && every <= 30 * 86_400, "\(field): \(value) gave every \(every)")
                    #expect(pane.history >= 2 && pane.history <= 10_000)
                }
                for block in spec.configure {
                    for duration in [block.expiration, block.retry, block.timeout].compactMap({ $0 }) {
                        #expect(duration.isFinite && duration >= 0 && duration <= 30 * 86_400, "\(field): \(value)")
                    }
                }
            } catch {
                #expect(!error.problems.isEmpty)
                for problem in error.problems { #expect(problem.line >= 2, "\(field): \(value): \(problem)") }
            }
        }
    }

    @Test func emptyOrEndlessTitlesAreProblemsNotSilentlyDroppedPanes() {
        let base = "service:\n  baseURL: https://x.test/\npanes:\n"
        #expect(problems(base + "  - title: \"\"\n    resource: /a\n") == ["h.yaml:4:12: title must not be empty"])
        #expect(problems(base + "  - title: '   '\n    resource: /a\n") == ["h.yaml:4:12: title must not be empty"])
        #expect(problems(base + "  - title: \"\(String(repeating: "x", count: 201))\"\n    resource: /a\n") == ["h.yaml:4:12: title is 201 characters long; at most 200"])
        #expect(problems("title: \"\"\n" + base + "  - title: A\n    resource: /a\n") == ["h.yaml:1:8: title must not be empty"])
    }

    @Test func aFileThatCannotBeReadSaysWhy() throws {
        let directory = ScratchDirectory.path("read")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(symlink(directory + "/b.yaml", directory + "/a.yaml") == 0 && symlink(directory + "/a.yaml", directory + "/b.yaml") == 0)
        func message(_ path: String) -> String {
            do { _ = try ConfigLoader.load(path: path); return "" } catch { return error.problems.first?.message ?? "" }
        }
        #expect(message(directory + "/a.yaml") == "too many levels of symbolic links")
        #expect(message(directory + "/missing.yaml") == "no such file")
        #expect(message(directory) == "is a directory, not a config file")
        #expect(message("/dev/null") == "is not a regular file")
        // A body file on the same loop says so too, not "no file".
        let body = "service:\n  baseURL: https://x.test/\npanes:\n  - { title: A, resource: /a, method: POST, body: { file: a.yaml } }\n"
        try body.write(toFile: directory + "/body.yaml", atomically: true, encoding: .utf8)
        #expect(message(directory + "/body.yaml") == "body.file: a.yaml: too many levels of symbolic links")
    }

    /// A whole number past any the config takes is out of range, not "not a whole number".
    @Test func aHugeWholeNumberIsOutOfRange() {
        #expect(problems("service:\n  baseURL: https://x.test/\npanes:\n  - { title: A, resource: /a, history: 2e19 }\n")
            == ["h.yaml:4:40: history must be between 2 and 10000, not 2e19"])
        #expect(problems("service:\n  baseURL: https://x.test/\npanes:\n  - { title: A, resource: /a, history: 2.5 }\n")
            == [#"h.yaml:4:40: history must be a whole number, not "2.5""#])
    }

    @Test func aDurationThatWouldOverflowATimerIsAProblemAtItsPlace() {
        #expect(problems("service:\n  baseURL: https://x.test/\npanes:\n  - title: A\n    resource: /a\n    every: 9999999h\n")
            == ["h.yaml:6:12: every must be at most 30 days (720h), not 9999999h"])
        #expect(problems("service:\n  baseURL: https://x.test/\n  timeout: 1e308s\npanes:\n  - title: A\n    resource: /a\n")
            == ["h.yaml:3:12: service.timeout must be at most 30 days (720h), not 1e308s"])
    }

    /// Nine anchors, each nine aliases of the one before: 9⁹ values from a few hundred bytes.
    static func laughs(at place: String) -> String {
        var anchors = ["  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        var previous = "a"
        for name in "bcdefghi".map(String.init) {
            anchors.append("  \(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]")
            previous = name
        }
        let head = "x-anchors:\n" + anchors.joined(separator: "\n") + "\n"
        switch place {
        case "body": return head + "service:\n  baseURL: https://x.test/\npanes:\n  - title: A\n    resource: /a\n    method: POST\n    body: *i\n"
        case "headers": return head + "service:\n  baseURL: https://x.test/\n  headers: *i\npanes:\n  - title: A\n    resource: /a\n"
        case "unused": return head + "service:\n  baseURL: https://x.test/\npanes:\n  - title: A\n    resource: /a\n"
        case "alias key": return head + "service:\n  baseURL: https://x.test/\n  *i : 1\npanes:\n  - title: A\n    resource: /a\n"
        case "complex key": return head + "service:\n  baseURL: https://x.test/\n  ? *i\n  : 1\npanes:\n  - title: A\n    resource: /a\n"
        default: return head + "panes: [ { title: A, resource: /a, fields: *i } ]\nservice: { baseURL: \"https://x.test/\" }\n"
        }
    }

    @Test(arguments: ["body", "headers", "unused", "alias key", "complex key", "flow"])
    func anAliasBombIsRefusedAtOnce(place: String) {
        let found = problems(Self.laughs(at: place))
        #expect(found.count == 1, "\(place): \(found)")
        let message = found.first ?? ""
        #expect(message.contains("expands to more than") || message.contains("cannot be a key") || message.contains("complex mapping keys"), "\(place): \(message)")
    }

    /// With Windows or old Mac line ends the guard saw one long line and missed the alias key: the
    /// parser then hashed the key's 9⁹ values and never finished.
    @Test(arguments: ["body", "headers", "unused", "alias key", "complex key", "flow"], ["\r\n", "\r", "\u{85}", "\u{2028}"])
    func anAliasBombWithOtherLineEndsIsRefusedTheSameWay(place: String, lineEnd: String) {
        let text = Self.laughs(at: place)
        // The budget is the file's size, which the extra bytes change.
        func shape(_ found: [String]) -> [String] {
            found.map { $0.replacingOccurrences(of: #"more than \d+ values"#, with: "more than N values", options: .regularExpression) }
        }
        let found = problems(text.replacingOccurrences(of: "\n", with: lineEnd))
        #expect(found.count == 1 && shape(found) == shape(problems(text)), "\(place), \(lineEnd.unicodeScalars.map { $0.value }): \(found)")
    }

    @Test func keyProblemsAreReportedAtTheirLineAndCharacter() {
        let service = "service:\r\n  baseURL: https://x.test/\r\n"
        #expect(problems(service + "  headers: { X-Émoji-é: \"👍🏽\", *a : 1 }\r\npanes: []\r\n")
            == ["h.yaml:3:30: an alias (*a) cannot be a key; use a plain name"], "columns count characters, not scalars")
        #expect(problems(service + "  ?\r  : 1\rpanes: []\r")
            == ["h.yaml:3:3: complex mapping keys (? …) are not supported; use plain names as keys"], "a ? at the end of a line")
        #expect(!problems(service + "  headers:\r\n    X-Note: |\r\n      *x : 1\r\npanes: []\r\n").contains { $0.contains("alias") },
            "a block scalar's text is not a key")
    }

    @Test func ordinaryAnchorsAndAliasesStillWork() throws {
        let spec = try ConfigLoader.parse("""
            service:
              baseURL: https://x.test/
              headers: &auth
                Authorization: Bearer abc
            configure:
              - pattern: /a/**
                headers: *auth
            panes:
              - title: Search
                resource: /search
                method: POST
                body: &query { q: "status:failed", page: 1 }
              - title: Search again
                resource: /search2
                method: POST
                body: *query
              - title: Notes
                resource: /notes
                method: POST
                body: |
                  ? this is text, not a key
                  *so : is this
              - title: "Quoted *x : not an alias"
                resource: /q
            """, file: "h.yaml", environment: [:])
        #expect(spec.configure[0].headers.map(\.name) == ["Authorization"])
        #expect(spec.panes[1].body?.json == ["q": "status:failed", "page": 1])
        #expect(spec.panes[2].body?.json == .string("? this is text, not a key\n*so : is this\n"))
        #expect(spec.panes[3].title == "Quoted *x : not an alias")
    }
}
