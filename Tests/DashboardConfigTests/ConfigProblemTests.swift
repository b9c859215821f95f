import Foundation
import DashboardConfig
import Testing

/// One fixture per kind of mistake, with the exact messages and positions a user sees.
@Suite struct ConfigProblemTests {
    private func problems(_ text: String, file: String = "hammock.yaml", environment: [String: String] = [:]) -> [String] {
        do {
            _ = try ConfigLoader.parse(text, file: file, environment: environment)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// Every pane the file declares is either loaded or a problem: an `expect:` entry that is a
    /// mapping once made a pane vanish while `check` said ✓.
    @Test func noPaneVanishesWithoutAProblem() {
        #expect(problems("service: { baseURL: https://x.test/ }\npanes:\n  - { title: A, resource: /a, expect: [ { schema: x.json } ] }\n") == [
            #"hammock.yaml:3:41: expect: each condition is text like "status == 200", not a mapping"#
        ])
        // Any key of a pane, given a mapping or a list where it takes something else.
        let keys = ["title", "resource", "params", "method", "body", "every", "show", "fields", "columns", "select", "overlay", "history", "expect",
            "headers", "timeout", "auth", "service", "pipeline", "format", "decimals", "thresholds", "alerts", "backoff"]
        for key in keys {
            for odd in ["{ x: 1 }", "[ { x: 1 } ]", "[ [1] ]", "~"] {
                var fields = ["title: A", "resource: /a"].filter { !$0.hasPrefix(key + ":") }
                fields.append("\(key): \(odd)")
                let text = "service: { baseURL: https://x.test/ }\npanes:\n  - { \(fields.joined(separator: ", ")) }\n  - { title: B, resource: /b }\n"
                do {
                    let spec = try ConfigLoader.parse(text, file: "hammock.yaml", environment: [:])
                    #expect(spec.panes.count == 2, "\(key): \(odd) loaded \(spec.panes.count) of 2 panes and said nothing")
                } catch {
                    #expect(!error.problems.isEmpty)
                }
            }
        }
    }

    /// A problem is one line whatever the value it quotes holds: a config cannot forge a line of
    /// `check`'s output.
    @Test func aProblemIsOneLineWhateverTheValueHolds() {
        let found = problems("service: { baseURL: https://x.test/ }\npanes:\n  - { title: A, resource: /a, show: \"x\\n✓ hammock.yaml: 1 pane\\u2028✓\" }\n")
        #expect(found.count == 1)
        #expect(found.first?.contains("\n") == false && found.first?.contains("\u{2028}") == false)
        #expect(found.first?.hasPrefix(#"hammock.yaml:3:37: unknown show mode "x␤✓ hammock.yaml: 1 pane␤✓""#) == true, "\(found)")
    }

    /// `mouse:` is on by default, off with `false`, and anything but a boolean is a problem.
    @Test func mouseIsOnUnlessTheConfigSaysFalse() throws {
        let panes = "service: { baseURL: https://x.test/ }\npanes:\n  - { title: A, resource: /a }\n"
        #expect(try ConfigLoader.parse(panes, file: "hammock.yaml", environment: [:]).mouse)
        #expect(try !ConfigLoader.parse("mouse: false\n" + panes, file: "hammock.yaml", environment: [:]).mouse)
        #expect(problems("mouse: sometimes\n" + panes).first?.hasPrefix("hammock.yaml:1:8: mouse") == true, "\(problems("mouse: sometimes\n" + panes))")
    }

