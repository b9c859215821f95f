import DashboardConfig
import FoundationEssentials
import Redaction
import ResourceEngine

/// The monitor's panes in Prometheus's text exposition format (0.0.4), for `/metrics`.
///
/// One series per pane and metric, labelled `pane` (the title), `url` (the URL as sent, secrets
/// masked by the pane's redactor), `service` (when named) and `location` (when given). Names
/// follow Prometheus's conventions: base units (`_seconds`), `_total` for counters, one
/// `state` label set to 1 for a pane's state ("StateSet").
public enum MetricsExposition {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The states `hammock_pane_state` names; `pending` is a pane with no finished probe yet.
    public static let states = ["ok", "degraded", "failing", "unmet", "blocked", "pending"]

    @MainActor
    public static func render(_ monitor: Monitor, location: String?) -> String {
        var out = ""
        let panes = monitor.probes.map { pane in (pane: pane, labels: labels(for: pane, location: location)) }
        let probed = panes.filter { $0.pane.probeCounts.successes + $0.pane.probeCounts.failures > 0 || $0.pane.resource.latestMetrics != nil }

        family(&out, "hammock_probe_success", "gauge", "Whether the pane's latest probe worked: its request, content and expectations (1) or not (0).")
        for (pane, labels) in probed { sample(&out, "hammock_probe_success", labels, pane.verdict == .ok ? 1 : 0) }

        family(&out, "hammock_probe_duration_seconds", "histogram", "Latency of the pane's answered probes (not those whose request failed), as libcurl measures the exchange.")
        for (pane, labels) in panes {
            let counts = pane.probeCounts
            for (index, count) in counts.cumulative.enumerated() {
                let bound = index < ProbeCounts.bounds.count ? JSON.format(ProbeCounts.bounds[index]) : "+Inf"
                sample(&out, "hammock_probe_duration_seconds_bucket", labels + [("le", bound)], Double(count))
            }
            sample(&out, "hammock_probe_duration_seconds_sum", labels, counts.latencySum)
            sample(&out, "hammock_probe_duration_seconds_count", labels, Double(counts.answered))
        }

        family(&out, "hammock_probe_http_status_code", "gauge", "The HTTP status of the pane's latest probe (0 when no response came).")
        for (pane, labels) in probed { sample(&out, "hammock_probe_http_status_code", labels, Double(pane.resource.latestMetrics?.statusCode ?? 0)) }

        family(&out, "hammock_pane_state", "gauge", "The pane's state: 1 for the state it is in (ok, degraded, failing, unmet, blocked, pending), 0 for the others.")
        for (pane, labels) in panes {
            let current = stateName(pane.health)
            for state in states { sample(&out, "hammock_pane_state", labels + [("state", state)], state == current ? 1 : 0) }
        }

        family(&out, "hammock_pane_silenced", "gauge", "Whether the pane's alerts are held: 1 for the reason (quiet: a quiet window; muted: by a user), 0 for the other.")
        for (pane, labels) in panes {
            for reason in ["quiet", "muted"] { sample(&out, "hammock_pane_silenced", labels + [("reason", reason)], pane.silence?.reason == reason ? 1 : 0) }
        }
        family(&out, "hammock_pane_silenced_until_timestamp_seconds", "gauge", "When the pane's silence ends, in Unix time (none while muted until it recovers).")
        for (pane, labels) in panes {
            guard let until = pane.silence?.until else { continue }
            sample(&out, "hammock_pane_silenced_until_timestamp_seconds", labels, (until + Date.timeIntervalBetween1970AndReferenceDate).rounded())
        }

        family(&out, "hammock_expectations_met", "gauge", "Whether every expectation of the pane held on its latest probe (1) or not (0).")
        for (pane, labels) in probed where !pane.spec.expect.isEmpty {
            sample(&out, "hammock_expectations_met", labels, pane.unmetExpectation == nil && pane.verdict != .failing ? 1 : 0)
        }

        family(&out, "hammock_tls_cert_expiry_timestamp_seconds", "gauge", "When the certificate the pane's https server showed expires, in Unix time.")
        for (pane, labels) in panes {
            guard let certificate = pane.resource.latestMetrics?.certificate else { continue }
            sample(&out, "hammock_tls_cert_expiry_timestamp_seconds", labels, (certificate.notAfter + Date.timeIntervalBetween1970AndReferenceDate).rounded())
        }

        family(&out, "hammock_probes_total", "counter", "Probes the pane finished since Hammock started, by outcome.")
        for (pane, labels) in panes {
            sample(&out, "hammock_probes_total", labels + [("outcome", "success")], Double(pane.probeCounts.successes))
            sample(&out, "hammock_probes_total", labels + [("outcome", "failure")], Double(pane.probeCounts.failures))
        }
        return out
    }

    @MainActor
    static func stateName(_ health: Probe.Health) -> String {
        switch health {
        case .loading, .waiting: "pending"
        default: health.name
        }
    }

    @MainActor
    static func labels(for pane: Probe, location: String?) -> [(String, String)] {
        var labels = [("pane", pane.spec.title)]
        if let service = pane.spec.service { labels.append(("service", service)) }
        labels.append(("url", pane.redactor.redactURL(pane.writtenURL)))
        if let location, !location.isEmpty { labels.append(("location", location)) }
        // One series per pane: its tags, comma-separated (`tag=~".*payments.*"` picks them).
        if !pane.spec.tags.isEmpty { labels.append(("tag", pane.spec.tags.joined(separator: ","))) }
        return labels
    }

    private static func family(_ out: inout String, _ name: String, _ type: String, _ help: String) {
        out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    private static func sample(_ out: inout String, _ name: String, _ labels: [(String, String)], _ value: Double) {
        out += name
        if !labels.isEmpty {
            out += "{" + labels.map { "\($0.0)=\"\(escaped($0.1))\"" }.joined(separator: ",") + "}"
        }
        out += " " + (value.isFinite ? JSON.format(value) : value.isNaN ? "NaN" : value > 0 ? "+Inf" : "-Inf") + "\n"
    }

    /// A label value as the format writes it: backslash, double quote and line feed escaped.
    static func escaped(_ value: String) -> String {
        var out = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
