import Dashboard
import DashboardConfig
import DashboardKeys
import DashboardTesting
import Foundation
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// The zoom's views, as text pictures: response, request, timing, error; keys and search.
@MainActor
@Suite struct ZoomViewTests {
    let h: DashboardHarness

    init() throws {
        h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
              headers:
                Authorization: Bearer s3cr3t-token
                X-Team: payments
            panes:
              - title: Orders
                resource: /orders
                every: 1s
                method: POST
                body: { json: { state: open, limit: 2 } }
                show: value
                select: count
            """, columns: 72, rows: 22)
    }

    func stubOrders(status: Int = 200, body: String = #"{"count":2,"echo":"Bearer s3cr3t-token"}"#) {
        var response = FakeNetworkingProvider.FakeResponse.json(body, status: status, headers: ["X-Request-Id": "abc-123"])
        response.timing = TransferTiming(nameLookup: 0.001, connect: 0.003, tlsHandshake: 0.012, firstByte: 0.040, total: 0.0415)
        h.stub("orders", response, method: .post)
    }

    func zoom(_ key: KeyEvent) async throws -> [String] {
        h.app.start()
        try await h.settle()
        try await h.press(.enter)
        return try await h.press(key)
    }

    @Test func theResponseViewShowsTheStatusLineHeadersAndThePrettyBodyRedacted() async throws {
        stubOrders()
        let screen = try await zoom(.character("2"))
        #expect(Array(screen[1...12]) == [
            "┌ Orders · response ──────────────────────────────── 200 · 42 ms · now ┐",
            "│ HTTP 200 OK                                                          │",
            "│ POST https://api.test/orders · 42 ms · 40 B · now                    │",
            "│                                                                      │",
            "│ content-type: application/json                                       │",
            "│ x-request-id: abc-123                                                │",
            "│                                                                      │",
            "│ {                                                                    │",
            "│   \"count\": 2,                                                        │",
            "│   \"echo\": \"•••\"                                                      │",
            "│ }                                                                    │",
            "│                                                                      │",
        ])
        #expect(screen.last?.contains("[2 response]") == true)
        #expect(!screen.joined().contains("s3cr3t"))
    }

    @Test func theRequestViewShowsMethodURLHeadersAndBodyWithSecretsRedacted() async throws {
        stubOrders()
        let screen = try await zoom(.character("3"))
        #expect(Array(screen[1...11]) == [
            "┌ Orders · request ───────────────────────────────── 200 · 42 ms · now ┐",
            "│ POST https://api.test/orders                                         │",
            "│                                                                      │",
            "│ Authorization: •••                                                   │",
            "│ Content-Type: application/json                                       │",
            "│ X-Team: payments                                                     │",
            "│                                                                      │",
            "│ {                                                                    │",
            "│   \"state\": \"open\",                                                   │",
            "│   \"limit\": 2                                                         │",
            "│ }                                                                    │",
        ])
    }

    /// The request view says what is sent: the URL as written and, when it differs, as sent
    /// (after `${VAR}`, its secrets masked); a login's own header and scheme; a body member
    /// named like a credential masked in its own place, the ordinary ones as written.
    @Test func theRequestViewDescribesTheRequestAsItIsSent() async throws {
        let h = try DashboardHarness("""
            services:
              devpi:
                baseURL: https://devpi.test/
                auth: { login: { resource: /+login, body: { json: { user: ops, password: "${PW}" } }, token: token, header: X-Devpi-Auth, scheme: Devpi } }
            panes:
              - title: Search
                service: devpi
                resource: /root/search
                method: POST
                params: { q: "${QUERY}", key: plain }
                body: { key: alpha, api_key: literal-1 }
            """, columns: 72, rows: 16, environment: ["PW": "pw-1", "QUERY": "web server", "PATH": "/usr/bin:/bin"])
        h.network.stub(.post, "https://devpi.test/+login", .json(#"{"token":"tok-77"}"#))
        h.network.stub(.post, "https://devpi.test/root/search?q=web%20server&key=plain", .json(#"{"count":1}"#))
        h.app.start()
        try await h.settle()
        try await h.settle()
        try await h.press(.enter)
        let screen = try await h.press(.character("3"))
        #expect(Array(screen[1...11]) == [
            "┌ Search · request ────────────────────────────────── 200 · 0 ms · now ┐",
            "│ POST https://devpi.test/root/search?q=${QUERY}&key=plain             │",
            "│ sent as https://devpi.test/root/search?q=•••&key=•••                 │",
            "│                                                                      │",
            "│ Content-Type: application/json                                       │",
            "│ X-Devpi-Auth: Devpi ••• (from the service's login, renewed as it ex… │",
            "│                                                                      │",
            "│ {                                                                    │",
            "│   \"key\": \"•••\",                                                      │",
            "│   \"api_key\": \"•••\"                                                   │",
            "│ }                                                                    │",
        ], "\(screen.joined(separator: "\n"))")
    }

    @Test func theTimingViewShowsLibcurlsPhasesAndTheHistory() async throws {
        stubOrders()
        h.app.start()
        try await h.settle()
        h.stub("orders", .failure(TransportError(.cannotConnectToHost)), method: .post)
        try await h.advance(1)
        stubOrders()
        try await h.advance(2)
        try await h.press(.enter)
        let screen = try await h.press(.character("4"))
        #expect(Array(screen[2...12]) == [
            "│ Last probe: 200 · 42 ms · now                                        │",
            "│   DNS         1 ms                                                   │",
            "│   connect     3 ms                                                   │",
            "│   TLS         12 ms                                                  │",
            "│   first byte  40 ms                                                  │",
            "│   total       42 ms                                                  │",
            "│   (each phase from the start of the transfer)                        │",
            "│                                                                      │",
            "│ History: last 4 probes over 3 s                                      │",
            "│   uptime      75% (3 of 4 ok)                                        │",
            "│   p50 42 ms   p95 42 ms   max 42 ms   (answered probes only)         │",
        ])
        #expect(screen.contains { $0.contains("last 4 probes · 3 ok") }, "the chart under it")
    }

    @Test func aReusedConnectionSaysSoInsteadOfADash() async throws {
        var response = FakeNetworkingProvider.FakeResponse.json(#"{"count":1}"#)
        response.timing = TransferTiming(nameLookup: 0.00001, firstByte: 0.004, total: 0.005)
        h.stub("orders", response, method: .post)
        let screen = try await zoom(.character("4"))
        #expect(screen[4].contains("connect     — (connection reused)"))
        #expect(screen[5].contains("TLS         — (connection reused)"))
    }

    @Test func theErrorViewShowsTheMessageSinceWhenAndTheErrorBody() async throws {
        stubOrders()
        h.app.start()
        try await h.settle()
        stubOrders(status: 503, body: #"{"message":"gateway down","token":"Bearer s3cr3t-token"}"#)
        try await h.advance(1)
        try await h.advance(2)
        try await h.press(.enter)
        let screen = try await h.press(.character("5"))
        #expect(Array(screen[2...11]) == [
            "│ ✗ 503 Service Unavailable · gateway down                             │",
            "│ failing since 06:13:21 (2s ago), 2 probes in a row                   │",
            "│ last good data 3s ago                                                │",
            "│                                                                      │",
            "│ Error body (application/json)                                        │",
            "│ {                                                                    │",
            "│   \"message\": \"gateway down\",                                         │",
            "│   \"token\": \"•••\"                                                     │",
            "│ }                                                                    │",
            "│                                                                      │",
        ])
    }

    @Test func cShowsTheRequestAsACurlCommandAndCopiesItWithoutSecrets() async throws {
        stubOrders()
        let screen = try await zoom(.character("c"))
        #expect(Array(screen[1...11]) == [
            " curl: copied to the clipboard where the terminal allows it (OSC 52); o…",
            "                                                                        ",
            "# ••• marks secrets written in the config itself: fill them in before   ",
            "running.                                                                ",
            "curl -sS -g -X POST \\                                                   ",
            "  -H 'Authorization: •••' \\                                             ",
            "  -H 'X-Team: payments' \\                                               ",
            "  -H 'Content-Type: application/json' \\                                 ",
            "  --data-binary '{\"state\":\"open\",\"limit\":2}' \\                          ",
            "  -L --max-redirs 10 \\                                                  ",
            "  'https://api.test/orders'                                             ",
        ])
        let copied = try #require(h.backend.clipboard.last)
        #expect(copied.hasSuffix("'https://api.test/orders'") && copied.contains("--data-binary"))
        #expect(!copied.contains("s3cr3t") && !screen.joined().contains("s3cr3t"))
        let back = try await h.press(.escape)
        #expect(back.last?.contains("[1 data]") == true, "Esc: back in the zoom")
    }

    @Test func oWithoutATerminalSaysSoInsteadOfFailingSilently() async throws {
        stubOrders()
        var paged: [String] = []
        h.app.onPage = { text in
            paged.append(text)
            return nil
        }
        _ = try await zoom(.character("o"))
        #expect(paged == ["{\n  \"count\": 2,\n  \"echo\": \"•••\"\n}\n"], "the body, redacted and pretty")
        h.app.onPage = { _ in "the pager (false) exited with status 1" }
        let screen = try await h.press(.character("o"))
        #expect(screen.last?.contains("the pager (false) exited with status 1") == true)
        let next = try await h.press(.character("j"))
        #expect(next.last?.contains("exited") == false, "the message goes with the next key")
    }

    @Test func tabCyclesTheViewsAndSearchFindsLines() async throws {
        stubOrders()
        var screen = try await zoom(.tab)
        #expect(screen[1].contains("Orders · response"))
        screen = try await h.press(.backTab, .backTab)
        #expect(screen[1].contains("Orders · changes"), "Shift-Tab goes back round the start")
        screen = try await h.press(.character("2"), .character("/"), .character("r"), .character("e"), .character("q"))
        #expect(screen.last?.contains("search: req▏") == true)
        screen = try await h.press(.enter)
        #expect(screen[2].contains("x-request-id: abc-123"), "scrolled to the first match")
        #expect(h.backend.buffer[2, 2].style.reverse, "the match is highlighted")
        #expect(screen.last?.contains(#"1/1 "req"  n/N next/previous"#) == true, "\(screen.last ?? "")")
        // Which match of how many, as less and k9s say it, counted from where the view is; n goes
        // on, N goes back, and both wrap around the ends.
        screen = try await h.press(.character("/"), .character(":"), .enter)
        func position(_ line: String?) -> (Int, Int)? {
            line?.firstMatch(of: /(\d+)\/(\d+) ":"  n\/N next\/previous/).map { (Int($0.1)!, Int($0.2)!) }
        }
        let (first, count) = try #require(position(screen.last), "\(screen.last ?? "")")
        #expect(count >= 2, "every header line has a colon")
        screen = try await h.press(.character("n"))
        #expect(position(screen.last)?.0 == first % count + 1, "\(screen.last ?? "")")
        screen = try await h.press(.character("N"), .character("N"))
        #expect(position(screen.last)?.0 == (first + count - 2) % count + 1, "\(screen.last ?? "")")
        for _ in 0..<count { screen = try await h.press(.character("n")) }
        #expect(position(screen.last)?.0 == (first + count - 2) % count + 1, "a whole round of n comes back to the same match")
        screen = try await h.press(.character("/"), .character("z"), .character("z"), .enter)
        #expect(screen.last?.contains(#"no match for "zz""#) == true)
        screen = try await h.press(.character("1"))
        #expect(screen[1].contains("┌ Orders ") && !screen[1].contains("· response"), "1: back to the data")
        screen = try await h.press(.escape)
        #expect(!h.app.isZoomed)
    }

    @Test func aZoomedTableSortsByEachColumnAndSearchFindsARow() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: Targets
                resource: /targets
                show: table
                columns: [job, { path: duration, format: duration }]
            """, columns: 60, rows: 10)
        h.stub("targets", .json(#"[{"job":"prometheus","duration":0.5},{"job":"Node","duration":12},{"job":"blackbox"},{"job":"api","duration":"2"}]"#))
        h.app.start()
        try await h.settle()
        var screen = try await h.press(.enter, .character("s"))
        #expect(Array(screen[2...6]) == [
            "│ job ▲       duration                                     │",
            "│ api         2 s                                          │",
            "│ blackbox    —                                            │",
            "│ Node        12 s                                         │",
            "│ prometheus  500 ms                                       │",
        ], "text without case")
        screen = try await h.press(.character("s"), .character("s"))
        #expect(Array(screen[2...6]) == [
            "│ job         duration ▲                                   │",
            "│ prometheus  500 ms                                       │",
            "│ api         2 s                                          │",
            "│ Node        12 s                                         │",
            "│ blackbox    —                                            │",
        ], "numbers as numbers (\"2\" too), missing last")
        screen = try await h.press(.character("s"))
        #expect(screen[3].contains("Node        12 s"), "descending: \(screen[3])")
        #expect(screen[6].contains("blackbox    —"), "missing still last")
        screen = try await h.press(.character("s"))
        #expect(screen[2].hasPrefix("│ job         duration  "), "then as listed")
        #expect(screen[3].contains("prometheus"))
        #expect(screen.last?.contains("s < > sort") == true)
        #expect(screen.last?.trimmingCharacters(in: .whitespaces).hasSuffix("q back") == true, "at 60 columns the way back stays: \(screen.last ?? "")")
        // Any column in one key: < from no sort is the last column; > and < move the sort, keeping its direction.
        screen = try await h.press(.character("<"))
        #expect(screen[2].hasPrefix("│ job         duration ▲"), "\(screen[2])")
        screen = try await h.press(.character("s"), .character(">"))
        #expect(screen[2].hasPrefix("│ job ▼       duration  "), "wrapped to the first column, still descending: \(screen[2])")
        #expect(screen[3].contains("prometheus"))
        screen = try await h.press(.character(">"))
        #expect(screen[2].hasPrefix("│ job         duration ▼"), "\(screen[2])")
        screen = try await h.press(.character("s"))
        #expect(screen[2].hasPrefix("│ job         duration  "), "s goes on from there: as listed after the last column")

        screen = try await h.press(.character("/"), .character("b"), .character("l"), .character("a"), .enter)
        #expect(screen[3].contains("blackbox"), "scrolled to the matching row")
        #expect(h.backend.buffer[2, 3].style.reverse, "and it is highlighted")
        #expect(screen.last?.contains(#"1/1 "bla"  n/N next/previous"#) == true, "\(screen.last ?? "")")
        screen = try await h.press(.escape)
        #expect(!screen[1].contains("zoom") && h.app.isZoomed == false)
        #expect(!h.backend.buffer[2, 3].style.reverse, "no highlight outside zoom")
    }

    @Test func aBodyWithControlCharactersReachesNeitherScreenNorClipboardRaw() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: A, resource: /a, method: POST, body: { text: "a\\u001B]52;c;ZXZpbA==\\u0007b" } }
            """, columns: 80, rows: 12)
        h.stub("a", .json("{}"), method: .post)
        h.app.start()
        try await h.settle()
        try await h.press(.character("c"))
        let copied = try #require(h.backend.clipboard.last)
        #expect(copied.contains("--data-binary 'a␛]52;c;ZXZpbA==␇b'"), "\(copied)")
        #expect(!copied.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func theResponseViewMasksTheCredentialsAServerHandsOut() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: Login, resource: /login }
            """, columns: 72, rows: 14)
        h.stub("login", .json("{}", headers: ["Set-Cookie": "sid=abc123def; Path=/; HttpOnly", "X-Subject-Token": "gAAAAABk-token", "X-Request-Id": "r-1"]))
        h.app.start()
        try await h.settle()
        try await h.press(.enter)
        let screen = try await h.press(.character("2")).joined(separator: "\n")
        #expect(screen.contains("set-cookie: sid=•••; Path=/; HttpOnly"), "\(screen)")
        #expect(screen.contains("x-subject-token: •••"))
        #expect(screen.contains("x-request-id: r-1"))
        #expect(!screen.contains("abc123def") && !screen.contains("gAAAAABk-token"))
        h.app.stop()
    }
}
