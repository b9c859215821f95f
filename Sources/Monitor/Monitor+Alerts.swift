import DashboardConfig
import FoundationEssentials
import Redaction
import ResourceEngine

extension Monitor {
    func setUpAlertActions() {
        alertActions.onBell = { [weak self] in self?.onBell?() }
        alertActions.onProblem = { [weak self] alert, message in self?.alertActionFailed(alert, message: message) }
        alertActions.postWebhook = { [weak self] webhook, body, done in
            guard let self else { return done("the dashboard stopped") }
            self.post(webhook, body: body, done: done)
        }
    }

    /// Counts a finished probe toward its alert (after its verdict was worked out); logs
    /// `AlertFiring` / `AlertResolved` and acts when the alert changes.
    func countProbe(of probe: Probe) {
        let before = probe.alert
        let transition = probe.recordProbe(at: clock.now)
        if probe.mute == .untilRecovered, probe.verdict == .ok { probe.mute = nil }
        probe.silence = probe.silence(at: clock.now)
        guard probe.spec.alerts.configured || alertmanager != nil else { return }
        switch transition {
        case .none:
            // A silence that ended while the alert fired unsaid: it is said now.
            if probe.alertHeld, probe.silence == nil {
                probe.alertHeld = false
                if probe.alert.firing { fire(probe) }
            }
            return
        case .fired:
            if let silence = probe.silence {
                probe.alertHeld = true
                let message = probe.failure ?? probe.unmetExpectation ?? "failing"
                log("AlertHeld", probe: probe, message: "\(message) (\(silence.reason); said when it ends if it still fails)", state: probe.health.name)
                return
            }
            fire(probe)
        case .resolved:
            cancelReminder(for: probe)
            if probe.alertHeld {
                // Never said: its end is not news.
                probe.alertHeld = false
                log("AlertResolved", probe: probe, message: "ok again while \(probe.silence?.reason ?? "silenced")", state: probe.health.name)
                return
            }
            let lasted = before.troubleSince.map { DurationText.format(max(0, (clock.now - $0).rounded())) }
            let probes = "\(before.failedProbes) failed probe\(before.failedProbes == 1 ? "" : "s")"
            let message = "ok again after \(probes)" + (lasted.map { " over \($0)" } ?? "")
            log("AlertResolved", probe: probe, message: message, state: probe.health.name)
            act(.resolved, on: probe, message: message, since: before.troubleSince)
            alertmanager?.resolve(ObjectIdentifier(probe), at: clock.now)
        }
    }

    /// Says a firing alert: the event log, the pane's actions, Alertmanager, its reminders.
    private func fire(_ probe: Probe) {
        let message = probe.failure ?? probe.unmetExpectation ?? "failing"
        log("AlertFiring", probe: probe, message: message, state: probe.health.name)
        act(.firing, on: probe, message: message, since: probe.alert.troubleSince)
        sendToAlertmanager(probe, message: message)
        scheduleReminder(for: probe)
    }

    // MARK: Mute

    /// Mutes `probe`'s alerts for `duration` seconds, or until it recovers (nil).
    public func mute(_ probe: Probe, for duration: TimeInterval?) {
        probe.mute = duration.map { .until(clock.now + $0) } ?? .untilRecovered
        probe.silence = probe.silence(at: clock.now)
        let until = duration.map { "for " + DurationText.format($0) } ?? "until it recovers"
        log("Muted", probe: probe, message: "alerts muted \(until)")
        onStateChange?()
        onProbesChanged?([probe])
    }

    /// Ends `probe`'s mute; an alert it held is said now if it still fires.
    public func unmute(_ probe: Probe) {
        guard probe.mute != nil else { return }
        probe.mute = nil
        probe.silence = probe.silence(at: clock.now)
        log("Unmuted", probe: probe, message: "alerts no longer muted")
        if probe.alertHeld, probe.silence == nil {
            probe.alertHeld = false
            if probe.alert.firing { fire(probe) }
        }
        onStateChange?()
        onProbesChanged?([probe])
    }

    func act(_ kind: AlertActions.Alert.Kind, on probe: Probe, message: String, since: TimeInterval?) {
        guard actsOnAlerts, probe.spec.alerts.hasActions else { return }
        // A message may be a server's text: no escape sequence reaches a script's log or a
        // notification, and each value is one line.
        let alert = AlertActions.Alert(
            kind: kind, paneID: ObjectIdentifier(probe), pane: oneLine(probe.spec.title), state: probe.health.name,
            message: oneLine(message), url: oneLine(probe.displayURL), service: probe.spec.service ?? "",
            status: probe.resource.latestMetrics?.statusCode, since: since, time: clock.now, dashboard: oneLine(spec.title))
        alertActions.perform(alert, spec: probe.spec.alerts)
    }

    // MARK: Alertmanager

    /// Starts posting to `alertmanager:`, when the config names one and alerts are acted on.
    func startAlertmanager() {
        guard let spec = spec.alertmanager, actsOnAlerts else { return }
        let client = AlertmanagerClient(spec: spec, service: services.main, scheduler: scheduler, redactor: redactor)
        client.generatorURL = generatorURL
        client.onFailure = { [weak self] line in self?.onAlertActionFailed?(line) }
        alertmanager = client
    }

