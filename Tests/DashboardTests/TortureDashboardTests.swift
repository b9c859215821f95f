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

/// The whole dashboard against the hostile server over real HTTP: every bad endpoint becomes a
/// pane showing a clear error, the other panes keep updating, and the terminal only ever receives
/// sanitised text.
@MainActor
@Suite(.serialized) struct TortureDashboardTests {
    @Test func hostileEndpointsNeverTakeDownTheDashboard() async throws {
        let server = try await HostileServer.start()
        defer { Task { await server.stop() } }
        let paths = ["good", "hang", "drip", "cut", "loop", "huge", "invalid-json", "json-as-text", "bad-utf8", "escapes", "many-headers", "status/503", "switchable"]
        // Short timeouts only where a timeout is the point; everything else may be slow on a busy machine.
        var yaml = "service:\n  baseURL: \(server.baseURL)\n  timeout: 15s\n  retry: 1s\n  expiration: 2s\n"
        yaml += "configure:\n  - pattern: /hang\n    timeout: 1s\n  - pattern: /drip\n    timeout: 1s\npanes:\n"
        for path in paths { yaml += "  - title: \(path)\n    resource: /\(path)\n    every: 1s\n    show: text\n" }
        yaml += "  - title: reset\n    resource: \(server.resetURL)\n    every: 1s\nlayout:\n  columns: 2\n"
        let spec = try ConfigLoader.parse(yaml, file: "torture.yaml", environment: [:])
        let clock = ManualClock()
        let scheduler = ManualScheduler(now: { clock.now }, setNow: { clock.set($0) })
        let backend = TestBackend(columns: 140, rows: 60)
        let app = DashboardApp(spec: spec, terminal: Terminal(backend: backend), clock: clock, scheduler: scheduler, timeZone: ZoneInfo.utc, minimumFrameInterval: 0) { spec in
            spec.makeServices(clock: clock)
        }
        app.start()
        try await settle(app)
        func pane(_ title: String) -> Pane { app.panes.first { $0.probe.spec.title == title }! }

        let expectations: [String: String] = [
            "hang": "The request timed out", "drip": "The request timed out",
            "cut": "The server closed the connection before the response was complete",
            "loop": "Too many redirects", "huge": "Response too large (over 8 MiB)",
            "invalid-json": "Invalid JSON: expected a quoted key but found character 'o' at line 1, column 18",
            "bad-utf8": "Response is not valid utf-8 text", "status/503": "Service Unavailable",
        ]
        for (title, message) in expectations {
            // libcurl, the default transport, adds what it knows ("(4989 of 5000 bytes missing)").
            #expect(pane(title).probe.resource.latestError?.userMessage.hasPrefix(message) == true, "\(title)")
            // Each column of panes read on its own, so wrapped messages read as one text.
            let columns = [backend.lines.map { String($0.prefix(70)) }, backend.lines.map { String($0.dropFirst(70)) }]
            let texts = columns.map { $0.joined(separator: " ").replacingOccurrences(of: "│", with: " ").split(separator: " ").joined(separator: " ") }
            #expect(texts.contains { $0.contains(message) }, "the \(title) pane says \(message)")
        }
        #expect(pane("reset").probe.resource.latestError != nil)
        #expect(pane("good").probe.resource.latestData != nil)
        #expect(pane("json-as-text").probe.resource.latestError == nil)
        #expect(pane("many-headers").probe.resource.latestError == nil)
        #expect(backend.lines.contains { $0.contains("ok␛]0;pwned␇␛[2J␛[31mred␛[0m") }, "escape sequences show as placeholders")
        for cell in backend.buffer.cells {
            #expect(cell.symbol.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value) }, "a control character reached the screen")
        }

        // The other panes keep updating, and the switchable pane recovers after failing.
        let good = pane("good").probe.resource
        let goodStamp = good.latestData?.timestamp
        await server.setBehaviour(.cut)
        scheduler.advance(by: 3)
        try await settle(app)
        #expect(good.latestData?.timestamp != goodStamp, "the good pane refreshed while others failed")
        #expect(pane("switchable").probe.resource.latestError?.userMessage.hasPrefix("The server closed the connection before the response was complete") == true)
        await server.setBehaviour(.good)
        scheduler.advance(by: 3)
        try await settle(app)
        #expect(pane("switchable").probe.resource.latestError == nil)
        #expect(pane("switchable").probe.resource.json == ["status": "UP"])
        app.stop()
    }

    private func settle(_ app: DashboardApp) async throws {
        for _ in 0..<3 {
            let inFlight = app.panes.flatMap(\.probe.resource.loadRequests)
            if inFlight.isEmpty { break }
            for request in inFlight { _ = try await request.awaitResult(timeout: 30) }
        }
        try await drainMainQueue(turns: 3)
    }
}
