import FoundationEssentials
import ResourceEngine

/// `alerts:`: when a pane counts as failing, and what Hammock does when it starts failing, is
/// still failing, and recovers. The top-level section gives every pane's defaults; a pane's own
/// `alerts:` overrides any key.
public struct AlertSpec: Sendable {
    /// Consecutive failed probes before the pane is failing (degraded before).
    public var failAfter = 1
    /// Consecutive good probes before a failing pane is ok again (degraded before).
    public var recoverAfter = 1
    /// Ring the terminal bell when the pane starts failing (and on reminders).
    public var bell = false
    /// A desktop notification (`notify-send`), when one is installed.
    public var notify = false
    /// A program and its arguments, run without a shell; the program as a full path when the
    /// config named a file.
    public var exec: [String] = []
    /// How long a command may run before it is stopped.
    public var timeout: TimeInterval = 10
    public var webhook: WebhookSpec?
    /// Repeat the actions this often while the pane stays failing.
    public var remind: TimeInterval?
    /// Also act when the pane recovers.
    public var onResolved = true
    /// Act when the content changes (`onChange: true`), or any of these paths in it
    /// (`onChange: [version, build.commit]`); nil: never.
    public var onChange: [String]?
    /// True when the file says `alerts:` for the pane (top level or its own): then its alert
    /// events (`AlertFiring`, `AlertResolved`) are logged; without, the log stays as it was.
    public var configured = false

    public init() {}

    /// "fail after 3, ok after 2; bell, exec on-alert.sh, webhook ${HOOK}; remind 30m", for
    /// `hammock check` (a webhook as written, so a secret in it stays a reference).
    public var summary: String {
        var actions: [String] = []
        if bell { actions.append("bell") }
        if notify { actions.append("notify") }
        if let program = exec.first { actions.append("exec " + URL(fileURLWithPath: program).lastPathComponent) }
        if let webhook { actions.append("webhook " + webhook.url.display) }
        var parts = ["fail after \(failAfter), ok after \(recoverAfter)", actions.isEmpty ? "no actions" : actions.joined(separator: ", ")]
        if let remind { parts.append("remind \(DurationText.format(remind))") }
        if !onResolved { parts.append("not on recovery") }
        return parts.joined(separator: "; ")
    }

    /// True when anything happens beyond the state and the event log.
    public var hasActions: Bool { bell || notify || !exec.isEmpty || webhook != nil }

    /// The longest a command may be given (`timeout`).
    public static let longestTimeout: TimeInterval = 300
}
