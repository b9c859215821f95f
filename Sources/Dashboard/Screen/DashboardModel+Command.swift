import DashboardConfig
import DashboardKeys
import FoundationEssentials
import TerminalUI
import TextBasics

/// The `:` command line, as in k9s: a word and its argument, completed with Tab, run with Enter.
/// Each command is what its keys would do, or a choice the keys do not offer (a pane by name, a
/// theme for this run).
@MainActor
extension DashboardModel {
    /// The commands, in the order completion offers them.
    static let commands = ["pane", "filter", "reload", "mute", "unmute", "theme", "quit"]

    mutating func commandKey(_ key: KeyEvent, world: some ScreenWorld) -> [DashboardEffect] {
        switch key {
        case .escape:
            mode = .normal
            commandLine = ""
        case .backspace:
            if commandLine.isEmpty { mode = .normal } else { commandLine.removeLast() }
        case .tab:
            commandLine = completed(commandLine)
        case .enter:
            let line = commandLine
            mode = .normal
            commandLine = ""
            return run(line, world: world)
        case .character(let c):
            commandLine.append(c)
        default:
            break
        }
        return []
    }

    /// `line` with its last word completed: a command, then a pane's title or a theme's name.
    /// When several fit, as far as they agree.
    func completed(_ line: String) -> String {
        let words = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let candidates: [String]
        let typed: String
        let prefix: String
        if words.count <= 1 {
            (candidates, typed, prefix) = (Self.commands, words.first ?? "", "")
        } else if words[0] == "pane" {
            (candidates, typed, prefix) = (panes.map(\.title), words[1], "pane ")
        } else if words[0] == "theme" {
            (candidates, typed, prefix) = (ThemeSpec.Base.allCases.map(\.rawValue), words[1], "theme ")
        } else if words[0] == "reload" {
            (candidates, typed, prefix) = (["all"], words[1], "reload ")
        } else if words[0] == "mute" {
            (candidates, typed, prefix) = (["15m", "1h", "recovered"], words[1], "mute ")
        } else {
            return line
        }
        let fits = candidates.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
        guard let first = fits.first else { return line }
        if fits.count == 1 { return prefix + first + (words.count <= 1 ? " " : "") }
        var common = first
        for other in fits.dropFirst() {
            while !other.lowercased().hasPrefix(common.lowercased()) { common.removeLast() }
        }
        return prefix + (common.count > typed.count ? common : typed)
    }

    /// Runs a command line; an unknown command or a pane not found is said in the footer.
    mutating func run(_ line: String, world: some ScreenWorld) -> [DashboardEffect] {
        let words = line.trimmingWhitespace().split(separator: " ", maxSplits: 1).map(String.init)
        guard let command = words.first else { return [] }
        let argument = words.count > 1 ? words[1].trimmingWhitespace() : ""
        switch command {
        case "quit", "q":
            return perform(.quit, world: world)
        case "reload":
            return perform(argument == "all" ? .reloadAll : .reload, world: world)
        case "filter":
            var effects = perform(.filterPanes, world: world)
            for character in argument { effects += keyPressed(.character(character), world: world) }
            return effects + keyPressed(.enter, world: world)
        case "pane":
            let visible = visiblePanes
            let wanted = argument.lowercased()
            guard let index = visible.firstIndex(where: { $0.title.lowercased() == wanted })
                ?? visible.firstIndex(where: { $0.title.lowercased().hasPrefix(wanted) })
                ?? visible.firstIndex(where: { $0.title.lowercased().contains(wanted) }), !wanted.isEmpty
            else {
                flash = "no pane is called \"\(argument)\""
                return []
            }
            select(index, in: visible)
            return []
        case "mute":
            guard let selected = selectedPane else { return [] }
            if argument.isEmpty || argument == "recovered" { return [.mute(selected.id, nil)] }
            guard let seconds = DurationText.parse(argument), DurationText.hasUnit(argument), seconds > 0, seconds <= 30 * 86_400 else {
                flash = "mute for how long? 15m, 1h, 2d… or nothing: until it recovers"
                return []
            }
            return [.mute(selected.id, seconds)]
        case "unmute":
            return selectedPane.map { [.unmute($0.id)] } ?? []
        case "theme":
            guard let base = ThemeSpec.Base(rawValue: argument.lowercased()) else {
                flash = "no theme \"\(argument)\": " + ThemeSpec.Base.allCases.map(\.rawValue).joined(separator: ", ")
                return []
            }
            themeOverride = base
            return []
        default:
            let guess = Self.commands.first { Suggestions.editDistance($0, command) <= 2 }
            flash = "unknown command :\(command)" + (guess.map { "; did you mean :\($0)?" } ?? "") + " (:" + Self.commands.joined(separator: " :") + ")"
            return []
        }
    }
}
