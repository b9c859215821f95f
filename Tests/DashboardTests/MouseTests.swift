import Dashboard
import DashboardConfig
import DashboardKeys
import DashboardTesting
import ResourceEngineTesting
import Foundation
import Monitor
import ResourceEngine
import FoundationNetworking
import TerminalUI
import Testing

/// Clicks and the wheel, as the terminal reports them (`.mouse` keys), on the headless dashboard:
/// a click chooses the pane under it, a double click zooms, the wheel scrolls what has the
/// keyboard, and a click on "[t] Try again" retries.
@MainActor
@Suite struct MouseTests {
    let config = """
        service: { baseURL: "https://api.test/" }
        panes:
          - { title: Health, resource: /health, every: 1h }
          - { title: Orders, resource: /orders, every: 1h, show: text }
          - { title: Payments, resource: /payments, every: 1h }
          - { title: Users, resource: /users, every: 1h }
        """

    func harness(columns: Int = 80, rows: Int = 24, keys: String = "") async throws -> DashboardHarness {
        let h = try DashboardHarness(config + (keys.isEmpty ? "" : "\nkeys: " + keys), columns: columns, rows: rows)
        h.stub("health", .json(#"{"status":"UP"}"#))
        h.stub("orders", .text((1...60).map { "order \($0)" }.joined(separator: "\n")))
        h.stub("payments", .json(#"{"message":"down"}"#, status: 503))
        h.stub("users", .json("42"))
        h.app.start()
        try await h.settle()
        return h
    }

    func click(_ h: DashboardHarness, _ text: String, clicks: Int = 1) async throws -> [String] {
        let y = try #require(h.screen.firstIndex { $0.contains(text) }, "\(text) on screen")
        let x = try #require(h.screen[y].range(of: text)).lowerBound.utf16Offset(in: h.screen[y])
        var screen: [String] = []
        for _ in 0..<clicks { screen = try await h.press(.mouse(MouseEvent(.press(button: 0), x: x + 1, y: y))) }
        return screen
    }

    @Test func aClickChoosesThePaneAndADoubleClickZoomsIt() async throws {
        let h = try await harness()
        var screen = try await click(h, "Payments")
        #expect(screen.contains { $0.contains("┌ ▸ Payments") }, "\(screen)")
        #expect(!h.app.isZoomed)
        // A second press long after is another single click, not a double one.
        try await h.advance(1)
        screen = try await click(h, "▸ Payments")
        #expect(!h.app.isZoomed)
        screen = try await click(h, "Users", clicks: 2)
        #expect(h.app.isZoomed && h.app.selectedPane?.probe.spec.title == "Users", "\(screen)")
        // In the zoom a click does nothing; Esc is the way back.
        screen = try await h.press(.escape)
        #expect(!h.app.isZoomed)
    }

    @Test func theWheelScrollsTheZoomAndMovesTheSelection() async throws {
        let h = try await harness()
        _ = try await click(h, "Orders", clicks: 2)
        #expect(h.app.isZoomed)
        var screen = try await h.press(.mouse(MouseEvent(.wheelDown, x: 10, y: 10)))
        #expect(screen[2].contains("order 4"), "three lines a notch: \(screen[2])")
        screen = try await h.press(.mouse(MouseEvent(.wheelUp, x: 10, y: 10)))
        #expect(screen[2].contains("order 1"))
        _ = try await h.press(.escape, .mouse(MouseEvent(.wheelDown, x: 10, y: 10)))
        #expect(h.app.selectedPane?.probe.spec.title == "Users", "on the grid a notch moves a pane down")
        _ = try await h.press(.character("e"), .mouse(MouseEvent(.wheelUp, x: 10, y: 10)))
        #expect(h.app.model.eventScroll == 3, "the event log scrolls back")
    }

    @Test func aClickOnTryAgainRetriesThatPane() async throws {
        let h = try await harness()
        let before = h.network.receivedRequests.filter { $0.url?.path == "/payments" }.count
        let screen = try await click(h, StatusOverlay.retryLabel(.standard))
        #expect(screen.contains { $0.contains("┌ ▸ Payments") }, "the click chose the pane: \(screen)")
        try await h.settle()
        #expect(h.network.receivedRequests.filter { $0.url?.path == "/payments" }.count == before + 1, "and retried it")
    }

    @Test func inAListAClickChoosesTheRowUnderIt() async throws {
        let h = try await harness(columns: 60, rows: 8)
        #expect(h.screen[1].hasPrefix("▸"), "a list at this size")
        let screen = try await click(h, "Payments")
        #expect(screen.first { $0.contains("Payments") }?.hasPrefix("▸") == true, "\(screen)")
    }

    @Test func aClickOnAZoomedTablesHeaderSortsByThatColumn() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: Targets, resource: /targets, show: table, columns: [job, { path: duration, format: duration }, health] }
            """, columns: 60, rows: 10)
        h.stub("targets", .json(#"[{"job":"prometheus","duration":0.5,"health":"up"},{"job":"node","duration":12,"health":"down"},{"job":"api","duration":2,"health":"up"}]"#))
        h.app.start()
        try await h.settle()
        _ = try await h.press(.enter)
        var screen = try await click(h, "duration")
        #expect(Array(screen[2...5]) == [
            "│ job         duration ▲  health                           │",
            "│ prometheus  500 ms      up                               │",
            "│ api         2 s         up                               │",
            "│ node        12 s        down                             │",
        ], "\(screen)")
        screen = try await click(h, "duration ▲")
        #expect(screen[2].contains("duration ▼") && screen[3].contains("node"), "again: the other way")
        screen = try await click(h, "health")
        #expect(screen[2].contains("health ▲") && !screen[2].contains("duration ▼") && screen[3].contains("node"), "\(screen)")
        // Between columns, and on a row, a click does nothing.
        let y = 2, gap = try #require(screen[y].range(of: "  health")).lowerBound.utf16Offset(in: screen[y])
        screen = try await h.press(.mouse(MouseEvent(.press(button: 0), x: gap, y: y)), .mouse(MouseEvent(.press(button: 0), x: 4, y: 4)))
        #expect(screen[2].contains("health ▲") && screen[3].contains("node"))
        #expect(h.app.isZoomed)
    }

    @Test func clicksAndTheWheelAskForActionsWhateverTheirKeys() async throws {
        let h = try await harness(keys: "{ zoom: z, down: [n], scrollDown: J, retry: T }")
        #expect(h.screen.contains { $0.contains("[T] Try again") }, "the button names the retry key: \(h.screen)")
        let before = h.network.receivedRequests.filter { $0.url?.path == "/payments" }.count
        _ = try await click(h, "[T] Try again")
        try await h.settle()
        #expect(h.network.receivedRequests.filter { $0.url?.path == "/payments" }.count == before + 1)
        _ = try await click(h, "Orders", clicks: 2)
        #expect(h.app.isZoomed, "a double click zooms, though Enter no longer does")
        let screen = try await h.press(.mouse(MouseEvent(.wheelDown, x: 10, y: 10)))
        #expect(screen[2].contains("order 4"), "the wheel scrolls, though j no longer does: \(screen[2])")
    }
}
