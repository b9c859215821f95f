import Dashboard
import DashboardTesting
import DashboardConfig
import Foundation
import Monitor
import ResourceEngineTesting
import Testing
import TerminalUI

/// `/#tag` on the grid keeps the panes with that tag; `/text` still filters by title and URL.
@MainActor
@Suite struct TagFilterTests {
    @Test func aHashFilterKeepsThePanesWithThatTag() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: Health, resource: /health, tags: [core] }
              - { title: Payments, resource: /payments, tags: [payments, edge] }
              - { title: Edge cache, resource: /cache }
              - { title: Refunds, resource: /refunds, tags: [Payments] }
            """, columns: 100, rows: 30)
        for path in ["health", "payments", "cache", "refunds"] { h.stub(path, .json("{}")) }
        h.app.start()
        try await h.settle()
        _ = try await h.press(.character("/"), .character("#"), .character("p"), .character("a"), .character("y"))
        #expect(h.app.visiblePanes.isEmpty, "a tag is matched whole: #pay is no tag")
        _ = try await h.press(.character("m"), .character("e"), .character("n"), .character("t"), .character("s"), .enter)
        #expect(h.app.visiblePanes.map(\.probe.spec.title) == ["Payments", "Refunds"], "case aside")
        _ = try await h.press(.escape, .character("/"), .character("#"), .character("e"), .character("d"), .character("g"), .character("e"), .enter)
        #expect(h.app.visiblePanes.map(\.probe.spec.title) == ["Payments"], "not the pane whose title says edge")
        _ = try await h.press(.escape, .character("/"), .character("e"), .character("d"), .character("g"), .character("e"), .enter)
        #expect(h.app.visiblePanes.map(\.probe.spec.title) == ["Edge cache"], "without # the title and URL, as before")
    }
}
