import DashboardConfig
import Foundation
import FoundationNetworking
import Redaction
import ResourceEngine
import TerminalUI

extension DashboardApp {
    func setUpAlertActions() {
        alertActions.onBell = { [weak self] in self?.terminal?.bell() }
        alertActions.onProblem = { [weak self] alert, message in self?.alertActionFailed(alert, message: message) }
        alertActions.postWebhook = { [weak self] webhook, body, done in
            guard let self else { return done("the dashboard stopped") }
            self.post(webhook, body: body, done: done)
        }
    }

    /// Counts a finished probe toward the pane's alert (after its verdict was worked out); logs
    /// `AlertFiring` / `AlertResolved` and acts when the alert changes.
    func countProbe(of pane: Pane) {
        let before = pane.alert
        let transition = pane.recordProbe(at: clock.now)
        guard pane.spec.alerts.configured else { return }
        switch transition {
        case .none:
            return
        case .fired:
            let message = pane.failure ?? pane.unmetExpectation ?? "failing"
            log("AlertFiring", pane: pane, message: message, state: Snapshot.stateName(pane.health))
            act(.firing, on: pane, message: message, since: pane.alert.troubleSince)
            scheduleReminder(for: pane)
        case .resolved:
            cancelReminder(for: pane)
            let lasted = before.troubleSince.map { DurationText.format(max(0, (clock.now - $0).rounded())) }
            let probes = "\(before.failedProbes) failed probe\(before.failedProbes == 1 ? "" : "s")"
            let message = "ok again after \(probes)" + (lasted.map { " over \($0)" } ?? "")
            log("AlertResolved", pane: pane, message: message, state: Snapshot.stateName(pane.health))
            act(.resolved, on: pane, message: message, since: before.troubleSince)
        }
    }

    private func act(_ kind: AlertActions.Alert.Kind, on pane: Pane, message: String, since: TimeInterval?) {
        guard actsOnAlerts, pane.spec.alerts.hasActions else { return }
        // A message may be a server's text: no escape sequence reaches a script's log or a
        // notification, and each value is one line.
        let alert = AlertActions.Alert(
            kind: kind, paneID: ObjectIdentifier(pane), pane: Sanitizer.line(pane.spec.title), state: Snapshot.stateName(pane.health),
            message: Sanitizer.line(message), url: Sanitizer.line(pane.displayURL), service: pane.spec.service ?? "",
            status: pane.resource.latestMetrics?.statusCode, since: since, time: clock.now, dashboard: Sanitizer.line(spec.title))
        alertActions.perform(alert, spec: pane.spec.alerts)
    }

    // MARK: Reminders

    /// While the pane's alert fires, `alerts.remind` after it fired (and after each reminder)
    /// logs `AlertReminder` and acts again.
    func scheduleReminder(for pane: Pane) {
        cancelReminder(for: pane)
        guard let every = pane.spec.alerts.remind, pane.alert.firing else { return }
        reminders[ObjectIdentifier(pane)] = scheduler.schedule(after: every) { [weak self, weak pane] in
            guard let self, let pane, pane.alert.firing, self.panes.contains(where: { $0 === pane }) else { return }
            // Paused, nothing is checked again: reminding of a state no one re-checks would
            // page someone about stale news. The reminder waits for the next interval.
            guard !self.isPaused else { return self.scheduleReminder(for: pane) }
            let message = pane.failure ?? pane.unmetExpectation ?? "still failing"
            self.log("AlertReminder", pane: pane, message: message, state: Snapshot.stateName(pane.health))
            self.act(.reminder, on: pane, message: message, since: pane.alert.troubleSince)
            self.scheduleReminder(for: pane)
            self.send(.resourceChanged)
        }
    }

    func cancelReminder(for pane: Pane) {
        reminders.removeValue(forKey: ObjectIdentifier(pane))?.cancel()
    }

    func cancelReminders() {
        for reminder in reminders.values { reminder.cancel() }
        reminders = [:]
    }

    /// Keeps alert counts (and probe counts, for `/metrics`) across a config reload for panes
    /// that stay (same title, same request): a reload must neither re-fire an alert nor forget one.
    func countsByPane() -> [String: (AlertTracker, ProbeCounts)] {
        Dictionary(panes.map { ($0.spec.title + "\n" + $0.historyKey, ($0.alert, $0.probeCounts)) }) { first, _ in first }
    }

    func restoreCounts(_ kept: [String: (AlertTracker, ProbeCounts)]) {
        for pane in panes {
            guard let (tracker, counts) = kept[pane.spec.title + "\n" + pane.historyKey] else { continue }
            pane.alert = tracker
            pane.probeCounts = counts
            if tracker.firing { scheduleReminder(for: pane) }
        }
    }

    // MARK: Actions

    private func alertActionFailed(_ alert: AlertActions.Alert, message: String) {
        let text = PaneContent.bounded(redactor.redact(message), to: 500)
        if let pane = panes.first(where: { ObjectIdentifier($0) == alert.paneID }) {
            log("AlertActionFailed", pane: pane, message: text)
        }
        flash = "alert for \(alert.pane): \(text)"
        requestFrame()
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
