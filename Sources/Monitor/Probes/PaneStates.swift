import DashboardConfig
import FoundationEssentials
import Redaction
import ResourceEngine

/// Each pane's state as `snapshot --json` and `/api/panes` give it.
@MainActor
public enum PaneStates {
    /// The dashboard's panes as `snapshot --json` gives them (and `/api/panes`, live). `ok` is
    /// what each pane's latest probe says (a warn threshold is ok; a one-off look has one probe).
    public static func json(of monitor: Monitor) -> JSON {
        let panes = monitor.probes.map { describe($0, history: monitor.history(for: $0)) }
        let ok = monitor.probes.allSatisfy { $0.verdict == .ok }
        return ["title": .string(monitor.spec.title), "file": .string(monitor.spec.file), "ok": .bool(ok), "panes": .array(panes)]
    }

    /// Every pane has every key, whatever its state, so scripts can rely on the shape.
    private static func describe(_ pane: Probe, history: ProbeHistory?) -> JSON {
        let resource = pane.resource
        var object: JSONObject = [
            // The title and the URL are text the file writes (its secrets as `${TOKEN}`): shown as
            // written, never masked. An expectation may compare with a secret value: masked.
            "title": .string(pane.spec.title),
            "url": .string(pane.displayURL),
            // Where the request really goes: after `${VAR}`, its secrets masked.
            // Nothing while a chained pane waits for another pane's value.
            "urlSent": pane.waitingFor == nil ? .string(pane.redactor.redactURL(resource.url.absoluteString)) : .null,
            "waitingFor": pane.waitingFor.map(JSON.string) ?? .null,
            // Who its failure waits on (a pane it depends on, `login shop`, `the network`).
            "blockedBy": pane.health == .blocked ? pane.blockedBy.map { .string($0.by) } ?? .null : .null,
            // Quiet or muted: it raises no alert until `until` (null: until it recovers).
            "silenced": pane.silence.map { .object(["reason": .string($0.reason), "until": $0.until.map { .string(EventLine.timestamp($0)) } ?? .null]) } ?? .null,
            "method": .string(pane.spec.method.httpName),
            "ok": .bool(pane.verdict == .ok),
            "state": .string(pane.health.name),
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
        if let check = pane.contentCheck, case .success(let value) = check.selected {
            object["data"] = value
        } else {
            object["data"] = .null
        }
        return .object(object)
    }
}