    @Test func layoutColumnsAndPaneSizes() throws {
        let text = "service: { baseURL: https://x.test/ }\npanes:\n  - { title: A, resource: /a, size: full }\n  - { title: B, resource: /b, size: 2 }\n  - { title: C, resource: /c }\nlayout: { columns: auto }\n"
        let spec = try ConfigLoader.parse(text, file: "hammock.yaml", environment: [:])
        #expect(spec.panes.map(\.size) == [.full, .columns(2), .columns(1)])
        #expect(spec.layout.autoColumns)
        #expect(problems(text.replacingOccurrences(of: "size: 2", with: "size: big")) == [
            #"hammock.yaml:4:37: size must be full or a number of columns (1 to 12), not "big""#
        ])
        #expect(problems(text.replacingOccurrences(of: "columns: auto", with: "columns: wide")) == [
            #"hammock.yaml:6:20: layout.columns must be auto or a number of columns (1 to 12), not "wide""#
        ])
        #expect(problems(text.replacingOccurrences(of: "size: 2", with: "size: 13")) == ["hammock.yaml:4:37: size must be between 1 and 12, not 13"])
    }

    @Test func themesByNameOrWithRolesOverBase() throws {
        let panes = "service: { baseURL: https://x.test/ }\npanes:\n  - { title: A, resource: /a }\n"
        #expect(try ConfigLoader.parse(panes, file: "hammock.yaml", environment: [:]).theme == ThemeSpec())
        #expect(try ConfigLoader.parse("theme: high-contrast\n" + panes, file: "hammock.yaml", environment: [:]).theme == ThemeSpec(base: .highContrast))
        #expect(try ConfigLoader.parse("theme: { base: light, ok: 22 }\n" + panes, file: "hammock.yaml", environment: [:]).theme == ThemeSpec(base: .light, roles: [.ok: 22]))
        #expect(problems("theme: lihgt\n" + panes) == [#"hammock.yaml:1:8: unknown theme "lihgt" (one of terminal, dark, light, high-contrast, none) (did you mean "light"?)"#])
        #expect(problems("theme: { base: dark, ok: 300 }\n" + panes) == ["hammock.yaml:1:26: theme.ok (a 256-colour index) must be between 0 and 255, not 300"])
        #expect(problems("theme: { base: dark, good: 3 }\n" + panes).first?.contains("good") == true)
    }

    @Test func emptyFile() {
        #expect(problems("") == ["hammock.yaml:1:1: the file is empty; it needs at least service.baseURL and one pane"])
        #expect(problems("# only a comment\n") == ["hammock.yaml:1:1: the file is empty; it needs at least service.baseURL and one pane"])
    }

    @Test func yamlSyntaxPointsAtTheProblemAndWhereItStarted() {
        #expect(problems("title: x\npanes:\n  - title: [unclosed\n") == [
            "hammock.yaml:4:1: YAML syntax: did not find expected ',' or ']' (while parsing a flow sequence that starts at line 3, column 12)"
        ])
        #expect(problems("a: b\n  c: d\n").first?.hasPrefix("hammock.yaml:2:4: YAML syntax:") == true)
    }

    @Test func unknownKeysSuggestTheIntendedOne() {
        let text = """
            title: Shop
            servce:
              baseURL: https://x.test/
            panes:
              - title: A
                resource: /a
                evry: 5s
            """
        #expect(problems(text) == [
            #"hammock.yaml:2:1: unknown key "servce" in the file (did you mean "service"?)"#,
            #"hammock.yaml:6:15: resource "/a" is a path, so service.baseURL is needed"#,
            #"hammock.yaml:7:5: unknown key "evry" in a pane (did you mean "every"?)"#,
        ])
    }

    @Test func wrongTypesAndBadDurations() {
        let text = """
            service:
              baseURL: https://x.test/
              expiration: soon
              timeout: 0s
            panes:
              - title: A
                resource: /a
                every: 10ms
                show: fields
                fields: status
              - title: B
                resource: [a, b]
            layout:
              columns: 40
            """
        #expect(problems(text) == [
            #"hammock.yaml:3:15: service.expiration: "soon" is not a duration (use e.g. 250ms, 5s, 2m, 1h)"#,
            "hammock.yaml:4:12: service.timeout must be at least 1ms, not 0s",
            "hammock.yaml:8:12: every must be at least 100ms, not 10ms",
            "hammock.yaml:12:15: resource must be text, not a list",
            "hammock.yaml:14:12: layout.columns must be between 1 and 12, not 40",
        ])
    }

    @Test func showModesFieldsColumnsAndDuplicateTitles() {
        let text = """
            service:
              baseURL: https://x.test/
            panes:
              - title: A
                resource: /a
                show: tabel
              - title: B
                resource: /b
                show: table
                fields: [a]
              - title: C
                resource: /c
                show: value
                columns: [a]
              - title: A
                resource: /d
            """
        #expect(problems(text) == [
            #"hammock.yaml:6:11: unknown show mode "tabel" (one of fields, table, text, json, value) (did you mean "table"?)"#,
            "hammock.yaml:10:5: fields only apply to show: fields (this pane shows table; use columns)",
            "hammock.yaml:14:5: columns only apply to show: table (this pane shows value)",
            #"hammock.yaml:15:12: duplicate pane title "A" (first used on line 4)"#,
        ])
    }

    @Test func patternsMethodsStagesAndTransformers() {
        let text = """
            service:
              baseURL: https://x.test/
            configure:
              - pattern: /a/***
                methods: [GET, FETCH]
                pipeline:
                  modle: [json]
                  model:
                    - { selct: items }
                    - { regex: "(unclosed" }
                    - { limit: -1 }
                    - { select: "items[" }
                    - limit
              - methods: [GET]
            panes:
              - title: A
                resource: /a
            """
        #expect(problems(text) == [
            #"hammock.yaml:4:14: pattern "/a/***": *** is not a wildcard (use * within a segment or ** across segments)"#,
            #"hammock.yaml:5:14: unknown method "FETCH""#,
            #"hammock.yaml:7:7: unknown pipeline stage "modle" (did you mean "model"?)"#,
            #"hammock.yaml:9:13: unknown transformer "selct" (did you mean "select"?)"#,
            #"hammock.yaml:10:20: regex: missing ")" at character 10 in "(unclosed""#,
            "hammock.yaml:11:20: limit must be between 0 and 1000000, not -1",
            #"hammock.yaml:12:21: select: invalid path "items[": missing ']' at position 6"#,
            "hammock.yaml:13:11: limit needs a number, e.g. { limit: 10 }",
            "hammock.yaml:14:5: a configure block needs a pattern (e.g. pattern: /orders/**)",
        ])
    }

    @Test func environmentAndBodyProblems() {
        let text = """
            service:
              baseURL: ${BASE}
              headers:
                Authorization: Bearer ${TOKEN
                X-Key: ${API_KEY}
            panes:
              - title: A
                resource: /a
                method: GET
                body: { q: 1 }
            """
        #expect(problems(text, environment: ["BASE": "https://x.test/"]) == [
            "hammock.yaml:4:20: service.headers.Authorization: unterminated ${ in value",
            "hammock.yaml:5:12: service.headers.X-Key: environment variable API_KEY is not set (use ${API_KEY:-default} for a fallback)",
            "hammock.yaml:10:5: body needs method POST, PUT or PATCH (this pane uses GET)",
        ])
    }

    @Test func headerValuesFromTheEnvironmentStayOnOneLine() {
        let text = """
            service:
              baseURL: https://x.test/
              headers:
                Authorization: Bearer ${TOKEN}
                X-Key: ${KEY}
                X-Ok: ${OK}
            panes:
              - title: A
                resource: /a
            """
        // A token read from a file often ends in a line break; sent as is, it would end the header.
        #expect(problems(text, environment: ["TOKEN": "abc\r\n", "KEY": "k\u{1B}[2J", "OK": "a\tb"]) == [
            "hammock.yaml:4:20: service.headers.Authorization must be on one line",
            "hammock.yaml:5:12: service.headers.X-Key contains a control character",
        ])
    }

    @Test func resourcesNeedABaseURLOrAnHTTPURL() {
        let text = """
            panes:
              - title: A
                resource: /a
              - title: B
                resource: ftp://x.test/b
              - title: C
                resource: https://elsewhere.test/c
            """
        #expect(problems(text) == [
            #"hammock.yaml:3:15: resource "/a" is a path, so service.baseURL is needed"#,
            #"hammock.yaml:5:15: resource "ftp://x.test/b" must be a path or an http(s) URL"#,
        ])
    }

    @Test func whatCannotBeSentAsWrittenIsAProblemAtItsPlace() {
        let text = """
            service:
              baseURL: https://x.test/v2/
            panes:
              - { title: A, resource: "/orders#open" }
              - { title: B, resource: /search?q=100% }
              - { title: C, resource: "/a\\u0007b" }
              - { title: D, resource: "https://elsewhere.test/x#frag" }
              - { title: E, resource: "/fine/a%2Fb?q=x%20y" }
            """
        #expect(problems(text) == [
            #"hammock.yaml:4:27: resource "/orders#open" has a fragment (#open), which is never sent to the server; remove it"#,
            #"hammock.yaml:5:27: resource "/search?q=100%" has a % that starts no escape (write %25 for a literal %)"#,
            "hammock.yaml:6:27: resource \"/a\u{07}b\" contains a control character (U+0007)",
            #"hammock.yaml:7:27: resource "https://elsewhere.test/x#frag" has a fragment (#frag), which is never sent to the server; remove it"#,
        ])
        #expect(problems("service:\n  baseURL: https://x.test/v2/#top\npanes:\n  - { title: A, resource: \"https://y.test/\" }\n") == [
            #"hammock.yaml:2:12: service.baseURL "https://x.test/v2/#top" has a fragment (#top), which is never sent to the server; remove it"#
        ])
    }

    @Test func checkShowsEachURLAsItIsSent() throws {
        let spec = try ConfigLoader.parse("""
            service:
              baseURL: https://x.test/v2?ignored=1
            panes:
              - { title: A, resource: "/search/a%2Fb?q=x%20y", params: { page: "2" } }
              - { title: B, resource: "/files/my report" }
            """, file: "hammock.yaml", environment: [:])
        #expect(spec.redactedSummary.contains(#"pane "A": GET https://x.test/v2/search/a%2Fb?q=x%20y&page=2 every 5s"#))
        #expect(spec.redactedSummary.contains(#"pane "B": GET https://x.test/v2/files/my report every 5s"#))
        #expect(spec.url(for: spec.panes[1]) == "https://x.test/v2/files/my%20report")
    }

    @Test func missingPanesAndNonMappingRoot() {
        #expect(problems("title: x\n") == ["hammock.yaml:1:1: the file has no panes; add a panes: list"])
        #expect(problems("- a\n- b\n") == [#"hammock.yaml:1:1: the file must be a mapping (key: value), not a list"#])
        #expect(problems("service:\n  baseURL: https://x.test/\npanes: []\n") == ["hammock.yaml:3:8: panes is empty; add at least one pane"])
    }

    @Test func aMissingOrUnreadableFileIsAProblemToo() {
        do {
            _ = try ConfigLoader.load(path: "/nonexistent/hammock.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/hammock.yaml:1:1: no such file")
        }
    }

    @Test func neverCrashesOnOddInput() {
        let odd = ["{", "]", ": :", "\u{0}", "panes: 3", "panes: [1, [2], {a: b}]", "service: [1]", "&a [*a]", "panes:\n  - *x\n",
                   "panes:\n  - title: a\n    resource: /a\n    body: &x [*x]\n", String(repeating: "[", count: 2000)]
        for text in odd {
            #expect(!problems(text).isEmpty, "\(text.prefix(20))")
        }
    }
}

