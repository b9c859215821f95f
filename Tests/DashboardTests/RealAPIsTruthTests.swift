import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import HammockHarness
import Monitor
import ResourceEngine
import TerminalUI
import Testing

/// What the screen and the verdicts say about real APIs is so: text bodies, encoded values and
/// NDJSON checked as the pane shows them, over real HTTP on 127.0.0.1 (`PythonTestServer`).
@MainActor
@Suite(.serialized) struct RealAPIsTruthTests {
    let server: PythonTestServer

    init() throws {
        server = try PythonTestServer()
    }

    private func live(_ yaml: String, columns: Int = 100, rows: Int = 30) throws -> DashboardHarness {
        let spec = try ConfigLoader.parse(yaml.replacingOccurrences(of: "BASE", with: server.baseURL), file: "real.yaml", environment: [:])
        return DashboardHarness(spec: spec, networking: .curl, columns: columns, rows: rows)
    }

    /// A `text/plain` health check (Synapse's `/health` answers `OK`), a value decoded from
    /// base64 (etcd's), and NDJSON served as `application/json` (httpbin's `/stream`).
    @Test func textBodiesDecodedValuesAndNDJSONCanBeChecked() async throws {
        let run = try live("""
            service: { baseURL: BASE }
            panes:
              - { title: Synapse, resource: /health/text, show: text, expect: ["body == OK", "body contains O", "body =~ ^O[K]$", "body !~ fail"] }
              - title: etcd value
                resource: /kv/range
                method: POST
                body: { key: Zm9v }
                show: text
                pipeline: { model: [ { select: "kvs[0].value" }, base64 ] }
                expect: ["body == on", "body matches '^o'"]
              - { title: Stream, resource: /stream, columns: [id, level], pipeline: { parsing: [ndjson] }, expect: ["body.count == 3"] }
            """, columns: 100, rows: 12)
        run.app.start()
        try await run.settle()
        for pane in run.app.panes {
            #expect(pane.probe.verdict == .ok, "\(pane.probe.spec.title): \(pane.probe.unmetExpectation ?? pane.probe.failure ?? "")")
        }
        let screen = run.backend.lines.joined(separator: "\n")
        #expect(screen.contains("│ 1   warn "), "the stream's rows: \(screen)")
        #expect(screen.contains("│ OK ") && screen.contains("│ on "))
        run.app.stop()
    }

    /// A refused connection says where and why on the pane, not only in zoom.
    @Test func aRefusedConnectionSaysWhereAndWhyOnThePane() async throws {
        let gone = try PythonTestServer()
        let port = gone.port
        gone.stop()
        let run = try live("""
            service: { baseURL: "http://127.0.0.1:\(port)/" }
            panes:
              - { title: Down, resource: /health }
            """, columns: 60, rows: 8)
        run.app.start()
        try await run.settle()
        #expect(run.backend.lines.contains { $0.contains("127.0.0.1:\(port): connection refused") }, "\(run.backend.lines.joined(separator: "\n"))")
        run.app.stop()
    }

    /// A failing pane backs off, counted at the server: with `every: 5s` and `retry: 1s`, tries at
    /// 0, 1, 3 and 7 s (not every second), then every 5 s.
    @Test func aFailingPaneBacksOffCountedAtTheServer() async throws {
        let run = try live("""
            service: { baseURL: BASE, retry: 1s }
            panes:
              - { title: Down, resource: /unavailable, every: 5s }
            """, columns: 60, rows: 8)
        run.app.start()
        try await run.settle()
        for _ in 0..<14 { try await run.advance(0.5) }
        let admin = Service(networking: CurlProvider())
        let hits = { () async -> Int? in
            guard case .success(let entity) = await admin.resource(absoluteURL: self.server.url("/stats")).load().result else { return nil }
            return (entity.content as? JSON)?["hits"]?["/unavailable"]?.intValue
        }
        #expect(await hits() == 4, "0, 1, 3 and 7 s")
        for _ in 0..<10 { try await run.advance(0.5) }
        #expect(await hits() == 5, "then its every: 12 s")
        run.app.stop()
    }

    /// A password written into the base URL may hold a space, non-ASCII, `|^{}` or quotes: it is
    /// encoded as it travels, and the server gets exactly it.
    @Test func aURLPasswordWithAnyCharacterIsEncoded() async throws {
        let password = #"p w|^{}"é"#
        let base = server.baseURL.replacingOccurrences(of: "http://", with: "http://ops:\(password)@")
        let spec = try ConfigLoader.parse(
            "service: { baseURL: '\(base)' }\npanes:\n  - { title: Who, resource: /whoami }\n", file: "real.yaml", environment: [:])
        let run = DashboardHarness(spec: spec, networking: .curl, columns: 60, rows: 8)
        run.app.start()
        try await run.settle()
        let answer = run.app.panes[0].probe.resource.latestData?.content as? JSON
        #expect(answer?["credentials"]?.stringValue == Data("ops:\(password)".utf8).base64EncodedString(), "\(String(describing: run.app.panes[0].probe.resource.latestError))")
        run.app.stop()
    }
}
