import DashboardConfig
import Foundation
import HammockHarness
import ResourceEngine
import Testing

/// Expectations that say anything a check needs: tests joined by `&&`, `||`, `not` and
/// parentheses, `exists`, text tests, lengths, types, lists, dates, and Gatus's forms as Gatus
/// writes them. A failure names the test that failed and what was there.
@Suite struct ExpressionTests {
    /// 2026-11-27T12:00:00Z.
    static let now = 1_795_780_800.0
    let observation = Expectation.Observation(
        statusCode: 204, latency: 0.120,
        body: try! JSONParser.parse(#"""
            {"state":"up","name":"Alice","total":12.5,"items":[{"id":1,"state":"up"},{"id":2,"state":"down"}],
             "updated":"2026-11-27T11:58:00Z","old":"2026-11-27T10:00:00+01:00","tags":{},"none":null}
            """#),
        headers: ["etag": "\"v1\"", "content-type": "application/json"], certificateExpiresIn: 3 * 86_400, now: now)

    func check(_ text: String) throws -> String? { try Expectation(text).failure(in: observation) }

    @Test func everyNewTestHolds() throws {
        for holds in [
            "status >= 200 && status < 300", "status == 200 || status == 204", "not status == 500", "!(status == 500)",
            "(status == 200 || status == 204) && body.state == up", "not (body.state == down || body.state == failing)",
            "body.items exists", "header.etag exists", "body.missing not exists", "header.x-missing not exists",
            "body.name startsWith Al", "body.name endsWith ice", "header.content-type startsWith application/",
            "body.state =~ ^(up|ok)$ && status == 204", "len(body.items) == 2", "count(body.items) > 1", "len(body.name) == 5",
            "len(body.tags) == 0", "body.items.count == 2", "body.total isNumber", "body.items isList", "body.tags isObject",
            "body.name isString", "body.none isNull", "body.items[0].id isNumber", "status in [200, 204]", "body.state in [up, \"ok\"]",
            "body.updated > now - 5m", "body.updated < now", "body.old < now - 1h", "body.updated > 2025-11-01",
            "body.updated < 2027-01-01T00:00:00Z", "latency < 300ms && (tls.expires > 2d)",
        ] {
            #expect(try check(holds) == nil, "\(holds)")
        }
    }

    @Test func aFailureNamesThePartThatFailedAndWhatWasThere() throws {
        #expect(try check("status >= 200 && status < 204") == "expected status < 204, got 204")
        #expect(try check("status == 200 || status == 201") == "none held: expected status == 200, got 204; expected status == 201, got 204")
        #expect(try check("not (body.state == up)") == "expected not (body.state == up), but body.state == up holds")
        #expect(try check("body.items[1].state == up") == #"expected body.items[1].state == up, got "down""#)
        #expect(try check("body.missing exists") == #"expected body.missing exists, but body.missing: no member "missing" at the top level"#)
        #expect(try check("header.etag not exists") == #"expected header.etag not exists, got ""v1"""#)
        #expect(try check("body.items isString") == #"expected body.items isString, got [{"id":1,"state":"up"},{"id":2,"state":"down"}]"#)
        #expect(try check("len(body.total) > 1") == "expected len(body.total) > 1, but body.total is a number, which has no length")
        #expect(try check("status in [200, 201]") == "expected status in [200, 201], got 204")
        #expect(try check("body.updated > now - 1m") == #"expected body.updated > now - 1m, got "2026-11-27T11:58:00Z""#)
        #expect(try check("body.name startsWith Bo") == #"expected body.name startsWith Bo, got "Alice""#)
    }

    @Test func gatusConditionsMoveOverByCopy() throws {
        for holds in [
            "[STATUS] == 204", "[RESPONSE_TIME] < 300", "[RESPONSE_TIME] < 1s", "[BODY].state == up", "[BODY].items[0].id == 1",
            "len([BODY].items) > 0", "[CERTIFICATE_EXPIRATION] > 48h", "[BODY].name == pat(A*e)", "[STATUS] == any(200, 204)",
            "[BODY].state != any(down, failing)", "[CONNECTED] == true", "[STATUS] < 300 && [RESPONSE_TIME] < 500",
        ] {
            #expect(try check(holds) == nil, "\(holds)")
        }
        #expect(try check("[RESPONSE_TIME] < 100") == "expected [RESPONSE_TIME] < 100, got 120 ms", "Gatus counts milliseconds")
        #expect(try check("[BODY].name == pat(B*)") == #"expected [BODY].name == pat(B*), got "Alice""#)
        let refused = Expectation.Observation(statusCode: nil, latency: nil, body: nil, headers: [:])
        #expect(try Expectation("[CONNECTED] == true").failure(in: refused) == "expected [CONNECTED] == true, got false")
    }

    @Test func mistakesAreFoundWhereTheyAre() {
        let cases: [(String, String, Int)] = [
            ("status >= 200 && status < OK", "status is compared with a number, e.g. status == 200", 26),
            ("(status == 200", "missing ')' for the '(' at 1", 14),
            ("status == 200 &&", "expected status, latency, body… or header.NAME at the start", 16),
            ("status == 200 ) ", "expected && or || but found \")\"", 14),
            ("[DOMAIN_EXPIRATION] > 1h", "Hammock reads Gatus's [STATUS], [RESPONSE_TIME], [BODY], [CERTIFICATE_EXPIRATION] and [CONNECTED], not [DOMAIN_EXPIRATION]", 0),
            ("status in 200", "in needs a list, e.g. in [200, 204]", 10),
            ("status in [200, OK]", "status is compared with a number, e.g. status == 200", 16),
            ("status in [200", "missing ']' at the end of the list", 14),
            ("body.x exists please", "nothing may follow exists but && or ||", 14),
            ("len(status) > 1", "len counts a body's list, object or text, or a header's text", 4),
            ("len(body.items) > many", "a length is compared with a number, e.g. len(body.items) > 0", 18),
            ("body.updated > now - soon", "now - needs a duration with its unit, e.g. now - 5m", 15),
        ]
        for (text, message, offset) in cases {
            do {
                _ = try Expectation(text)
                Issue.record("expected an error for \(text)")
            } catch {
                #expect(error.message == message, "\(text): \(error.message)")
                #expect(error.offset == offset, "\(text): \(error.offset)")
            }
        }
    }

    /// A status range reads the status alone, so an error answer in it is judged by it.
    @Test func aStatusRangeJudgesErrorAnswers() throws {
        let range = try Expectation("status >= 400 && status < 500")
        #expect(range.readsOnlyStatus && range.readsStatus)
        let mixed = try Expectation("status == 404 && body.error exists")
        #expect(!mixed.readsOnlyStatus && mixed.readsStatus)
        let spec = try ConfigLoader.parse(
            "service: { baseURL: \"https://x.test/\" }\npanes:\n  - { title: A, resource: /a, expect: [\"status >= 400 && status < 500\"] }\n",
            file: "h.yaml", environment: [:])
        #expect(spec.panes[0].expectsStatus)
    }

    @Test func datesReadAsRFC3339() {
        #expect(DateText.seconds("2026-11-27T12:00:00Z") == Self.now)
        #expect(DateText.seconds("2026-11-27T13:30:00+01:30") == Self.now)
        #expect(DateText.seconds("2026-11-27 12:00:00.5Z") == Self.now + 0.5)
        #expect(DateText.seconds("2026-11-27") == Self.now - 12 * 3_600)
        #expect(DateText.seconds("1969-12-31T23:59:59Z") == -1)
        for text in ["2026-13-01", "2026-11-27T12:00", "2026-11-27T12:00:00", "27/11/2026", "2026-11-27T12:00:00+0100", "soon"] {
            #expect(DateText.seconds(text) == nil, "\(text)")
        }
    }

    /// README's example expectations load as a pane's, and a mistake in one is at its line:col.
    @Test func readmesExamplesLoadAndMistakesPointIntoTheText() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "An expectation can say more than one comparison:\n\n```yaml\nexpect:\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let items = readme[start.upperBound..<end.lowerBound].split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let config = "service: { baseURL: \"https://x.test/\" }\npanes:\n  - title: A\n    resource: /a\n    expect:\n" + items + "\n"
        let spec = try ConfigLoader.parse(config, file: "r.yaml", environment: [:])
        #expect(spec.panes[0].expect.count == 10)
        do {
            _ = try ConfigLoader.parse(
                "service: { baseURL: \"https://x.test/\" }\npanes:\n  - { title: A, resource: /a, expect: [\"status >= 200 && status < OK\"] }\n",
                file: "r.yaml", environment: [:])
            Issue.record("loaded")
        } catch {
            #expect(error.problems.map(\.description) == ["r.yaml:3:67: expect: status is compared with a number, e.g. status == 200"])
        }
    }

    /// Mangled expectations never crash the parser or the evaluator, and every error points
    /// inside the text.
    @Test func mangledExpectationsAreProblemsNeverCrashes() {
        let seeds = [
            "status >= 200 && (body.items[0].state in [up, \"ok\"] || not body.x exists)", "len([BODY].items) > 0 && [STATUS] == any(200, 204)",
            "body.updated > now - 5m || header.etag =~ ^\"v[0-9]+\"$", "!(body.a isNumber) && body.b startsWith x",
        ]
        let pieces = ["(", ")", "[", "]", "&&", "||", "!", "not ", "\"", "'", ",", " ", "exists", "in", "==", "=~", "len(", "now", "-", "5m", "[BODY]", ".", "\\"]
        var random = SeededRandom(seed: 48)
        for seed in seeds {
            for _ in 0..<300 {
                var chars = Array(seed)
                for _ in 0..<Int(random.next() % 4 + 1) {
                    let at = Int(random.next() % UInt64(chars.count + 1))
                    if random.next() % 2 == 0, !chars.isEmpty {
                        chars.remove(at: min(at, chars.count - 1))
                    } else {
                        chars.insert(contentsOf: pieces[Int(random.next() % UInt64(pieces.count))], at: at)
                    }
                }
                let text = String(chars)
                do {
                    let expectation = try Expectation(text)
                    _ = expectation.failure(in: observation)
                } catch {
                    #expect((0...text.count).contains(error.offset), "\(text): \(error.offset)")
                }
            }
        }
    }
}
