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

/// What changed, and when (issue 49, part 2), over real HTTP with a server whose body changes:
/// the zoom's changes view, `ContentChanged` in the event log, and `alerts.onChange` acting only
/// when a path it names changes.
@MainActor
@Suite(.serialized) struct ChangesTests {
    actor Body {
        var version = "1.4.2"
        var calls = 0
        var note = "deploy window: 02:00\nowner: ops\n"
        /// The second answer on echoes the configured secret: a change to it is shown masked.
        func json() -> String {
            calls += 1
            return #"{"version":"\#(version)","build":{"commit":"c0ffee"},"uptime":\#(calls),"token":"\#(calls == 1 ? "tok-a" : "sk-secret-222")"}"#
        }
        func set(version: String) { self.version = version }
        func set(note: String) { self.note = note }
    }

    @Test func aChangedAnswerIsShownByPathAndOnlyTheWatchedPathsAlert() async throws {
        let body = Body()
        let server = try await LocalTestServer.start { server in
            await server.appendRoute("GET /version") { _ in
                HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(await body.json().utf8))
            }
            await server.appendRoute("GET /notes") { _ in
                HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data(await body.note.utf8))
            }
        }
        let run = try TruthOverHTTPTests.Run(server: server, recorder: TruthOverHTTPTests.Recorder(), yaml: """
            service: { baseURL: BASE, headers: { X-Token: sk-secret-222 } }
            panes:
              - { title: Version, resource: /version, every: 1s, show: fields, fields: [version], alerts: { onChange: [version], bell: true } }
              - { title: Notes, resource: /notes, every: 1s, show: text }
            """, columns: 100, rows: 24)
        run.app.start()
        try await run.settle()
        try await run.advance(1)
        let version = run.pane("Version").probe
        // uptime and the token changed; version did not: seen, not alerted.
        #expect(version.changes.count == 1)
        let lines = version.changes.last?.diff.changes.map(\.line) ?? []
        #expect(lines == ["uptime: 1 → 2", "token: \"tok-a\" → \"•••\""], "\(lines)")
        #expect(run.backend.bells == 0, "onChange: [version] and only uptime changed")

        await body.set(version: "1.4.3")
        await body.set(note: "deploy window: 03:00\nowner: ops\n")
        try await run.advance(1)
        #expect(run.backend.bells == 1, "the version changed: a deploy happened")
        #expect(version.changes.last?.diff.changes.first?.line == #"version: "1.4.2" → "1.4.3""#)
        let notes = run.pane("Notes").probe.changes.last?.diff.changes.map(\.line)
        #expect(notes == ["line 1: deploy window: 02:00 → deploy window: 03:00"], "\(notes ?? [])")
        let events = run.app.monitor.eventLog.entries.filter { $0.event == "ContentChanged" }.map { "\($0.panes.joined()) \($0.message ?? "")" }
        #expect(events.contains { $0.hasPrefix(#"Version version: "1.4.2" → "1.4.3"; uptime: 2 → 3"#) }, "\(events)")

        // Zoom, view 6: what changed, newest first.
        run.app.send(.key(.enter))
        run.app.send(.key(.character("6")))
        try await run.settle()
        let screen = run.backend.lines.joined(separator: "\n")
        #expect(screen.contains("Version · changes") && screen.contains("2 changes, newest first"), "\(screen)")
        #expect(screen.contains(#"version: "1.4.2" → "1.4.3""#) && !screen.contains("sk-secret-222"), "\(screen)")
        await run.stop()
    }

    @Test func aDiffIsBoundedWhateverTheAnswers() throws {
        let old = JSON.array((0..<30_000).map { JSON.int($0) })
        let new = JSON.array((0..<30_000).map { JSON.int($0 + 1) })
        let diff = ContentDiff.between(old, new)
        #expect(diff.changes.count == ContentDiff.limit && diff.more == 10_000, "\(diff.changes.count) \(diff.more)")
        #expect(diff.summary.hasSuffix("(+10047 or more)"), "\(diff.summary)")
        let text = ContentDiff.between("a\nb\nc", "a\nB\nc")
        #expect(text.changes.map(\.line) == ["line 2: b → B"])
    }

    @Test func onChangeIsCheckedWhereItIsWritten() throws {
        let spec = try ConfigLoader.parse("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: A, resource: /a, alerts: { onChange: true } }
              - { title: B, resource: /b, alerts: { onChange: version } }
              - { title: C, resource: /c, alerts: { onChange: false } }
            """, file: "c.yaml", environment: [:])
        #expect(spec.panes.map(\.alerts.onChange) == [[], ["version"], nil])
        #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parse("service: { baseURL: \"https://api.test/\" }\npanes:\n  - { title: A, resource: /a, alerts: { onChange: [\"items[\"] } }\n", file: "c.yaml", environment: [:])
        }
    }
}
