import DashboardConfig
import FoundationEssentials
import Redaction
import ResourceEngine

/// What each resource event does to its probes: the event log, probe histories, verdicts, alerts.
extension Monitor {
    func record(_ event: ResourceEvent, on resource: Resource) {
        guard event != .observerAdded else { return }
        let id = ObjectIdentifier(resource)
        // Looked up once per event and handed on: the lookups below each hashed and checked it.
        let shown = probes(of: resource)
        let now = clock.now
        if event == .requested { shown?.lastRequested = now }
        let finished = event != .requested
        let entry = EventLog.Entry(
            time: now, url: shown?.url ?? loginURLs[id] ?? redactor.redactURL(resource.url.absoluteString),
            method: shown?.method ?? resource.loadRequest?.method.httpName ?? "GET",
            panes: shown?.titles ?? [],
            event: event.externalName,
            statusCode: finished ? resource.latestMetrics?.statusCode : nil,
            latency: finished ? resource.latestMetrics?.latency : nil,
            message: event == .error ? resource.latestError.map { redactor.redact($0.userMessage).bounded(to: 2_000) } : nil)
        eventLog.append(entry)
        onEvent?(entry)
        if let shown {
            // Before the source's own probes are judged: a value the dependents send as a
            // credential is then a secret when the source's content is checked for showing.
            if case .newData(let source) = event {
                noteContent(of: resource, shown: shown, from: source)
                resolveDependents(ofProbesOf: shown)
            }
            // Only a failure makes a root, and only a root's answer hands one over.
            let roots = finished && (resource.hasError || !implicitRoots.isEmpty) ? updateImplicitRoots(for: shown) : []
            evaluateProbes(shown, after: event)
            recordProbe(event, on: resource, shown: shown, at: now)
            for probe in shown.probes {
                // Read for each probe: a load one of them starts sets it again.
                updateCadence(of: probe, lastRequested: shown.lastRequested)
                recount(probe)
            }
            if finished, !blockedDependents.isEmpty || !roots.isEmpty {
                let changed = updateBlockagesAround(shown, roots: roots)
                if !changed.isEmpty { onProbesChanged?(changed) }
            }
        }
        onStateChange?()
        onResourceEvent?(event, shown?.probes ?? [])
    }

    /// A finished network load (new data, 304 or error) becomes a probe in the resource's history;
    /// it worked when every probe of the resource works with it (an error status that
    /// expectations ask for is a pane working; an unmet expectation is not).
    private func recordProbe(_ event: ResourceEvent, on resource: Resource, shown: ResourceProbes, at now: TimeInterval) {
        switch event {
        case .newData(.network), .notModified, .error: break
        default: return
        }
        guard let metrics = resource.latestMetrics else { return }
        // Up when every probe of it is (its request, content and expectations all good);
        // answered unless the request failed (an error status expectations ask for is an answer).
        var ok = true
        for probe in shown.probes where probe.verdict != .ok {
            ok = false
            break
        }
        // Plain loops: a closure of a main-actor method checks the executor on every call.
        var answered = true
        if event == .error {
            for probe in shown.probes where !probe.errorIsExpected {
                answered = false
                break
            }
        }
        // A value pane's number, for the history of what it shows (not only of its latency).
        var value: Double?
        if event != .error {
            for probe in shown.probes where probe.spec.show == .value {
                value = probe.shownNumber
                break
            }
        }
        let probe = ProbeHistory.Probe(time: now, latency: metrics.latency, statusCode: metrics.statusCode, ok: ok, answered: answered, value: value)
        histories[shown.identity, default: ProbeHistory(capacity: shown.historyCapacity)].append(probe)
    }

    /// Re-checks the expectations and the content of the probes `shown` after a finished load,
    /// and logs `ExpectationFailed` / `ExpectationsMet` and `ContentFailed` / `ContentRecovered`
    /// when a verdict changes.
    private func evaluateProbes(_ shown: ResourceProbes, after event: ResourceEvent) {
        switch event {
        case .newData, .notModified, .error: break
        default: return
        }
        let isProbe = switch event {
        case .newData(.network), .notModified, .error: true
        default: false
        }
        for probe in shown.probes {
            defer { if isProbe { countOrDefer(probe) } }
            probe.contentMayHaveChanged(by: event)
            let changed = probe.evaluate()
            // Before its alert counts the probe: a blocked failure does not.
            if probe.blockedBy != nil || probe.resource.hasError || probe.unmetExpectation != nil || probe.contentProblem != nil {
                updateBlockage(of: probe)
            }
            if changed.expectations {
                log(probe.unmetExpectation == nil ? "ExpectationsMet" : "ExpectationFailed", probe: probe, message: probe.unmetExpectation)
            }
            if changed.content {
                log(probe.contentProblem == nil ? "ContentRecovered" : "ContentFailed", probe: probe, message: probe.contentProblem)
            }
        }
    }

    /// Adds a probe's own event (a verdict, an alert) to the log and the `events` stream, under
    /// its resource's URL and method as the resource's own events show them.
    func log(_ event: String, probe: Probe, message: String?, state: String? = nil) {
        let metrics = probe.resource.latestMetrics
        let shown = probes(of: probe.resource)
        let entry = EventLog.Entry(
            time: clock.now, url: shown?.url ?? probe.displayURL, method: shown?.method ?? probe.spec.method.httpName,
            panes: [probe.spec.title], event: event,
            statusCode: metrics?.statusCode, latency: metrics?.latency, message: message, state: state)
        eventLog.append(entry)
        onEvent?(entry)
    }
}
