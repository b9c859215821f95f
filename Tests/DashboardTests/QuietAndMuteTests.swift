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

/// Quiet windows and mute (issue 49, part 3), over real HTTP with the test's clock: a silenced
/// pane probes and shows its state but raises no alert; the alert it held is said when the
/// silence ends, if the pane still fails.
@MainActor
@Suite(.serialized) struct QuietAndMuteTests {
    private func start(_ yaml: String) async throws -> TruthOverHTTPTests.Run {
        let server = try await LocalTestServer.start { server in
            await server.appendRoute("GET *") { _ in
                HTTPResponse(statusCode: .serviceUnavailable, headers: [.contentType: "application/json"], body: Data(#"{"message":"down"}"#.utf8))
            }
        }
        return try TruthOverHTTPTests.Run(server: server, recorder: TruthOverHTTPTests.Recorder(), yaml: yaml, columns: 100, rows: 12)
    }

    private func alertEvents(_ run: TruthOverHTTPTests.Run) -> [String] {
        run.app.monitor.eventLog.entries.filter { $0.event.hasPrefix("Alert") || $0.event.hasSuffix("uted") }.map { "\($0.event) \($0.panes.joined())" }
    }

    /// "HH:MM" in UTC, `minutes` from the run's clock.
    private func clock(_ run: TruthOverHTTPTests.Run, plus minutes: Int) -> (text: String, day: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSinceReferenceDate: run.clock.now + Double(minutes * 60))
        let parts = calendar.dateComponents([.hour, .minute, .weekday], from: date)
        return (String(format: "%02d:%02d", parts.hour!, parts.minute!), QuietWindow.dayNames[parts.weekday! - 1])
    }

    @Test func aQuietWindowHoldsTheAlertUntilItEnds() async throws {
        let probe = try await start("service: { baseURL: \"http://127.0.0.1:1/\" }\npanes: [{ title: x, resource: /x }]")
        let from = clock(probe, plus: -10)
        let to = clock(probe, plus: 30)
        await probe.stop()
        let run = try await start("""
            service: { baseURL: BASE }
            alerts: { failAfter: 1 }
            quiet: { days: [\(from.day)], from: "\(from.text)", to: "\(to.text)", zone: UTC }
            panes:
              - { title: Payments, resource: /payments, every: 1m }
              - { title: Loud, resource: /loud, every: 1m, quiet: [] }
            """)
        run.app.start()
        try await run.settle()
        #expect(alertEvents(run) == ["AlertHeld Payments", "AlertFiring Loud"] || alertEvents(run) == ["AlertFiring Loud", "AlertHeld Payments"], "\(alertEvents(run))")
        let payments = run.pane("Payments").probe
        #expect(payments.health == .failing, "it still shows its state")
        #expect(payments.silence?.reason == "quiet")
        #expect(run.backend.lines.contains { $0.contains("◌ quiet until \(to.text) · no alerts") }, "\(run.backend.lines.joined(separator: "\n"))")
        let metrics = MetricsExposition.render(run.app.monitor, location: nil)
        #expect(metrics.contains(#"hammock_pane_silenced{pane="Payments",url="\#(run.server.baseURL)payments",reason="quiet"} 1"#), "\(metrics)")
        #expect(PaneStates.json(of: run.app.monitor)["panes"]?[0]?["silenced"]?["reason"] == "quiet")

        // Still inside the window: still held.
        try await run.advance(60)
        #expect(!alertEvents(run).contains("AlertFiring Payments"))
        // The window is over and it still fails: the alert is said now.
        try await run.advance(60 * 30)
        #expect(alertEvents(run).contains("AlertFiring Payments"), "\(alertEvents(run))")
        #expect(run.pane("Payments").probe.silence == nil)
        await run.stop()
    }

    @Test func mKeyMutesUntilUnmutedAndTheHeldAlertIsSaidThen() async throws {
        let run = try await start("""
            service: { baseURL: BASE }
            alerts: { failAfter: 2 }
            panes:
              - { title: Payments, resource: /payments, every: 1s }
            """)
        run.app.start()
        try await run.settle()
        for key in [KeyEvent.character("m")] + "15m".map(KeyEvent.character) + [.enter] { run.app.send(.key(key)) }
        try await run.settle()
        #expect(run.pane("Payments").probe.mute != nil)
        #expect(run.backend.lines.contains { $0.contains("◌ muted until") }, "\(run.backend.lines.joined(separator: "\n"))")
        try await run.advance(1)
        #expect(alertEvents(run) == ["Muted Payments", "AlertHeld Payments"], "\(alertEvents(run))")
        // m again: unmuted, and the alert it held is said at once.
        run.app.send(.key(.character("m")))
        try await run.settle()
        #expect(alertEvents(run) == ["Muted Payments", "AlertHeld Payments", "Unmuted Payments", "AlertFiring Payments"], "\(alertEvents(run))")
        // :mute with nothing after it: until it recovers.
        for key in [KeyEvent.character(":")] + "mute".map(KeyEvent.character) + [.enter] { run.app.send(.key(key)) }
        try await run.settle()
        #expect(run.pane("Payments").probe.mute == .untilRecovered)
        #expect(run.backend.lines.contains { $0.contains("◌ muted until it recovers") })
        await run.stop()
    }

    @Test func quietWindowsAreCheckedWhereTheyAreWritten() {
        do {
            _ = try ConfigLoader.parse("""
                service: { baseURL: "https://api.test/" }
                quiet: { from: "25:00", to: "03:00" }
                panes:
                  - { title: A, resource: /a, quiet: { days: [someday], from: "01:00", to: "02:00" } }
                  - { title: B, resource: /b, quiet: { from: "01:00", to: "02:00", zone: Mars/Olympus } }
                  - { title: C, resource: /c, quiet: { from: "01:00" } }
                """, file: "q.yaml", environment: [:])
            Issue.record("loaded")
        } catch {
            #expect(error.problems.map(\.description) == [
                "q.yaml:2:16: quiet.from must be a time of day like \"02:30\", not \"25:00\"",
                "q.yaml:4:47: quiet.days: days are sun, mon, tue, wed, thu, fri, sat",
                "q.yaml:5:74: quiet.zone: unknown time zone \"Mars/Olympus\" (UTC, Europe/Berlin…)",
                "q.yaml:6:38: a quiet window needs from and to (e.g. { from: \"02:00\", to: \"03:00\" })",
            ])
        }
        let window = QuietWindow(days: [7], from: 23 * 60, to: 60, zone: ZoneInfo.utc)
        let saturday2330 = Date(timeIntervalSince1970: 1_795_908_600)  // 2026-11-28 (Sat) 23:30 UTC
        #expect(window.end(containing: saturday2330) == Date(timeIntervalSince1970: 1_795_914_000), "past midnight: ends Sunday 01:00")
        #expect(window.end(containing: saturday2330.addingTimeInterval(3_600)) != nil, "Sunday 00:30 is in Saturday's window")
        #expect(window.end(containing: saturday2330.addingTimeInterval(-86_400)) == nil, "Friday is not a window day")
    }
}
