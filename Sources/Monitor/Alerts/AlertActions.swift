import DashboardConfig
import FoundationEssentials
import ResourceEngine

/// Does what a pane's `alerts:` ask when its alert fires, reminds or resolves: rings the bell,
/// shows a desktop notification, runs a command, posts a webhook.
///
/// Never blocks and never storms: commands run detached (`DetachedCommand`), webhooks go through
/// the engine (its timeouts, TLS and redaction); at most `maxRunning` actions run at once, up to
/// `maxQueued` wait, more are dropped and counted; nothing is retried. A failure is reported
/// through `onProblem`, once per failure (a missing notifier once per run).
@MainActor
final class AlertActions {
    /// One alert, as every action sees it; every text in it already redacted.
    struct Alert: Sendable {
        enum Kind: String, Sendable {
            case firing, reminder, resolved
            /// The content changed (`alerts.onChange`).
            case changed
        }

        let kind: Kind
        /// The pane it is about, for reporting a failed action against it.
        let paneID: ObjectIdentifier
        let pane: String
        let state: String
        let message: String
        let url: String
        let service: String
        let status: Int?
        let since: TimeInterval?
        let time: TimeInterval
        let dashboard: String

        /// The webhook template's placeholders.
        var values: [String: String] {
            [
                "pane": pane, "state": state, "event": kind.rawValue, "message": message, "url": url, "service": service,
                "status": status.map(String.init) ?? "", "since": since.map(EventLine.timestamp) ?? "", "time": EventLine.timestamp(time),
                "dashboard": dashboard,
            ]
        }

        /// What a command gets on top of Hammock's own environment.
        var environment: [String: String] {
            Dictionary(uniqueKeysWithValues: values.map { ("HAMMOCK_" + $0.key.uppercased(), $0.value) })
        }

        /// "Payments is failing: 503 Service Unavailable" (a notification's text).
        var headline: String {
            switch kind {
            case .firing: "\(pane) is \(state)"
            case .reminder: "\(pane) is still \(state)"
            case .resolved: "\(pane) is ok again"
            case .changed: "\(pane) changed"
            }
        }
    }

    static let maxRunning = 4
    static let maxQueued = 64

    /// Rings the terminal's bell.
    var onBell: () -> Void = {}
    /// A failed action, for the event log and the status line: the alert it was for and why.
    var onProblem: (_ alert: Alert, _ message: String) -> Void = { _, _ in }
    /// Posts a webhook's body; calls back with nil, or why it failed.
    var postWebhook: (_ webhook: WebhookSpec, _ body: JSON, _ done: @escaping @MainActor (String?) -> Void) -> Void = { _, _, done in done(nil) }
    /// Starts a command; calls back with nil, or why it failed.
    var runCommand: (_ argv: [String], _ environment: [String: String], _ timeout: TimeInterval, _ done: @escaping @MainActor @Sendable (String?) -> Void) -> Void =
        { argv, environment, timeout, done in DetachedCommand.run(argv, environment: environment, timeout: timeout, completion: done) }

    /// Hammock's environment, which commands start from.
    let environment: [String: String]
    /// Where `notify-send` is, if anywhere on PATH.
    let notifier: String?
    private var running = 0
    private var queue: [(alert: Alert, start: (@escaping @MainActor @Sendable (String?) -> Void) -> Void)] = []
    private var dropped = 0
    private var toldNoNotifier = false

    init(environment: [String: String]) {
        self.environment = environment
        notifier = ConfigLoader.executableOnPath("notify-send", path: environment["PATH"])
    }

    /// `text` with `&`, `<` and `>` as entities, so a notification shows it as written.
    static func escapingMarkup(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Performs the actions `spec` names for `alert` (`onResolved: false` skips a resolved one).
    func perform(_ alert: Alert, spec: AlertSpec) {
        if alert.kind == .resolved, !spec.onResolved { return }
        if spec.bell, alert.kind != .resolved { onBell() }
        if spec.notify {
            if let notifier {
                let urgency = alert.kind == .resolved ? "normal" : "critical"
                // The body is markup to notification daemons: a server's `<a href>` or `<img src=…>`
                // must read as text.
                let argv = [notifier, "--app-name=Hammock", "--urgency=\(urgency)", "--", "Hammock: " + alert.headline, AlertActions.escapingMarkup(alert.message)]
                enqueue(alert) { [environment] done in
                    self.runCommand(argv, environment, spec.timeout, done)
                }
            } else if !toldNoNotifier {
                toldNoNotifier = true
                onProblem(alert, "notify: no desktop notifier is installed (notify-send, from libnotify-bin); notifications are skipped")
            }
        }
        if !spec.exec.isEmpty {
            let environment = self.environment.merging(alert.environment) { _, new in new }
            enqueue(alert) { done in self.runCommand(spec.exec, environment, spec.timeout, done) }
        }
        if let webhook = spec.webhook {
            let body = WebhookSpec.fill(webhook.body ?? WebhookSpec.defaultBody, with: alert.values)
            enqueue(alert) { done in self.postWebhook(webhook, body, done) }
        }
    }

    private func enqueue(_ alert: Alert, _ start: @escaping (@escaping @MainActor @Sendable (String?) -> Void) -> Void) {
        if running < Self.maxRunning {
            launch(alert, start)
        } else if queue.count < Self.maxQueued {
            queue.append((alert, start))
        } else {
            dropped += 1
            // Said when a burst starts dropping and, with the count, when it is over; not per drop.
            if dropped == 1 { onProblem(alert, "alert actions dropped: more than \(Self.maxRunning + Self.maxQueued) at once") }
        }
    }

    private func launch(_ alert: Alert, _ start: (@escaping @MainActor @Sendable (String?) -> Void) -> Void) {
        running += 1
        start { [weak self] failure in
            guard let self else { return }
            self.running -= 1
            if let failure { self.onProblem(alert, failure) }
            if self.running < Self.maxRunning, !self.queue.isEmpty {
                let next = self.queue.removeFirst()
                self.launch(next.alert, next.start)
            }
            if self.running == 0, self.queue.isEmpty, self.dropped > 0 {
                let count = self.dropped
                self.dropped = 0
                self.onProblem(alert, "\(count) alert action\(count == 1 ? " was" : "s were") dropped in a burst of more than \(Self.maxRunning + Self.maxQueued)")
            }
        }
    }
}
