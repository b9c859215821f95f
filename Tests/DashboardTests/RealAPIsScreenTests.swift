import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import HammockHarness
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// Failures lead with their cause, on the pane itself: the status and the body's own message
/// (also where expectations asked for another status), why a pane is degraded, and how old the
/// last answer is when a pane that expects an error status loses its server.
@MainActor
@Suite struct FailuresLeadWithTheirCauseTests {
    @Test func eachPaneSaysWhyOnThePane() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Plain, resource: /a, fields: [status, version] }
              - { title: Expecting, resource: /b, fields: [status, version], expect: ["status == 200"] }
              - { title: Degraded, resource: /c, show: value, select: n, thresholds: { warn: "> 0" } }
              - { title: Unauth, resource: /d, every: 1s, expect: ["status == 401"] }
            layout: { columns: 2 }
            """, columns: 84, rows: 16)
        h.stub("a", .json(#"{"message":"no access to this"}"#, status: 403))
        h.stub("b", .json(#"{"message":"Payment gateway unavailable"}"#, status: 503))
        h.stub("c", .json(#"{"n":1}"#))
        h.stub("d", .json(#"{"message":"who are you"}"#, status: 401))
        h.app.start()
        try await h.settle()
        #expect(h.app.panes[3].probe.verdict == .ok, "the 401 it asks for")
        h.stub("d", .failure(TransportError(.cannotConnectToHost)))
        try await h.advance(1.5)
        #expect(h.screen == [
            " hammock · hammock.yaml · 4 panes  ✓0 ◐1 ✗3 ⟳0                       06:13   ? help ",
            "┌ ▸ Plain ───────── 403 · 500 ms · error ┐┌ Expecting ─────── 503 · 500 ms · error ┐",
            "│ Unable to load data.                   ││ Unable to load data.                   │",
            "│ 403 · no access to this                ││ 503 · Payment gateway unavailable      │",
            "│ [t] Try again      no data yet         ││ [t] Try again      no data yet         │",
            "│                                        ││                                        │",
            "│     no answered probe                  ││     no answered probe                  │",
            "└────────────────────────────────────────┘└────────────────────────────────────────┘",
            "┌ Degraded ─────── 200 · 0 ms · ◐ 1s ago ┐┌ Unauth ── no response · 500 ms · error ┐",
            "│                                        ││ Unable to load data.                   │",
            "│                   1                    ││ Could not connect to the server        │",
            "│                                        ││ [t] Try again      last answer 1s ago  │",
            "│                                        ││                                        │",
            "│ ◐ 1 meets the warn threshold > 0       ││ ▁   p50 0 ms  p95 0 ms                 │",
            "└────────────────────────────────────────┘└────────────────────────────────────────┘",
            " t retry  ⏎ zoom  c curl  r reload  e events  o pager  / filter  s sort  q quit     ",
        ])
    }
}

/// A failing pane backs off: after the first retry it waits twice as long each time, up to its
/// `every` (or its `backoff:`), counted at the server; `t` and `r` still load at once.
@MainActor
@Suite struct BackOffTests {
    @Test func aServerThatIsDownIsNotAskedEverySecond() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
              retry: 1s
            panes:
              - { title: Down, resource: /down, every: 5s }
              - { title: Capped, resource: /capped, every: 1m, backoff: 3s }
            """)
        h.stub("down", .failure(TransportError(.cannotConnectToHost)))
        h.stub("capped", .failure(TransportError(.cannotConnectToHost)))
        h.app.start()
        try await h.settle()
        var down: [Int] = []
        var capped: [Int] = []
        for _ in 0..<24 {
            try await h.advance(0.5)
            down.append(h.network.requestCount(for: h.url("down")))
            capped.append(h.network.requestCount(for: h.url("capped")))
        }
        // Tries at 0, 1, 3, 7 s, then every 5 s (its every): 4 in the first 7 s, not 8.
        #expect(down[13] == 4, "\(down)")
        #expect(down.last == 5, "\(down)")
        // Capped by backoff: 0, 1, 3, 6, 9, 12 s.
        #expect(capped.last == 6, "\(capped)")

        #expect(h.app.selectedPane?.probe.spec.title == "Down")
        let before = h.network.requestCount(for: h.url("down"))
        try await h.press(.character("t"))
        try await h.press(.character("r"))
        #expect(h.network.requestCount(for: h.url("down")) == before + 2, "keys load at once")
    }
}

