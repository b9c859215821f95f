import DashboardConfig
import Foundation
import ResourceEngine
import Testing

@Suite struct ExpectationTests {
    private let observation = Expectation.Observation(
        statusCode: 200, latency: 0.412,
        body: try! JSONParser.parse(#"{"status":"UP","items":[1,2,3],"meta":{"count":7},"total":"12.50","ok":true,"none":null}"#),
        headers: ["content-type": "application/json; charset=utf-8", "x-region": "eu-west"])

    private func check(_ text: String) throws -> String? {
        try Expectation(text).failure(in: observation)
    }

    @Test func everyOperatorAndOperand() throws {
        for holds in [
            "status == 200", "status != 500", "status < 300", "status <= 200", "status >= 200", "status > 199",
            "latency < 500ms", "latency >= 0.4s", "latency > 400ms", "latency <= 1s",
            "body.status == UP", "body.status != DOWN", #"body.status == "UP""#, "body.items.count == 3", "body.items.count > 0",
            "body.items[0] == 1", "body.meta.count == 7", "body.total == 12.5", "body.total > 12", "body.ok == true",
            "body.none == null", "body.status contains U", "body contains items",
            "header.content-type contains application/json", "header.X-Region == eu-west",
        ] {
            #expect(try check(holds) == nil, "\(holds)")
        }
    }

    @Test func failuresSayWhatWasExpectedAndWhatCame() throws {
        #expect(try check("latency < 300ms") == "expected latency < 300ms, got 412 ms")
        #expect(try check("status == 201") == "expected status == 201, got 200")
        #expect(try check("body.status == DOWN") == #"expected body.status == DOWN, got "UP""#)
        #expect(try check("body.items.count > 5") == "expected body.items.count > 5, got 3")
        #expect(try check("body.status > 3") == #"expected body.status > 3, got "UP""#)
        // etcd's /health answers {"health":"true"}: a string, which the message must not show as a boolean.
        let etcd = Expectation.Observation(statusCode: 200, latency: 0.01, body: ["health": "true"], headers: [:])
        #expect(try Expectation("body.health == true").failure(in: etcd) == #"expected body.health == true, got "true""#)
        #expect(try check("body.ok == false") == "expected body.ok == false, got true")
        #expect(try check("header.x-region == us") == #"expected header.x-region == us, got "eu-west""#)
        #expect(try check("body.missing == 1") == #"expected body.missing == 1, but body.missing: no member "missing" at the top level"#)
        #expect(try check("body.items[7] == 1") == "expected body.items[7] == 1, but body.items[7]: index 7 out of range at items (3 items)")
        #expect(try check("header.etag == x") == "expected header.etag == x, but there is no etag header")
        let noResponse = Expectation.Observation(statusCode: nil, latency: nil, body: nil, headers: [:])
        #expect(try Expectation("status == 200").failure(in: noResponse) == "expected status == 200, got no response")
        #expect(try Expectation("body.a == 1").failure(in: noResponse) == "expected body.a == 1, but the body is neither text nor JSON")
    }

    /// A text body is compared as the pane shows it (without the white space around it); `=~`
    /// and `!~` match it (or any value) with the pipeline's linear-time regex engine.
    @Test func textBodiesAndPatterns() throws {
        let health = Expectation.Observation(statusCode: 200, latency: 0.01, content: "OK\n", headers: [:])
        for holds in ["body == OK", "body != KO", "body contains O", "body =~ ^OK$", #"body =~ "^O?K""#, "body !~ fail", "body matches K"] {
            #expect(try Expectation(holds).failure(in: health) == nil, "\(holds)")
        }
        #expect(try Expectation("body == KO").failure(in: health) == #"expected body == KO, got "OK""#)
        #expect(try Expectation("body =~ ^fail").failure(in: health) == #"expected body =~ ^fail, got "OK""#)
        #expect(try Expectation("body.status == UP").failure(in: health) == "expected body.status == UP, but the body is text, not JSON (body alone compares the text)")
        let truth = Expectation.Observation(statusCode: 200, latency: 0.01, content: Data("true".utf8), headers: [:])
        #expect(try Expectation("body == true").failure(in: truth) == nil, "a text body reads true as written")
        #expect(try check("body.status =~ ^U") == nil)
        #expect(try check("status =~ ^2..$") == nil)
        #expect(try check("body.items.count !~ ^3$") == "expected body.items.count !~ ^3$, got 3")
        do {
            _ = try Expectation("body =~ (unclosed")
            Issue.record("an invalid pattern is a syntax error")
        } catch {
            #expect(error.offset == 8)
            #expect(error.message.hasPrefix("=~: "))
        }
    }

    /// A duration written without its unit is a problem, not 1000 seconds.
    @Test func aDurationWithoutItsUnitIsAProblem() throws {
        for text in ["latency < 1000", "tls.expires > 14"] {
            do {
                _ = try Expectation(text)
                Issue.record("\(text) needs a unit")
            } catch {
                #expect(error.message.contains("write its unit (ms, s, m, h, d)"), "\(error.message)")
            }
        }
        #expect(try Expectation("latency < 1000ms").failure(in: Expectation.Observation(statusCode: 200, latency: 1.3, body: nil, headers: [:]))
            == "expected latency < 1000ms, got 1.3 s")
        let problems: [String]
        do {
            _ = try ConfigLoader.parse("service:\n  baseURL: https://x.test/\n  timeout: 10\npanes:\n  - { title: A, resource: /a, every: 5, expect: [\"latency < 1000\"] }\n", file: "t.yaml")
            problems = []
        } catch {
            problems = error.problems.map(\.description)
        }
        #expect(problems == [
            "t.yaml:3:12: service.timeout: 10 needs a unit (ms, s, m, h or d), e.g. 10s or 10ms",
            "t.yaml:5:38: every: 5 needs a unit (ms, s, m, h or d), e.g. 5s or 5ms",
            "t.yaml:5:61: expect: latency is a duration: write its unit (ms, s, m, h, d), e.g. latency < 1000ms or latency < 1000s",
        ])
    }

    @Test func parseErrorsSayWhereInTheText() {
        let cases: [(String, String, Int)] = [
            ("", "expected status, latency, body… or header.NAME at the start", 0),
            ("stauts == 200", #"unknown operand "stauts"; use status, latency, body.PATH, header.NAME or tls.expires (did you mean "status"?)"#, 0),
            ("status = 200", #"expected an operator (==, !=, <, <=, >, >=, contains, startsWith, endsWith, =~, !~, in, exists, isNumber…) but found "=""#, 7),
            ("status ==", "expected a value after ==", 9),
            ("status == OK", "status is compared with a number, e.g. status == 200", 10),
            ("latency < fast", "latency is compared with a duration, e.g. latency < 300ms", 10),
            ("body.status > UP", "> needs a number, duration or date, not text", 14),
            ("body.items[ == 1", "missing ']'", 10),
            (#"body.a == "open"#, "unterminated quoted value", 10),
            ("header. == 1", "header. needs a header name", 7),
        ]
        for (text, message, offset) in cases {
            do {
                _ = try Expectation(text)
                Issue.record("expected an error for \(text)")
            } catch {
                #expect(error.message == message, "\(text)")
                #expect(error.offset == offset, "\(text)")
            }
        }
    }

    @Test func configReportsExpectationErrorsAtTheirPosition() {
        let text = """
            service:
              baseURL: https://x.test/
            panes:
              - title: A
                resource: /a
                expect: ["status == 200", "latency < soon", body.items.count > 0]
              - title: B
                resource: /b
                expect:
                  - status === 200
            """
        do {
            _ = try ConfigLoader.parse(text, file: "e.yaml")
            Issue.record("expected errors")
        } catch {
            #expect(error.problems.map(\.description) == [
                "e.yaml:6:42: expect: latency is compared with a duration, e.g. latency < 300ms",
                "e.yaml:10:18: expect: status is compared with a number, e.g. status == 200",
            ])
        }
    }
}
