import ArgumentParser

/// What `hammock`'s exit status says, the same for every command (README's table; the
/// command-line tests pin each).
enum ExitStatus: Int32, CaseIterable {
    /// Everything ok: every pane answered and met its expectations; the config is valid.
    case ok = 0
    /// A pane failed, or an expectation is unmet (`snapshot`).
    case failed = 1
    /// The config (or `keys.yaml`) has problems, cannot be read, or was not found.
    case invalidConfig = 2
    /// The command line is wrong: an unknown command or option, a bad value, no terminal to draw in.
    case usage = 64
    /// Hammock could not do its work: a port it cannot listen on, a file it cannot write, a fault of its own.
    case internalError = 70

    /// Ends the command with this status.
    var exit: ExitCode { ExitCode(rawValue) }

    /// README's words for it.
    var meaning: String {
        switch self {
        case .ok: "every pane answered and met its expectations; the config is valid"
        case .failed: "a pane failed or an expectation is unmet (`snapshot`)"
        case .invalidConfig: "the config or `keys.yaml` has problems, cannot be read, or was not found"
        case .usage: "the command line is wrong: an unknown command or option, a bad value, no terminal to draw in"
        case .internalError: "Hammock could not do its work: a port it cannot listen on, a file it cannot write, a fault of its own"
        }
    }
}
