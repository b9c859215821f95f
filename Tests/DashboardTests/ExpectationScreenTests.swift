import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

@MainActor
@Suite struct ExpectationScreenTests {
    let h: DashboardHarness

    init() throws {
        h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
              expiration: 500ms
            panes:
              - title: Health
                resource: /health
                every: 1s
                show: fields
                fields: [status]
                expect: ["status == 200", "body.status == UP", "header.content-type contains json"]
              - title: Orders
                resource: /orders
                show: value
                select: count
            """, columns: 80, rows: 12)
        h.stub("orders", .json(#"{"count":4}"#))
    }

    @Test func anUnmetExpectationMakesAFailingPaneWithItsReason() async throws {
        h.stub("health", .json(#"{"status":"DEGRADED"}"#))
        h.app.start()
        try await h.settle()
        let screen = h.screen
        #expect(screen[0].contains("✓1 ✗0 ⚠1 ⟳0"), "counted in the header")
        #expect(screen[1].contains("200 · 0 ms · ⚠ unmet"))
        let paneText = screen.map { String($0.prefix(40)) }.joined(separator: " ").replacingOccurrences(of: "│", with: " ")
            .split(separator: " ").joined(separator: " ")
        #expect(paneText.contains(#"⚠ expected body.status == UP, got "DEGRADED""#), "the reason, wrapped in the pane")
        #expect(screen.contains { $0.contains("status  DEGRADED") }, "the data is still shown")
        #expect(h.app.panes[0].probe.health == .unmet)
        #expect(h.app.eventLog.entries.contains { $0.event == "ExpectationFailed" && $0.message == #"expected body.status == UP, got "DEGRADED""# })

        h.stub("health", .json(#"{"status":"UP"}"#))
        try await h.advance(1)
        #expect(h.app.panes[0].probe.health == .ok)
        #expect(h.screen[0].contains("✓2 ✗0 ⟳0"))
        #expect(!h.screen.contains { $0.contains("⚠") })
        #expect(h.app.eventLog.entries.last { $0.panes == ["Health"] }?.event == "ExpectationsMet")
    }

    @Test func headerExpectationsSeeTheResponseHeaders() async throws {
        h.stub("health", .text(#"{"status":"UP"}"#))
        h.app.start()
        try await h.settle()
        #expect(h.app.panes[0].probe.unmetExpectation == #"expected header.content-type contains json, got "text/plain""#, "a JSON body labelled text still answers body.status")
        h.stub("health", .json(#"{"status":"UP"}"#))
        try await h.advance(1)
        #expect(h.app.panes[0].probe.unmetExpectation == nil)
    }

    @Test func sortPutsUnmetPanesWithTheFailingOnes() async throws {
        h.stub("health", .json(#"{"status":"DOWN"}"#))
        h.app.start()
        try await h.settle()
        try await h.press(.tab, .character("s"))
        #expect(h.app.visiblePanes.map(\.probe.spec.title) == ["Health", "Orders"])
        #expect(h.screen.contains { $0.contains("▸ Orders") })
    }
}