/// `fields`, `columns`, `format` and `thresholds` mistakes, with their positions.
extension ConfigProblemTests {
    @Test func columnWidthsAreColumnsSharesOrFill() throws {
        let spec = try ConfigLoader.parse("""
            service: { baseURL: https://x.test/ }
            panes:
              - { title: A, resource: /a, show: table, columns: [{ path: a, width: 30% }, { path: b, width: 12 }, { path: c, width: fill }, d] }
            """, file: "hammock.yaml", environment: [:])
        #expect(spec.panes[0].columns?.map(\.width) == [.share(30), .fixed(12), .fill, .natural])
        #expect(problems("""
            service: { baseURL: https://x.test/ }
            panes:
              - { title: A, resource: /a, show: table, columns: [{ path: a, width: 150% }] }
            """) == ["hammock.yaml:3:72: a width share is 1% to 100%"])
    }

    @Test func badDisplayEntriesAreNamedWhereTheyAre() {
        let text = """
            service: { baseURL: https://x.test/ }
            panes:
              - title: A
                resource: /a
                fields:
                  - { path: size, format: byte }
                  - { path: health, colors: { up: grean } }
                  - { label: Nothing }
                  - { path: x, width: 10, lable: X }
              - title: B
                resource: /b
                show: table
                columns: [{ path: a, width: wide }, { path: "b[", label: B }]
                format: bytes
              - title: C
                resource: /c
                show: value
                thresholds: { warn: "> ", fail: "> 0.9", critical: "> 1" }
              - title: D
                resource: /d
                show: fields
                thresholds: { fail: "> 1" }
            """
        #expect(problems(text) == [
            #"hammock.yaml:6:31: unknown format "byte" (one of number, bytes, percent, duration, age, time) (did you mean "bytes"?)"#,
            #"hammock.yaml:7:39: unknown colour "grean" (one of red, green, yellow, blue, magenta, cyan, white, gray) (did you mean "green"?)"#,
            #"hammock.yaml:8:9: an entry of fields needs a path, e.g. { path: status, label: Status }"#,
            #"hammock.yaml:9:20: width only applies to columns"#,
            #"hammock.yaml:9:31: unknown key "lable" in an entry of fields (did you mean "label"?)"#,
            #"hammock.yaml:13:33: width must be a number of columns, a share like 30%, or fill"#,
            #"hammock.yaml:13:49: columns: "b[" is not a valid path"#,
            #"hammock.yaml:14:5: format applies to show: value (for fields and columns, give each entry its own: { path: size, format: bytes })"#,
            #"hammock.yaml:18:25: thresholds.warn: expected a value after >, e.g. "> 0.8""#,
            #"hammock.yaml:18:46: unknown key "critical" in thresholds"#,
            #"hammock.yaml:22:5: thresholds apply to show: value (this pane shows fields)"#,
        ])
    }
}
