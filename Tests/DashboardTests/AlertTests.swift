@testable import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import FoundationNetworking
import HammockHarness
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// `alerts:`: fail after N failed probes in a row (degraded before), recover after M good ones,
/// reminders, resolved, per-pane overrides, the bell, webhooks through the engine, and `notify`
/// where no notifier is installed. The clock and the scheduler are the test's.
@MainActor
@Suite struct AlertTests {
    static func status(_ code: Int, latency: Double? = nil) -> FakeNetworkingProvider.FakeResponse {
        var response = FakeNetworkingProvider.FakeResponse(status: code)
        response.timing = latency.map { TransferTiming(total: $0) }
        return response
    }

    static func json(_ text: String, latency: Double) -> FakeNetworkingProvider.FakeResponse {
        var response = FakeNetworkingProvider.FakeResponse.json(text)
        response.timing = TransferTiming(total: latency)
        return response
    }

    @Test func theTrackerFailsAfterNInARowAndRecoversAfterM() {
        var tracker = AlertTracker()
        #expect(tracker.record(good: false, at: 1, failAfter: 3, recoverAfter: 2) == .none)
        #expect(tracker.record(good: true, at: 2, failAfter: 3, recoverAfter: 2) == .none, "a good probe starts the count again")
        #expect(tracker.troubleSince == nil)
        #expect(tracker.record(good: false, at: 3, failAfter: 3, recoverAfter: 2) == .none)
        #expect(tracker.record(good: false, at: 4, failAfter: 3, recoverAfter: 2) == .none)
        #expect(tracker.record(good: false, at: 5, failAfter: 3, recoverAfter: 2) == .fired)
        #expect(tracker.firing && tracker.troubleSince == 3 && tracker.firedAt == 5)
        #expect(tracker.record(good: false, at: 6, failAfter: 3, recoverAfter: 2) == .none, "fires once")
        #expect(tracker.record(good: true, at: 7, failAfter: 3, recoverAfter: 2) == .none)
        #expect(tracker.record(good: false, at: 8, failAfter: 3, recoverAfter: 2) == .none, "one good probe does not recover it")
        #expect(tracker.firing && tracker.failedProbes == 5)
        #expect(tracker.record(good: true, at: 9, failAfter: 3, recoverAfter: 2) == .none)
        #expect(tracker.record(good: true, at: 10, failAfter: 3, recoverAfter: 2) == .resolved)
        #expect(!tracker.firing && tracker.troubleSince == nil && tracker.failedProbes == 0)
    }

    static let flaky = """
        service:
          baseURL: https://api.test/
          retry: 1s
        alerts:
          failAfter: 3
          recoverAfter: 2
          bell: true
        panes:
          - { title: Flaky, resource: /flaky, every: 1s }
        """

