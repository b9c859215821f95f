import ArgumentParser
import DashboardConfig
import FoundationEssentials

/// A first argument that is neither a command nor a file: a mistyped command (`snapsot`,
/// `version`) is told so, with what was probably meant, instead of being opened as a config that
/// does not exist or failing on the argument after it.
enum CommandGuess {
    /// The message for `arguments` (without the program's name), or nil when they are fine: the
    /// first is an option, a command, a path (it has a `/` or a `.`) or something that exists.
    static func unknownCommand(in arguments: [String], commands: [String], exists: (String) -> Bool) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first) else { return nil }
        if first.contains("/") || first.contains(".") || exists(first) { return nil }
        let meant: [String]
        switch first.lowercased() {
        case "version": meant = ["--version"]
        case "start", "run", "dashboard", "tui": meant = ["open"]
        default: meant = commands.filter { close(first.lowercased(), $0) }
        }
        var message = "hammock: unknown command '\(first)'"
        if !meant.isEmpty { message += "; did you mean \(meant.map { "'hammock \($0)'" }.joined(separator: " or "))?" }
        message += "\nCommands: \(commands.joined(separator: ", ")). A config to open is a file: hammock ./\(first) if that is one."
        return message
    }

    /// Within two edits of each other (a letter left out, added, changed or two swapped), or one the
    /// start of the other.
    static func close(_ typed: String, _ command: String) -> Bool {
        if typed.count >= 2, command.hasPrefix(typed) || typed.hasPrefix(command) { return true }
        return Suggestions.editDistance(typed, command) <= min(2, max(1, command.count / 3))
    }
}
