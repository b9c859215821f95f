import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import HammockHarness
import Monitor
import ResourceEngineTesting
import TerminalUI
import Testing

/// A `show: value` pane keeps the history of the number it shows, and draws it (lowest to
/// highest) where other panes draw their latency; the history survives a restart.
@MainActor
@Suite struct ValueHistoryTests {
    @Test func aValuePaneDrawsTheHistoryOfItsNumber() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: Queue, resource: /queue, every: 1s, show: value, select: depth }
              - { title: Health, resource: /health, every: 1s, show: value, select: status }
            """, columns: 80, rows: 12)
        h.stub("health", .json(#"{"status":"UP"}"#))
        h.stub("queue", .json(#"{"depth":3}"#))
        h.app.start()
        try await h.settle()
        for depth in [7, 18, 12] {
            h.stub("queue", .json(#"{"depth":"\#(depth)"}"#))
            try await h.advance(1)
        }
        let history = try #require(h.app.history(for: h.app.panes[0]))
        #expect(history.probes.compactMap(\.value).suffix(4) == [3, 7, 18, 12])
        let line = try #require(h.screen.first { $0.contains("3–18") }, "\(h.screen)")
        #expect(line.contains("now 12"))
        #expect(line.contains("▁") && line.contains("█"), "from the lowest to the highest: \(line)")
        #expect(h.screen.contains { $0.contains("p50") }, "a pane whose value is no number keeps its latency line")
    }

    @Test func theValuesSurviveARestart() throws {
        let directory = URL(fileURLWithPath: ScratchDirectory.path("value-history"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = HistoryStore(directory: directory)
        var history = ProbeHistory(capacity: 10)
        history.append(.init(time: 1, latency: 0.01, statusCode: 200, ok: true, value: 23.14))
        history.append(.init(time: 2, latency: 0.01, statusCode: 200, ok: true))
        store.save(["queue": history], namespace: "test")
        let loaded = try #require(store.load(namespace: "test", capacities: ["queue": 10])["queue"])
        #expect(loaded.probes.map { $0.value } == [23.14, nil])
    }
}
