import Dashboard
import DashboardConfig
import DashboardKeys
import DashboardTesting
import Foundation
import FoundationNetworking
import ResourceEngine
import ResourceEngineTesting
import Testing
import TerminalUI

/// A config's `keys:` on the headless dashboard: the keys do what the map says, and the help, the
/// footer, the header and the error's button name the keys as they are.
@MainActor
@Suite struct RemappedKeysTests {
    let config = """
        service: { baseURL: "https://api.test/" }
        panes:
          - { title: Health, resource: /health, every: 1h }
          - { title: Payments, resource: /payments, every: 1h }
        keys:
          reload: [x, f5]
          help: h
          left: [left]
          events: L
          back: [b, esc]
          quit: Q
        """

    func harness() async throws -> DashboardHarness {
        let h = try DashboardHarness(config, columns: 100, rows: 24)
        h.stub("health", .json(#"{"status":"UP"}"#))
        h.stub("payments", .json(#"{"message":"down"}"#, status: 503))
        h.app.start()
        try await h.settle()
        return h
    }

    @Test func theKeysDoWhatTheMapSays() async throws {
        let h = try await harness()
        let loads = { h.network.receivedRequests.filter { $0.url?.path == "/health" }.count }
        let before = loads()
        _ = try await h.press(.character("r"))
        try await h.settle()
        #expect(loads() == before, "r no longer reloads")
        _ = try await h.press(.character("x"))
        try await h.settle()
        #expect(loads() == before + 1)
        _ = try await h.press(.function(5))
        try await h.settle()
        #expect(loads() == before + 2)
        _ = try await h.press(.character("q"))
        #expect(h.quitStatus == nil, "q no longer quits")
        _ = try await h.press(.character("L"))
        #expect(h.app.mode == .events)
        _ = try await h.press(.character("q"))
        #expect(h.app.mode == .events, "q no longer closes the log")
        _ = try await h.press(.character("L"))
        #expect(h.app.mode == .normal, "its own key closes it")
        _ = try await h.press(.enter)
        #expect(h.app.isZoomed)
        _ = try await h.press(.character("b"))
        #expect(!h.app.isZoomed)
        // The command line runs actions, whatever their keys.
        _ = try await h.press(.character(":"), .character("r"), .character("e"), .character("l"), .character("o"), .character("a"), .character("d"), .enter)
        try await h.settle()
        #expect(loads() == before + 3, ":reload reloads, though r does not")
        _ = try await h.press(.character(":"), .character("q"), .character("u"), .character("i"), .character("t"), .enter)
        #expect(h.quitStatus == 0, ":quit quits, though q does not")
    }

    @Test func theScreenNamesTheKeysAsTheyAre() async throws {
        let h = try await harness()
        var screen = h.screen
        #expect(screen[0].hasSuffix("h help "), "\(screen[0])")
        #expect(screen.last?.contains("x reload") == true && screen.last?.trimmingCharacters(in: .whitespaces).hasSuffix("Q quit") == true, "\(screen.last ?? "")")
        #expect(screen.contains { $0.contains("[t] Try again") }, "retry kept its key")
        screen = try await h.press(.character("h"))
        #expect(screen.contains { $0.contains("x/F5          reload the selected pane") }, "\(screen)")
        #expect(screen.contains { $0.contains("← ↓/j ↑/k →/l  move between panes") }, "\(screen)")
        #expect(screen.last?.contains("b close") == true, "\(screen.last ?? "")")
        screen = try await h.press(.character("b"), .character("L"))
        #expect(screen.last?.contains("b/L close") == true, "\(screen.last ?? "")")
        screen = try await h.press(.character("b"), .enter)
        #expect(screen.last?.trimmingCharacters(in: .whitespaces).hasSuffix("b back") == true, "\(screen.last ?? "")")
    }
}
