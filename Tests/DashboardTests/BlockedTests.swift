import Dashboard
import DashboardConfig
import DashboardTesting
import FlyingFox
import Foundation
import HammockHarness
import LoopbackHTTP
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// Blocked, not failing twice (issue 49): over real HTTP on 127.0.0.1 with the test's clock, a
/// pane that fails while what it depends on is in trouble is blocked, says by whom, and raises no
/// alert; one alert fires, for the root.
@MainActor
@Suite(.serialized) struct BlockedTests {
    /// Which paths answer 503 now.
    actor Switches {
        var down: Set<String> = []
        func set(_ path: String, down isDown: Bool) { if isDown { down.insert(path) } else { down.remove(path) } }
        func isDown(_ path: String) -> Bool { down.contains(path) }
    }

    private func start(_ yaml: String, switches: Switches, login: String = "good") async throws -> TruthOverHTTPTests.Run {
        let server = try await LocalTestServer.start { server in
            await server.appendRoute("POST /auth") { request in
                let body = String(decoding: try await request.bodyData, as: UTF8.self)
                guard body.contains(#""password":"good""#) else {
                    return HTTPResponse(statusCode: .unauthorized, headers: [.contentType: "application/json"], body: Data(#"{"error":"invalid credentials"}"#.utf8))
                }
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(#"{"access_token":"t-1"}"#.utf8))
            }
            await server.appendRoute("GET *") { request in
                if await switches.isDown(request.path) {
                    return HTTPResponse(statusCode: .serviceUnavailable, headers: [.contentType: "application/json"], body: Data(#"{"message":"down"}"#.utf8))
                }
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(#"{"status":"UP"}"#.utf8))
            }
        }
        return try TruthOverHTTPTests.Run(server: server, recorder: TruthOverHTTPTests.Recorder(), yaml: yaml.replacingOccurrences(of: "PASSWORD", with: login), columns: 120, rows: 20)
    }

    private func alertEvents(_ run: TruthOverHTTPTests.Run) -> [String] {
        run.app.monitor.eventLog.entries.filter { $0.event.hasPrefix("Alert") }.map { "\($0.event) \($0.panes.joined())" }
    }

    @Test func aPaneThatFailsWhileWhatItDependsOnFailsIsBlockedAndOnlyTheRootAlerts() async throws {
        let switches = Switches()
        let run = try await start("""
            service: { baseURL: BASE }
            alerts: { failAfter: 1 }
            panes:
              - { title: Database, resource: /db, every: 1s }
              - { title: Orders, resource: /orders, every: 1s, dependsOn: Database }
              - { title: Report, resource: /report, every: 1s, dependsOn: [Orders] }
            """, switches: switches)
        run.app.start()
        try await run.settle()
        #expect(run.app.monitor.healthCounts.ok == 3)

        for path in ["/db", "/orders", "/report"] { await switches.set(path, down: true) }
        try await run.advance(1)
        #expect(run.pane("Database").probe.health == .failing)
        #expect(run.pane("Orders").probe.health == .blocked && run.pane("Orders").probe.blockedBy?.by == "Database")
        #expect(run.pane("Report").probe.blockedBy?.by == "Orders", "blocked by the pane it names, itself blocked")
        #expect(alertEvents(run) == ["AlertFiring Database"], "one alert, for the root, whatever order the answers came in")
        let counts = run.app.monitor.healthCounts
        #expect(counts.failing == 1 && counts.blocked == 2)
        let screen = run.backend.lines.joined(separator: "\n")
        #expect(run.backend.lines[0].contains("✗1 ⊘2"), "\(screen)")
        #expect(screen.contains("⊘ blocked by Database"), "\(screen)")
        let metrics = MetricsExposition.render(run.app.monitor, location: nil)
        #expect(metrics.contains(#"hammock_pane_state{pane="Orders",url="\#(run.server.baseURL)orders",state="blocked"} 1"#), "\(metrics)")
        let json = PaneStates.json(of: run.app.monitor)
        #expect(json["panes"]?[1]?["state"] == "blocked" && json["panes"]?[1]?["blockedBy"] == "Database")

        // Still failing on the next probe: still blocked, still quiet.
        try await run.advance(1)
        #expect(alertEvents(run) == ["AlertFiring Database"])

        // The root recovers while Orders still fails: Orders is its own failure now, and alerts.
        await switches.set("/db", down: false)
        try await run.advance(1)
        #expect(run.pane("Database").probe.health == .ok)
        #expect(run.pane("Orders").probe.health == .failing && run.pane("Orders").probe.blockedBy == nil)
        #expect(alertEvents(run) == ["AlertFiring Database", "AlertResolved Database", "AlertFiring Orders"], "\(alertEvents(run))")
        await run.stop()
    }

    @Test func aFailedLoginBlocksItsServicesPanesBehindTheFirst() async throws {
        let run = try await start("""
            services:
              shop:
                baseURL: BASE
                auth: { login: { resource: /auth, body: { json: { user: ops, password: PASSWORD } }, token: access_token } }
            alerts: { failAfter: 1 }
            panes:
              - { title: Orders, service: shop, resource: /orders, every: 1s }
              - { title: Stock, service: shop, resource: /stock, every: 1s }
              - { title: Carts, service: shop, resource: /carts, every: 1s }
            """, switches: Switches(), login: "wrong")
        run.app.start()
        try await run.settle()
        let health = ["Orders", "Stock", "Carts"].map { run.pane($0).probe.health }
        #expect(health.filter { $0 == .failing }.count == 1 && health.filter { $0 == .blocked }.count == 2, "\(health)")
        let blocked = ["Orders", "Stock", "Carts"].compactMap { run.pane($0).probe.blockedBy?.by }
        #expect(blocked == ["login shop", "login shop"], "\(blocked)")
        #expect(alertEvents(run).count == 1, "one alert for the login's failure: \(alertEvents(run))")
        await run.stop()
    }

    @Test func anOriginThatRefusesBlocksItsPanesBehindTheFirstAndImplicitCanBeTurnedOff() async throws {
        let closed = try await LocalTestServer.start { _ in }
        let base = closed.baseURL
        await closed.stop()
        for (implicit, expected) in [("", (failing: 1, blocked: 2, alerts: 1)), ("implicitDependencies: { origin: false }\n", (failing: 3, blocked: 0, alerts: 3))] {
            let run = try await start(implicit + """
                service: { baseURL: \(base), retry: 1s }
                alerts: { failAfter: 1 }
                panes:
                  - { title: A, resource: /a, every: 1s }
                  - { title: B, resource: /b, every: 1s }
                  - { title: C, resource: /c, every: 1s }
                """, switches: Switches())
            run.app.start()
            try await run.settle()
            let counts = run.app.monitor.healthCounts
            #expect(counts.failing == expected.failing && counts.blocked == expected.blocked, "\(implicit): \(counts)")
            #expect(alertEvents(run).count == expected.alerts, "\(implicit): \(alertEvents(run))")
            await run.stop()
        }
    }

    @Test func whenEveryConnectivityCheckFailsNoPaneAlertFires() async throws {
        let closed = try await LocalTestServer.start { _ in }
        let unreachable = closed.baseURL
        await closed.stop()
        let switches = Switches()
        await switches.set("/orders", down: true)
        let run = try await start("""
            service: { baseURL: BASE }
            connectivity: ["\(unreachable)"]
            alerts: { failAfter: 2 }
            panes:
              - { title: Orders, resource: /orders, every: 1s }
            """, switches: switches)
        run.app.start()
        for _ in 0..<3 {
            for request in run.app.monitor.loadsInFlight { _ = try await request.awaitResult(timeout: defaultTestTimeout) }
            try await drainMainQueue(turns: 3)
        }
        #expect(run.app.monitor.healthCounts.offlineSince != nil)
        #expect(run.pane("Orders").probe.blockedBy?.by == "the network")
        for _ in 0..<3 {
            run.scheduler.advance(by: 1)
            for _ in 0..<3 {
                for request in run.app.monitor.loadsInFlight { _ = try await request.awaitResult(timeout: defaultTestTimeout) }
                try await drainMainQueue(turns: 3)
            }
        }
        #expect(alertEvents(run).isEmpty, "\(alertEvents(run))")
        #expect(run.app.monitor.eventLog.entries.contains { $0.event == "NetworkLost" })
        #expect(run.backend.lines[0].contains("offline"), "\(run.backend.lines[0])")
        await run.stop()
    }

    @Test func dependenciesAreCheckedWhereTheyAreWritten() {
        do {
            _ = try ConfigLoader.parse("""
                service: { baseURL: "https://api.test/", dependsOn: [Gate] }
                panes:
                  - { title: Gate, resource: /gate }
                  - { title: A, resource: /a, dependsOn: [Databse] }
                  - { title: B, resource: /b, dependsOn: B }
                  - { title: C, resource: /c, dependsOn: [D] }
                  - { title: D, resource: /d, dependsOn: [C] }
                """, file: "d.yaml", environment: [:])
            Issue.record("loaded")
        } catch {
            #expect(error.problems.map(\.description) == [
                "d.yaml:4:43: dependsOn: no pane is titled \"Databse\"",
                "d.yaml:5:42: dependsOn: a pane cannot depend on itself",
                "d.yaml:7:43: dependsOn makes a cycle: C → D → C (each would be blocked by the other)",
            ])
        }
    }
}
