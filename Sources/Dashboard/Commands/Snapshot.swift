import DashboardConfig
import Foundation
import Redaction
import ResourceEngine
import TerminalUI

/// `hammock snapshot`: load every pane once, then one frame as text or each pane's state as JSON.
///
/// Usable from scripts and CI: `ok` is true only when every pane has data and no error. With a
/// history store, each pane's uptime covers the probes the dashboard kept, plus this one.
@MainActor
public enum Snapshot {
    public struct Result: Sendable {
        public let lines: [String]
        public let json: JSON
        public let ok: Bool
    }

    /// Loads every pane (honouring each request's configured timeout) and captures the result.
    public static func take(
        spec: DashboardSpec, columns: Int, rows: Int, clock: any EngineClock = SystemClock(), historyStore: HistoryStore? = nil,
        makeServices: @escaping @MainActor (DashboardSpec) -> ServiceGroup
    ) async -> Result {
        let backend = TestBackend(columns: columns, rows: rows)
        let app = DashboardApp(
            spec: spec, terminal: Terminal(backend: backend), clock: clock, scheduler: DispatchScheduler(), historyStore: historyStore,
            makeServices: makeServices)
        app.refreshesOnItsOwn = false  // one load per pane, no refresh cadence
        app.savesHistory = false  // a look, not a run: the dashboard's kept probes are read, not changed
        app.actsOnAlerts = false  // a script's look must not page anyone
        app.start()
        for pane in app.panes { pane.loadIfNeeded() }
        for _ in 0..<3 {
            let inFlight = app.panes.flatMap(\.resource.loadRequests)
            if inFlight.isEmpty { break }
            for request in inFlight { _ = await request.result }
        }
        app.drawNow()
        let lines = backend.lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
        let json = state(of: app)
        app.stop()
        return Result(lines: lines, json: json, ok: json["ok"] == true)
    }

    /// The dashboard's panes as `snapshot --json` gives them (and `/api/panes`, live). `ok` is
    /// what each pane's latest probe says (a warn threshold is ok; a one-off look has one probe).
    public static func state(of app: DashboardApp) -> JSON {
        let panes = app.panes.map { describe($0, history: app.history(for: $0)) }
        let ok = app.panes.allSatisfy { $0.verdict == .ok }
        return ["title": .string(app.spec.title), "file": .string(app.spec.file), "ok": .bool(ok), "panes": .array(panes)]
    }

    /// Every pane has every key, whatever its state, so scripts can rely on the shape.
    private static func describe(_ pane: Pane, history: ProbeHistory?) -> JSON {
        let resource = pane.resource
        var object: JSONObject = [
            // The title and the URL are text the file writes (its secrets as `${TOKEN}`): shown as
            // written, never masked. An expectation may compare with a secret value: masked.
            "title": .string(pane.spec.title),
            "url": .string(pane.displayURL),
            // Where the request really goes: after `${VAR}`, its secrets masked.
            "urlSent": .string(pane.redactor.redactURL(resource.url.absoluteString)),
            "method": .string(pane.spec.method.httpName),
            "ok": .bool(pane.verdict == .ok),
            "state": .string(Snapshot.stateName(pane.health)),
        ]
        // Over the probes kept (with a history store, across runs); latencies of good probes only.
        object["uptime"] = history?.uptimePercent.map { .double(($0 * 100).rounded(.down) / 100) } ?? .null
        object["probes"] = .int(history?.probes.count ?? 0)
        object["p50Ms"] = history?.percentile(50).map { .int(Int(($0 * 1000).rounded())) } ?? .null
        object["p95Ms"] = history?.percentile(95).map { .int(Int(($0 * 1000).rounded())) } ?? .null
        object["degraded"] = pane.degradedReason.map { .string(pane.redactor.redact($0)) } ?? .null
        let failing = pane.verdict == .failing
        object["expectations"] = .array(pane.spec.expect.map { expectation in
            let failed = pane.unmetExpectation?.hasPrefix("expected \(expectation.text),") == true
            return .object(["expect": .string(pane.redactor.redact(expectation.text)), "ok": .bool(!failed && !failing && pane.shownEntity != nil)])
        })
        object["unmet"] = pane.unmetExpectation.map { .string(pane.redactor.redact($0)) } ?? .null
        object["status"] = resource.latestMetrics?.statusCode.map(JSON.int) ?? .null
        object["latencyMs"] = resource.latestMetrics.map { .int(Int(($0.latency * 1000).rounded())) } ?? .null
        object["error"] = pane.failure.map { .string(pane.redactor.redact($0)) } ?? .null
        if let content = pane.content, case .success(let value) = content.selected {
            object["data"] = value
        } else {
            object["data"] = .null
        }
        return .object(object)
    }

    static func stateName(_ health: Pane.Health) -> String {
        switch health {
        case .ok: "ok"
        case .failing: "failing"
        case .unmet: "unmet"
        case .degraded: "degraded"
        case .loading: "loading"
        case .waiting: "waiting"
        }
    }
}
