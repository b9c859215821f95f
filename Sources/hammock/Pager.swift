import FoundationEssentials
import Glibc
import TextBasics

/// Which pager `o` runs: `$PAGER` when set, else `less`, else `more` (the text is already
/// sanitised: no escape sequences reach the terminal through it).
enum Pager {
    static func command(environment: [String: String]) -> String {
        if let pager = environment["PAGER"], !pager.trimmingWhitespace().isEmpty { return pager }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where access("\(directory)/less", X_OK) == 0 {
            return "less"
        }
        return "more"
    }

    /// The pager's environment: Hammock's, with `LESSSECURE=1` unless it says otherwise, so
    /// `less` runs no shell command, opens no other file and saves nothing (`!`, `:e`, `s`): a
    /// stray key (or a flood of them) in the pager cannot run anything.
    static func environment(_ environment: [String: String]) -> [String] {
        var pager = environment
        if pager["LESSSECURE"] == nil { pager["LESSSECURE"] = "1" }
        return pager.map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// Which editor `E` runs: `$EDITOR`, else `$VISUAL`, else `vi`.
    static func editor(environment: [String: String]) -> String {
        for name in ["EDITOR", "VISUAL"] {
            if let editor = environment[name], !editor.trimmingWhitespace().isEmpty { return editor }
        }
        return "vi"
    }
}
