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

/// A pane that takes a value from another pane's answer (`${pane:TITLE:PATH}`), over real HTTP on
/// 127.0.0.1 with the test's clock: it follows its source's changes at once, waits while the
/// source has no value and says so, and keeps a value it sends as a credential masked.
@MainActor
@Suite(.serialized) struct ChainedPanesTests {
    /// What the server answers and what it was asked.
    actor Origin {
        var latest: String = #"{"items":[{"id":41}]}"#
        var seen: [(target: String, authorization: String?)] = []

        func answer(_ request: HTTPRequest) -> String {
            seen.append((request.target.rawValue, request.headers[.authorization]))
            let path = request.path
            if path == "/latest" { return latest }
            if path == "/token" { return #"{"token":"tok-secret-4711"}"# }
            if path.hasPrefix("/orders/") { return #"{"id":\#(path.dropFirst(8)),"state":"open"}"# }
            return #"{"audited":true}"#
        }

        func setLatest(_ body: String) { latest = body }
        func targets(_ prefix: String) -> [String] { seen.map(\.target).filter { $0.hasPrefix(prefix) } }
        func authorizations(_ prefix: String) -> [String?] { seen.filter { $0.target.hasPrefix(prefix) }.map(\.authorization) }
    }

    private func start(_ origin: Origin) async throws -> TruthOverHTTPTests.Run {
        let server = try await LocalTestServer.start { server in
            await server.appendRoute("GET *") { request in
                let body = await origin.answer(request)
                return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "application/json"]), body: Data(body.utf8))
            }
        }
        return try TruthOverHTTPTests.Run(server: server, recorder: TruthOverHTTPTests.Recorder(), yaml: """
            service: { baseURL: BASE }
            panes:
              - { title: Latest, resource: /latest, every: 1s, show: json }
              - title: Order
                resource: /orders/${pane:Latest:items.0.id}
                every: 1h
                show: fields
                fields: [id, state]
              - { title: Token, resource: /token, every: 1h, show: json }
              - title: Audit
                resource: /audit
                every: 1h
                params: { order: "${pane:Order:id}", api_key: "${pane:Token:token}" }
                headers: { Authorization: "Bearer ${pane:Token:token}" }
                show: json
            """, columns: 120, rows: 30)
    }

    @Test func aDependentFollowsItsSourceAndWaitsWhileTheSourceHasNoValue() async throws {
        let origin = Origin()
        let run = try await start(origin)
        run.app.start()
        try await run.settle()
        #expect(await origin.targets("/orders/") == ["/orders/41"])
        #expect(await origin.targets("/audit") == ["/audit?order=41&api_key=tok-secret-4711"])
        #expect(await origin.authorizations("/audit") == ["Bearer tok-secret-4711"], "the token pane's value went as the header")
        #expect(run.pane("Order").probe.health == .ok)
        #expect(run.backend.lines.contains { $0.contains("id     41") }, "\(run.backend.lines.joined(separator: "\n"))")
        #expect(!run.backend.lines.joined().contains("tok-secret-4711"), "a value sent as a credential is masked, in its own pane too")

        // The source changes: the dependent loads its new request at once, not in an hour.
        await origin.setLatest(#"{"items":[{"id":42}]}"#)
        try await run.advance(1)
        #expect(await origin.targets("/orders/") == ["/orders/41", "/orders/42"])
        #expect(await origin.targets("/audit").map { $0.prefix(17) } == ["/audit?order=41&a", "/audit?order=42&a"], "a chain of two follows too")
        #expect(run.backend.lines.contains { $0.contains("id     42") })
        #expect(run.pane("Order").probe.resource.url.absoluteString.hasSuffix("/orders/42"))

        // New data with the same value: the request is the same, nothing more is sent.
        try await run.advance(1)
        #expect(await origin.targets("/orders/").count == 2)

        // The value is gone: the pane waits and says on what; its own dependent waits on it.
        await origin.setLatest(#"{"items":[]}"#)
        try await run.advance(1)
        let order = run.pane("Order").probe
        #expect(order.health == .waiting)
        #expect(order.waitingFor == "waiting for Latest: items.0.id: index 0 out of range at items (0 items)", "\(order.waitingFor ?? "")")
        #expect(run.pane("Audit").probe.waitingFor == "waiting for Order")
        #expect(run.backend.lines.contains { $0.contains("waiting for Latest: items.0.id") }, "\(run.backend.lines.joined(separator: "\n"))")
        let json = PaneStates.json(of: run.app.monitor)
        #expect(json["ok"] == false, "a pane that waits is not ok")
        let orderState = try #require(json["panes"]?.arrayValue?[1])
        #expect(orderState["state"] == "waiting" && orderState["urlSent"] == .null)
        #expect(orderState["url"]?.stringValue?.hasSuffix("/orders/${pane:Latest:items.0.id}") == true)
        // A key does not send the placeholder.
        #expect(run.pane("Order").reload() == nil)

        // A value that is a document, not a value: it waits, and says why.
        await origin.setLatest(#"{"items":[{"id":"\#(String(repeating: "x", count: 5_000))"}]}"#)
        try await run.advance(1)
        #expect(run.pane("Order").probe.waitingFor == "waiting for Latest: items.0.id is 5000 bytes long; a value sent on is at most 2048")

        // It comes back: the earlier value's resource still holds its answer.
        await origin.setLatest(#"{"items":[{"id":41}]}"#)
        try await run.advance(1)
        #expect(run.pane("Order").probe.health == .ok)
        #expect(run.pane("Audit").probe.waitingFor == nil)
        let metrics = MetricsExposition.render(run.app.monitor, location: nil)
        #expect(metrics.contains(#"url="\#(run.server.baseURL)orders/${pane:Latest:items.0.id}""#), "one series per pane, whatever value it takes: \(metrics)")
        #expect(metrics.contains(#"url="\#(run.server.baseURL)audit?order=${pane:Order:id}&api_key=•••""#), "a credential param masked: \(metrics)")
        let events = run.app.monitor.eventLog.entries.map { "\($0.event) \($0.panes.joined()) \($0.message ?? "")" }
        #expect(events.contains { $0.hasPrefix("RequestChanged Order now ") && $0.hasSuffix("orders/42") }, "\(events)")
        #expect(events.contains("Waiting Audit waiting for Order"), "\(events)")
        let logged = run.app.monitor.eventLog.entries.map { "\($0.url) \($0.message ?? "")" }.joined(separator: "\n")
        #expect(logged.contains("api_key=•••") && !logged.contains("tok-secret-4711"), "\(logged)")
        await run.stop()
    }
}