    @Test func aFlakyPaneIsDegradedBeforeItFailsAndBeforeItRecovers() async throws {
        let h = try DashboardHarness(Self.flaky, columns: 60, rows: 8)
        h.stub("flaky", .json(#"{"ok":true}"#))
        h.app.start()
        try await h.settle()
        #expect(h.app.panes[0].probe.health == .ok)
        #expect(h.screen[0].contains("✓1 ✗0"), "\(h.screen[0])")

        h.stub("flaky", Self.status(503))
        try await h.advance(1)
        #expect(h.app.panes[0].probe.health == .degraded)
        #expect(h.screen[0].contains("✓0 ◐1 ✗0"), "one failed probe is not a failing pane: \(h.screen[0])")
        #expect(h.screen[1].contains("503 · 0 ms · ◐ error 1/3"), "its mark, for a screen without colour: \(h.screen[1])")
        #expect(h.app.panes[0].probe.degradedReason == "1 of 3 failed probes before it fails")
        try await h.advance(1)
        #expect(h.screen[1].contains("error 2/3"), "\(h.screen[1])")
        #expect(h.backend.bells == 0)
        #expect(!h.app.eventLog.entries.contains { $0.event == "AlertFiring" })

        try await h.advance(1)
        #expect(h.app.panes[0].probe.health == .failing)
        #expect(h.screen[0].contains("✓0 ✗1"), "\(h.screen[0])")
        #expect(h.backend.bells == 1, "the bell rings once, when it starts failing")
        let firing = try #require(h.app.eventLog.entries.last { $0.event == "AlertFiring" })
        #expect(firing.state == "failing" && firing.panes == ["Flaky"] && firing.statusCode == 503)
        #expect(firing.message == "Service Unavailable")
        #expect(EventLine.json(firing).contains(#""state":"failing""#))
        try await h.advance(1)
        #expect(h.backend.bells == 1, "a fourth failed probe does not ring again")

        h.stub("flaky", .json(#"{"ok":true}"#))
        try await h.advance(1)
        #expect(h.app.panes[0].probe.health == .degraded, "one good probe after failing: recovering")
        #expect(h.screen[1].contains("now · recovering 1/2"), "\(h.screen[1])")
        #expect(h.app.panes[0].probe.degradedReason == "recovering: 1 of 2 good probes")
        try await h.advance(1)
        #expect(h.app.panes[0].probe.health == .ok)
        let resolved = try #require(h.app.eventLog.entries.last)
        #expect(resolved.event == "AlertResolved" && resolved.state == "ok")
        #expect(resolved.message == "ok again after 4 failed probes over 5s")
        #expect(h.backend.bells == 1, "recovering does not ring")
        h.app.stop()
    }

    @Test func remindersRepeatWhileFailingAndStopWhenResolved() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
              retry: 10s
            alerts: { bell: true, remind: 30s }
            panes:
              - { title: Down, resource: /down, every: 10s }
            """, columns: 60, rows: 8)
        h.stub("down", Self.status(500))
        h.app.start()
        try await h.settle()
        #expect(h.app.panes[0].probe.health == .failing, "failAfter defaults to 1")
        #expect(h.backend.bells == 1)
        try await h.advance(29)
        #expect(h.backend.bells == 1)
        try await h.advance(1)
        #expect(h.backend.bells == 2)
        #expect(h.app.eventLog.entries.last { $0.event == "AlertReminder" }?.message == "Internal Server Error")
        try await h.advance(30)
        #expect(h.backend.bells == 3)
        try await h.press(.character("p"))
        try await h.advance(60)
        #expect(h.backend.bells == 3, "paused: nothing is re-checked, so nothing is re-announced")
        try await h.press(.character("p"))
        #expect(h.app.panes[0].probe.health == .failing)
        h.stub("down", .json("{}"))
        try await h.advance(10)
        #expect(h.app.panes[0].probe.health == .ok)
        try await h.advance(90)
        #expect(h.backend.bells == 3, "no reminder after it resolved")
        #expect(h.app.eventLog.entries.filter { $0.event == "AlertReminder" }.count == 2, "none while paused")
        h.app.stop()
    }

    @Test func aPaneOverridesTheDefaultsAndWebhooksGoThroughTheEngine() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
              retry: 1s
            alerts:
              failAfter: 3
              webhook:
                url: https://hooks.test/alert
                headers: { Authorization: "Bearer ${HOOK_TOKEN}" }
                body: { text: "{{pane}} is {{state}}: {{message}}", kind: "{{event}}", tags: ["{{service}}", "{{status}}"] }
            panes:
              - { title: Patient, resource: /a, every: 1s }
              - title: Eager
                resource: /b
                every: 1s
                alerts: { failAfter: 1, onResolved: false }
            """, columns: 80, rows: 10, environment: ["PATH": "/usr/bin:/bin", "HOOK_TOKEN": "hook-secret-123"])
        h.stub("a", Self.status(503))
        h.stub("b", Self.status(503))
        h.network.stub(.post, "https://hooks.test/alert", .json("{}"))
        h.app.start()
        try await h.settle()
        #expect(h.app.panes[0].probe.health == .degraded)
        #expect(h.app.panes[1].probe.health == .failing, "its own failAfter: 1")
        try await h.settle()
        var posts = h.network.receivedRequests.filter { $0.httpMethod == "POST" }
        #expect(posts.count == 1)
        let post = try #require(posts.first)
        #expect(post.value(forHTTPHeaderField: "Authorization") == "Bearer hook-secret-123")
        #expect(post.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let body = try JSONParser.parse(try #require(post.httpBody))
        #expect(body["text"]?.stringValue == "Eager is failing: Service Unavailable")
        #expect(body["kind"]?.stringValue == "firing")
        #expect(body["tags"] == [.string(""), .string("503")])

        try await h.advance(1)
        try await h.advance(1)
        try await h.settle()
        #expect(h.app.panes[0].probe.health == .failing)
        posts = h.network.receivedRequests.filter { $0.httpMethod == "POST" }
        #expect(posts.count == 2)

        h.stub("a", .json("{}"))
        h.stub("b", .json("{}"))
        try await h.advance(1)
        try await h.settle()
        posts = h.network.receivedRequests.filter { $0.httpMethod == "POST" }
        #expect(posts.count == 3, "Patient tells it recovered; Eager says onResolved: false")
        let resolved = try JSONParser.parse(try #require(posts.last?.httpBody))
        #expect(resolved["text"]?.stringValue == "Patient is ok: ok again after 3 failed probes over 3s")
        #expect(resolved["kind"]?.stringValue == "resolved")
        // The token is the config's secret: no event or screen shows it.
        #expect(!h.app.eventLog.entries.contains { "\($0)".contains("hook-secret-123") })
        h.app.stop()
    }

    @Test func aFailingWebhookIsLoggedAndShownNotRetried() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            alerts: { webhook: "https://hooks.test/down" }
            panes:
              - { title: Broken, resource: /x }
            """, columns: 100, rows: 8)
        h.stub("x", Self.status(500))
        h.network.stub(.post, "https://hooks.test/down", Self.status(502))
        h.app.start()
        try await h.settle()
        try await h.settle()
        let failed = try #require(h.app.eventLog.entries.last { $0.event == "AlertActionFailed" })
        #expect(failed.message == "webhook https://hooks.test/down: 502 Bad Gateway", "\(failed)")
        #expect(h.screen.last?.contains("alert for Broken: webhook https://hooks.test/down: 502 Bad Gateway") == true, "\(h.screen)")
        #expect(h.network.requestCount(for: "https://hooks.test/down") == 1, "not retried")
        h.app.stop()
    }

    @Test func notifyIsSkippedWithAClearMessageWhereNoNotifierIsInstalled() async throws {
        let empty = ScratchDirectory.path("nopath")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            alerts: { notify: true }
            panes:
              - { title: One, resource: /one }
              - { title: Two, resource: /two }
            """, columns: 120, rows: 8, environment: ["PATH": empty])
        h.stub("one", Self.status(500))
        h.stub("two", Self.status(500))
        h.app.start()
        try await h.settle()
        let skipped = h.app.eventLog.entries.filter { $0.event == "AlertActionFailed" }
        #expect(skipped.count == 1, "said once, not per alert: \(skipped)")
        #expect(skipped.first?.message == "notify: no desktop notifier is installed (notify-send, from libnotify-bin); notifications are skipped")
        #expect(h.screen.last?.contains("notify: no desktop notifier is installed") == true, "\(h.screen)")
        #expect(h.app.panes.allSatisfy { $0.probe.health == .failing })
        h.app.stop()
    }

    @Test func sortAndSnapshotKnowDegraded() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            alerts: { failAfter: 2 }
            panes:
              - { title: Fine, resource: /fine }
              - { title: Wobbly, resource: /wobbly }
              - { title: Dead, resource: /dead, alerts: { failAfter: 1 } }
            """, columns: 60, rows: 8)
        h.stub("fine", .json("{}"))
        h.stub("wobbly", Self.status(503))
        h.stub("dead", Self.status(503))
        h.app.start()
        try await h.settle()
        try await h.press(.character("s"))
        #expect(h.app.visiblePanes.map(\.probe.spec.title) == ["Dead", "Wobbly", "Fine"])
        #expect(h.screen[0].contains("✓1 ◐1 ✗1"), "\(h.screen[0])")
        h.app.stop()

        let spec = try ConfigLoader.parse("""
            service: { baseURL: "https://api.test/" }
            alerts: { failAfter: 3 }
            panes:
              - { title: Wobbly, resource: /wobbly }
            """, file: "snap.yaml", environment: [:])
        let network = FakeNetworkingProvider()
        network.stub(.get, "https://api.test/wobbly", Self.status(503))
        let result = await Snapshot.take(spec: spec, columns: 60, rows: 8) { $0.makeServices(networking: network) }
        let pane = try #require(result.json["panes"]?[0])
        #expect(pane["state"] == "degraded")
        #expect(pane["degraded"] == "1 of 3 failed probes before it fails")
        #expect(pane["ok"] == false && result.ok == false, "a one-off look that failed is not ok, degraded or not")
        #expect(pane["uptime"] == .double(0) && pane["probes"] == 1 && pane["p50Ms"] == .null)
    }

    @Test func uptimeShowsInTheTitleBarWhenThereIsRoomAndLeavesFailuresOutOfLatencies() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/", retry: 1s }
            panes:
              - { title: Up, resource: /up, every: 1s }
            """, columns: 60, rows: 8)
        h.stub("up", Self.json("{}", latency: 0.040))
        h.app.start()
        try await h.settle()
        for _ in 0..<3 { try await h.advance(1) }
        #expect(!h.screen[1].contains("up "), "four probes are too few to say: \(h.screen[1])")
        h.stub("up", Self.status(503, latency: 9.0))
        try await h.advance(1)
        #expect(h.screen[1].contains("503 · 9.0 s · error · up 80%"), "\(h.screen[1])")
        // Narrowing drops the uptime, the latency, then the code; last the state gives way to the
        // pane's mark.
        let fitted = [32, 30, 29, 21, 20, 13, 12, 8, 7, 6, 3].map { h.app.statusText(for: h.app.panes[0], fitting: $0) }
        #expect(fitted == [
            "503 · 9.0 s · error · up 80%", "503 · 9.0 s · error · up 80%", "503 · 9.0 s · error", "503 · 9.0 s · error",
            "503 · error", "503 · error", "error", "error", "error", "✗", "✗",
        ])
        let history = try #require(h.app.history(for: h.app.panes[0]))
        #expect(history.percentile(95) == 0.040, "the failed probe's 9 s is not a latency")
        h.app.stop()
        let narrow = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: Up, resource: /up, every: 1s }
            """, columns: 30, rows: 8)
        narrow.stub("up", .json("{}"))
        narrow.app.start()
        try await narrow.settle()
        for _ in 0..<5 { try await narrow.advance(1) }
        #expect(narrow.screen[1].contains("200 · 0 ms · now") && !narrow.screen[1].contains("up 100%"), "no room: \(narrow.screen[1])")
        narrow.app.stop()
    }
}

extension AlertTests {
    @Test func theErrorViewSaysTheStateSinceWhenTheAlertFiresAndWhatItDoes() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/", retry: 1s }
            alerts: { failAfter: 2, recoverAfter: 3, bell: true, remind: 30m, exec: ["true"], webhook: "https://hooks.test/x" }
            panes:
              - { title: Flaky, resource: /flaky, every: 1s }
            """, columns: 72, rows: 16)
        h.stub("flaky", Self.status(503))
        h.network.stub(.post, "https://hooks.test/x", .json("{}"))
        h.app.start()
        try await h.settle()
        try await h.press(.enter)
        var screen = try await h.press(.character("5"))
        #expect(Array(screen[2...8]) == [
            "│ ✗ 503 Service Unavailable                                            │",
            "│ failing since 06:13:20 (now), 1 probe in a row                       │",
            "│                                                                      │",
            "│ Alert                                                                │",
            "│ state       degraded: 1 of 2 failed probes before it fails           │",
            "│ rule        fails after 2 failed probes in a row, ok after 3 good    │",
            "│ actions     bell, exec true, webhook https://hooks.test/x            │",
        ], "\(screen.joined(separator: "\n"))")
        try await h.advance(1)
        try await h.advance(2)
        screen = h.screen
        #expect(Array(screen[5...9]) == [
            "│ Alert                                                                │",
            "│ state       failing                                                  │",
            "│ firing      since 06:13:21 (2s ago), reminding every 30m             │",
            "│ rule        fails after 2 failed probes in a row, ok after 3 good    │",
            "│ actions     bell, exec true, webhook https://hooks.test/x            │",
        ], "\(screen.joined(separator: "\n"))")
        h.app.stop()
    }
}