    /// Posts a probe's firing alert: labels that name it (`alertname`, `pane`, `service`,
    /// `location`, `tag`, then the config's), annotations that say it (the message, the URL as
    /// sent with its secrets masked), since when it fires.
    func sendToAlertmanager(_ probe: Probe, message: String) {
        guard let alertmanager else { return }
        var labels = [("alertname", "HammockPaneFailing"), ("pane", probe.spec.title)]
        if let service = probe.spec.service { labels.append(("service", service)) }
        if let location { labels.append(("location", location)) }
        if !probe.spec.tags.isEmpty { labels.append(("tag", probe.spec.tags.joined(separator: ","))) }
        for label in alertmanager.spec.labels where !labels.contains(where: { $0.0 == label.name }) { labels.append((label.name, label.value)) }
        let annotations = [
            ("summary", oneLine("\(probe.spec.title) is \(probe.health.name)")), ("description", oneLine(redactor.redact(message))),
            ("url", oneLine(redactor.redactURL(probe.resource.url.absoluteString))), ("dashboard", oneLine(spec.title)),
        ]
        let alert = AlertmanagerClient.Alert(labels: labels, annotations: annotations, startsAt: probe.alert.firedAt ?? clock.now, endsAt: nil)
        alertmanager.fire(alert, for: ObjectIdentifier(probe))
    }

    /// After a reload: the alerts still firing are Alertmanager's again (their start kept).
    func resumeFiringAlerts() {
        for probe in probes where probe.alert.firing {
            sendToAlertmanager(probe, message: probe.failure ?? probe.unmetExpectation ?? "failing")
        }
    }

    // MARK: Reminders

    /// While the probe's alert fires, `alerts.remind` after it fired (and after each reminder)
    /// logs `AlertReminder` and acts again.
    func scheduleReminder(for probe: Probe) {
        cancelReminder(for: probe)
        guard let every = probe.spec.alerts.remind, probe.alert.firing else { return }
        reminders[ObjectIdentifier(probe)] = scheduler.schedule(after: every) { [weak self, weak probe] in
            guard let self, let probe, probe.alert.firing, self.probes.contains(where: { $0 === probe }) else { return }
            // Paused, nothing is checked again: reminding of a state no one re-checks would
            // page someone about stale news. The reminder waits for the next interval.
            guard !self.isPaused else { return self.scheduleReminder(for: probe) }
            // Quiet or muted: no reminder either; the next comes after the silence.
            guard probe.silence(at: self.clock.now) == nil else { return self.scheduleReminder(for: probe) }
            let message = probe.failure ?? probe.unmetExpectation ?? "still failing"
            self.log("AlertReminder", probe: probe, message: message, state: probe.health.name)
            self.act(.reminder, on: probe, message: message, since: probe.alert.troubleSince)
            self.scheduleReminder(for: probe)
            self.onStateChange?()
            self.onReminder?()
        }
    }

    func cancelReminder(for probe: Probe) {
        reminders.removeValue(forKey: ObjectIdentifier(probe))?.cancel()
    }

    func cancelReminders() {
        for reminder in reminders.values { reminder.cancel() }
        reminders = [:]
    }

    /// Keeps alert counts (and probe counts, for `/metrics`) across a config reload for probes
    /// that stay (same title, same request): a reload must neither re-fire an alert nor forget one.
    func countsByProbe() -> [String: (AlertTracker, ProbeCounts, Probe.Mute?)] {
        Dictionary(probes.map { ($0.spec.title + "\n" + $0.historyKey, ($0.alert, $0.probeCounts, $0.mute)) }) { first, _ in first }
    }

    func restoreCounts(_ kept: [String: (AlertTracker, ProbeCounts, Probe.Mute?)]) {
        for probe in probes {
            guard let (tracker, counts, mute) = kept[probe.spec.title + "\n" + probe.historyKey] else { continue }
            probe.alert = tracker
            probe.probeCounts = counts
            // A mute the user set outlives an edit of the file.
            probe.mute = mute
            probe.silence = probe.silence(at: clock.now)
            if tracker.firing { scheduleReminder(for: probe) }
        }
    }

    // MARK: Actions

    private func alertActionFailed(_ alert: AlertActions.Alert, message: String) {
        let text = redactor.redact(message).bounded(to: 500)
        if let probe = probes.first(where: { ObjectIdentifier($0) == alert.paneID }) {
            log("AlertActionFailed", probe: probe, message: text)
        }
        onAlertActionFailed?("alert for \(alert.pane): \(text)")
    }

    /// A webhook's POST, through the engine: the service's TLS and timeouts for its URL.
    private func post(_ webhook: WebhookSpec, body: JSON, done: @escaping @MainActor (String?) -> Void) {
        let resource = services.main.resource(absoluteURL: webhook.url.value)
        resource.request(.post, json: body) { request in
            for header in webhook.headers { request.setValue(header.value.value, forHTTPHeaderField: header.name) }
        }
        .onCompletion { [redactor] info in
            switch info.response {
            case .success:
                done(nil)
            case .failure(let error):
                let status = error.httpStatusCode.map { "\($0) " } ?? ""
                done(redactor.redact("webhook \(webhook.url.display): \(status)\(error.userMessage)"))
            }
        }
    }
}