/// Small truths: a table of plain values, a login that fails in the title bar, a starter that
/// shows what real APIs need.
@MainActor
@Suite struct SmallTruthsTests {
    @Test func aTableOfPlainValuesIsOneColumn() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Jobs, resource: /api/v1/label/job/values, show: table, select: data }
            """, columns: 40, rows: 8)
        h.stub("api/v1/label/job/values", .json(#"{"status":"success","data":["node","prometheus"]}"#))
        h.app.start()
        try await h.settle()
        #expect(h.app.panes[0].probe.verdict == .ok, "\(h.app.panes[0].probe.failure ?? "")")
        #expect(Array(h.screen[1...4]) == [
            "┌ ▸ Jobs ──────────── 200 · 0 ms · now ┐",
            "│ data                                 │",
            "│ node                                 │",
            "│ prometheus                           │",
        ])
    }

    @Test func aFailingLoginShowsInThePanesTitleBar() async throws {
        let h = try DashboardHarness("""
            services:
              shop:
                baseURL: https://shop.test/
                auth: { login: { resource: /login, body: { json: { user: ops, password: "${PW}" } } } }
            panes:
              - { title: Orders, service: shop, resource: /orders, every: 1s }
            """, columns: 60, rows: 8, environment: ["PW": "pw", "PATH": "/usr/bin:/bin"])
        h.network.stub(.post, "https://shop.test/login", .json(#"{"access_token":"t-1"}"#))
        h.network.stub(.get, "https://shop.test/orders", .json("[]"))
        h.app.start()
        try await h.settle()
        try await h.settle()
        #expect(h.screen[1].contains("200 · 0 ms"))
        // The token is refused from now on, and the login with it.
        h.network.stub(.get, "https://shop.test/orders", .json(#"{"error":"expired"}"#, status: 401))
        h.network.stub(.post, "https://shop.test/login", .json(#"{"error":"invalid credentials"}"#, status: 401))
        try await h.advance(1.2)
        try await h.settle()
        #expect(h.screen[1] == "┌ ▸ Orders ────────────────────────── login failed · error ┐", "\(h.screen.joined(separator: "\n"))")
        #expect(h.screen.contains { $0.contains("login failed: 401 invalid credentials") })
    }

    /// The starter file shows services, auth and tls, and what it shows works when uncommented.
    @Test func theStarterShowsServicesAuthAndTLSThatWork() throws {
        let text = StarterConfig.text
        for key in ["# services:", "#   bearer:", "#   login:", "# tls:", "#   clientCert:"] {
            #expect(text.contains(key), "\(key)")
        }
        let directory = ScratchDirectory.path("starter")
        try FileManager.default.createDirectory(atPath: directory + "/certs", withIntermediateDirectories: true)
        for file in ["internal-ca.pem", "me.pem", "me.key"] { try "x".write(toFile: directory + "/certs/" + file, atomically: true, encoding: .utf8) }
        // Uncomment the tls block, the bearer line, the services block and the second pane.
        var lines: [String] = []
        var inside: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if ["# auth:", "# tls:", "# services:"].contains(where: { trimmed.hasPrefix($0) }) || trimmed.hasPrefix("# - title: Invoices") {
                inside = trimmed
            } else if !trimmed.hasPrefix("#") {
                inside = nil
            }
            let keep = inside != nil && !(inside!.hasPrefix("# auth:") && ["#   basic:", "#   login:", "#   oauth2:"].contains { trimmed.hasPrefix($0) })
            lines.append(keep ? line.replacingOccurrences(of: "# ", with: "", options: [], range: line.range(of: "# ")) : line)
        }
        let path = directory + "/hammock.yaml"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let spec = try ConfigLoader.load(path: path, environment: ["API_TOKEN": "t", "BILLING_KEY": "k"])
        #expect(spec.services.map(\.name) == ["billing"])
        #expect(spec.service.tls?.clientCertificate?.hasSuffix("certs/me.pem") == true)
        #expect(spec.panes.map(\.title) == ["Health", "Invoices"])
    }
}
