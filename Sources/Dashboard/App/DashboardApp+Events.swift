import DashboardConfig
import Foundation
import Redaction
import ResourceEngine

/// What each resource event does to its panes: the event log, probe histories, verdicts, alerts.
extension DashboardApp {
    func record(_ event: ResourceEvent, on resource: Resource) {
        guard event != .observerAdded else { return }
        let id = ObjectIdentifier(resource)
        // Looked up once per event and handed on: the lookups below each hashed and checked it.
        let shown = panesByResource[id]
        let now = clock.now
        if event == .requested {
            shown?.lastRequested = now
            pacing.loadStarted(at: Self.uptime())
        }
        let finished = event != .requested
        let entry = EventLog.Entry(
            time: now, url: shown?.url ?? loginURLs[id] ?? redactor.redactURL(resource.url.absoluteString),
            method: shown?.method ?? resource.loadRequest?.method.httpName ?? "GET",
            panes: shown?.titles ?? [],
            event: event.externalName,
            statusCode: finished ? resource.latestMetrics?.statusCode : nil,
            latency: finished ? resource.latestMetrics?.latency : nil,
            message: event == .error ? resource.latestError.map { PaneContent.bounded(redactor.redact($0.userMessage), to: 2_000) } : nil)
        eventLog.append(entry)
        onEvent?(entry)
        if let shown {
            evaluatePanes(shown, after: event)
            recordProbe(event, on: resource, shown: shown, at: now)
            for pane in shown.panes {
                // Read for each pane: a load one of them starts sets it again.
                updateCadence(of: pane, lastRequested: shown.lastRequested)
                recount(pane)
            }
        }
        send(.resourceChanged)
    }

    /// A finished network load (new data, 304 or error) becomes a probe in the resource's history;
    /// it worked when every pane showing the resource works with it (an error status that
    /// expectations ask for is a pane working; an unmet expectation is not).
    private func recordProbe(_ event: ResourceEvent, on resource: Resource, shown: ResourcePanes, at now: TimeInterval) {
        switch event {
        case .newData(.network), .notModified, .error: break
        default: return
        }
        guard let metrics = resource.latestMetrics else { return }
        // Up when every pane showing it is (its request, content and expectations all good);
        // answered unless the request failed (an error status expectations ask for is an answer).
        // A loop, not `allSatisfy`: a closure here would check the executor on every probe.
        var ok = true
        for pane in shown.panes where pane.verdict != .ok {
            ok = false
            break
        }
        let answered = event != .error || shown.panes.allSatisfy(\.errorIsExpected)
        let probe = ProbeHistory.Probe(time: now, latency: metrics.latency, statusCode: metrics.statusCode, ok: ok, answered: answered)
        histories[shown.identity, default: ProbeHistory(capacity: shown.historyCapacity)].append(probe)
    }

    /// Re-checks the expectations and the content of the panes `shown` after a
    /// finished load, and logs `ExpectationFailed` / `ExpectationsMet` and `ContentFailed` /
    /// `ContentRecovered` when a pane's verdict changes.
    private func evaluatePanes(_ shown: ResourcePanes, after event: ResourceEvent) {
        switch event {
        case .newData, .notModified, .error: break
        default: return
        }
        let isProbe = switch event {
        case .newData(.network), .notModified, .error: true
        default: false
        }
        for pane in shown.panes {
            defer { if isProbe { countProbe(of: pane) } }
            let changed = pane.evaluate()
            if changed.expectations {
                log(pane.unmetExpectation == nil ? "ExpectationsMet" : "ExpectationFailed", pane: pane, message: pane.unmetExpectation)
            }
            if changed.content {
                log(pane.contentProblem == nil ? "ContentRecovered" : "ContentFailed", pane: pane, message: pane.contentProblem)
            }
        }
    }

    /// Adds a pane's own event (a verdict, an alert) to the log and the `events` stream, under
    /// its resource's URL and method as the resource's own events show them.
    func log(_ event: String, pane: Pane, message: String?, state: String? = nil) {
        let metrics = pane.resource.latestMetrics
        let shown = panesByResource[ObjectIdentifier(pane.resource)]
        let entry = EventLog.Entry(
            time: clock.now, url: shown?.url ?? pane.displayURL, method: shown?.method ?? pane.spec.method.httpName,
            panes: [pane.spec.title], event: event,
            statusCode: metrics?.statusCode, latency: metrics?.latency, message: message, state: state)
        eventLog.append(entry)
        onEvent?(entry)
    }

    /// The probes of the resource a pane shows.
    public func history(for pane: Pane) -> ProbeHistory? {
        histories[pane.historyKey]
    }
}
