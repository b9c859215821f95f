import Dashboard
import DashboardConfig
import DashboardTesting
import FlyingFox
import Foundation
import FoundationNetworking
import HammockHarness
import LoopbackHTTP
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// Alerts into Debian's Alertmanager, started by the test on 127.0.0.1: an alert fires there
/// when a pane fails, is sent again while it fires, resolves when the pane recovers; a blocked
/// pane sends none.
@MainActor
@Suite(.serialized) struct AlertmanagerTests {
    private func alerts(_ manager: AlertmanagerServer) async throws -> [JSON] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: manager.baseURL + "api/v2/alerts")!)
        return try JSONParser.parse(data).arrayValue ?? []
    }

    /// Waits for every request of the monitor's own (probes, posts) and the frames they asked for.
    private func settle(_ run: TruthOverHTTPTests.Run) async throws {
        for _ in 0..<4 {
            for request in run.app.monitor.loadsInFlight { _ = try await request.awaitResult(timeout: defaultTestTimeout) }
            try await drainMainQueue(turns: 3)
        }
    }

    @Test func anAlertFiresStaysAndResolvesInAlertmanager() async throws {
        try #require(AlertmanagerServer.available, "prometheus-alertmanager (.ci/run installs it)")
        let manager = try await AlertmanagerServer.start()
        defer { manager.stop() }
        let switches = BlockedTests.Switches()
        let server = try await LocalTestServer.start { server in
            await server.appendRoute("GET *") { request in
                if await switches.isDown(request.path) {
                    return HTTPResponse(statusCode: .serviceUnavailable, headers: [.contentType: "application/json"], body: Data(#"{"message":"gateway down, token sk-live-4242"}"#.utf8))
                }
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(#"{"status":"UP"}"#.utf8))
            }
        }
        let run = try TruthOverHTTPTests.Run(server: server, recorder: TruthOverHTTPTests.Recorder(), yaml: """
            service: { baseURL: BASE, headers: { X-Key: "sk-live-4242" } }
            alertmanager: { url: "\(manager.baseURL)", labels: { team: ops }, resend: 10s }
            panes:
              - { title: Payments, resource: /payments?key=sk-live-4242, every: 1s, tags: [money] }
              - { title: Refunds, resource: /refunds, every: 1s, dependsOn: Payments }
            """)
        run.app.start()
        try await settle(run)
        #expect(try await alerts(manager).isEmpty)

        await switches.set("/payments", down: true)
        await switches.set("/refunds", down: true)
        run.scheduler.advance(by: 1)
        try await settle(run)
        var firing = try await alerts(manager)
        #expect(firing.count == 1, "the root only; Refunds is blocked: \(firing)")
        let alert = try #require(firing.first)
        #expect(alert["labels"] == ["alertname": "HammockPaneFailing", "pane": "Payments", "tag": "money", "team": "ops"], "\(alert)")
        #expect(alert["status"]?["state"] == "active")
        let description = alert["annotations"]?["description"]?.stringValue ?? ""
        let url = alert["annotations"]?["url"]?.stringValue ?? ""
        #expect(description.contains("gateway down") && !description.contains("sk-live-4242"), "secrets masked: \(description)")
        #expect(url.hasSuffix("/payments?key=•••"), "the URL as sent, masked: \(url)")
        let fired = ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: run.clock.now)).prefix(19)
        #expect(alert["startsAt"]?.stringValue?.hasPrefix(fired) == true, "when it fired, on the monitor's clock: \(alert)")

        // Still failing: sent again, so Alertmanager keeps it.
        let updated = alert["updatedAt"]
        run.scheduler.advance(by: 10)
        try await settle(run)
        firing = try await alerts(manager)
        #expect(firing.count == 1 && firing.first?["updatedAt"] != updated, "sent again: \(firing)")

        // Recovered: resolved in Alertmanager.
        await switches.set("/payments", down: false)
        await switches.set("/refunds", down: false)
        run.scheduler.advance(by: 1)
        try await settle(run)
        #expect(try await alerts(manager).isEmpty, "resolved")
        await run.stop()
    }
}