extension AlertTests {
    @Test func aSnapshotSaysTheStateButPagesNoOne() async throws {
        let spec = try ConfigLoader.parse("""
            service: { baseURL: "https://api.test/" }
            alerts: { webhook: "https://hooks.test/x" }
            panes:
              - { title: Down, resource: /down }
            """, file: "snap.yaml", environment: [:])
        let network = FakeNetworkingProvider()
        network.stub(.get, "https://api.test/down", Self.status(500))
        network.stub(.post, "https://hooks.test/x", .json("{}"))
        let result = await Snapshot.take(spec: spec, columns: 60, rows: 8) { $0.makeServices(networking: network) }
        #expect(result.json["panes"]?[0]?["state"] == "failing")
        try await drainMainQueue(turns: 3)
        #expect(network.requestCount(for: "https://hooks.test/x") == 0, "a script's one-off look does not post the webhook")
    }
}

extension AlertTests {
    @Test func notifyRunsTheInstalledNotifierWithTheHeadlineAndMessage() async throws {
        let directory = ScratchDirectory.path("notify")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > '\(directory)/args.tmp'\nmv '\(directory)/args.tmp' '\(directory)/args.txt'\n"
            .write(toFile: directory + "/notify-send", atomically: true, encoding: .utf8)
        chmod(directory + "/notify-send", 0o755)
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            alerts: { notify: true }
            panes:
              - { title: Payments, resource: /payments }
            """, columns: 80, rows: 8, environment: ["PATH": "\(directory):/usr/bin:/bin"])
        // A server's markup reaches the notification as text, not as a link or an image.
        h.stub("payments", .json(#"{"message":"down <a href=\"https://evil.test\">see</a> <img src=file:///etc/passwd> & more"}"#, status: 503))
        h.app.start()
        try await h.settle()
        try await waitUntil("the notifier's arguments") { FileManager.default.fileExists(atPath: directory + "/args.txt") }
        let arguments = try String(contentsOfFile: directory + "/args.txt", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments == [
            "--app-name=Hammock", "--urgency=critical", "--", "Hammock: Payments is failing",
            "down &lt;a href=\"https://evil.test\"&gt;see&lt;/a&gt; &lt;img src=file:///etc/passwd&gt; &amp; more",
        ])
        #expect(!h.app.eventLog.entries.contains { $0.event == "AlertActionFailed" })
        h.app.stop()
    }
}

extension AlertTests {
    @Test func aServersMessageReachesActionsAsOneSafeLine() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            configure:
              - { pattern: "**", pipeline: { cleanup: [errorMessage] } }
            alerts: { webhook: "https://hooks.test/x" }
            panes:
              - { title: Evil, resource: /evil }
            """, columns: 80, rows: 8)
        h.stub("evil", .json(#"{"message":"down\u001b]0;pwned\u0007\nsecond line\u2028third\u2029fourth"}"#, status: 503))
        h.network.stub(.post, "https://hooks.test/x", .json("{}"))
        h.app.start()
        try await h.settle()
        try await h.settle()
        let post = try #require(h.network.receivedRequests.first { $0.httpMethod == "POST" })
        let body = try JSONParser.parse(try #require(post.httpBody))
        #expect(body["message"]?.stringValue == "down␛]0;pwned␇␤second line␤third␤fourth", "\(body)")
        h.app.stop()
    }
}
