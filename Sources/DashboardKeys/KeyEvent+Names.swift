import TerminalUI

extension KeyEvent {
    /// The names a config may give keys besides single characters and `ctrl-X`, `f1`–`f12`.
    static let named: [(String, KeyEvent)] = [
        ("up", .up), ("down", .down), ("left", .left), ("right", .right), ("enter", .enter), ("return", .enter),
        ("esc", .escape), ("escape", .escape), ("tab", .tab), ("shift-tab", .backTab), ("backtab", .backTab),
        ("backspace", .backspace), ("delete", .delete), ("pgup", .pageUp), ("pageup", .pageUp), ("pgdn", .pageDown),
        ("pagedown", .pageDown), ("home", .home), ("end", .end), ("space", .character(" ")),
    ]

    /// What a config may write, for messages.
    public static let namesHelp = "a single character, ctrl-A to ctrl-Z, f1 to f12, up, down, left, right, enter, esc, tab, shift-tab, backspace, delete, pgup, pgdn, home, end or space"

    /// The key a config names (`r`, `R`, `ctrl-r`, `f5`, `pgdn`, `shift-tab`, `space`): names
    /// longer than one character are read without regard to case. `.failure` says why not.
    public static func named(_ text: String) -> Result<KeyEvent, KeyNameProblem> {
        if text.count == 1, let character = text.first {
            guard character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                return .failure(KeyNameProblem("a control character cannot be named directly; write ctrl-X"))
            }
            return .success(.character(character))
        }
        let lower = text.lowercased()
        if let key = named.first(where: { $0.0 == lower })?.1 { return .success(key) }
        for prefix in ["ctrl-", "ctrl+", "c-", "^"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            guard rest.count == 1, let letter = rest.first, letter.isASCII, letter.isLetter else { break }
            // The terminal sends these as Tab, Enter and Backspace: they cannot be told apart.
            switch letter {
            case "i": return .failure(KeyNameProblem("ctrl-i reaches Hammock as Tab; write tab"))
            case "m", "j": return .failure(KeyNameProblem("ctrl-\(letter) reaches Hammock as Enter; write enter"))
            case "h": return .failure(KeyNameProblem("ctrl-h reaches Hammock as Backspace; write backspace"))
            default: return .success(.ctrl(letter))
            }
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...12).contains(number) {
            return .success(.function(number))
        }
        return .failure(KeyNameProblem("unknown key \"\(text)\" (\(namesHelp))"))
    }

    /// Its name on screen: `r`, `⏎`, `Esc`, `←`, `Ctrl-R`, `PgDn`.
    public var screenName: String {
        switch self {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .ctrl(let c): "Ctrl-\(c.uppercased())"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .enter: "⏎"
        case .backTab: "⇧Tab"
        case .backspace: "Backspace"
        default: description
        }
    }

    /// Its name in README: characters in backticks, other keys by name (Enter, Left, Shift-Tab).
    public var readmeName: String {
        switch self {
        case .character(" "): "Space"
        case .character("`"): "`` ` ``"
        case .character("|"): "`\\|`"
        case .character(let c): "`\(c)`"
        case .enter: "Enter"
        case .backTab: "Shift-Tab"
        case .up, .down, .left, .right, .ctrl, .backspace: screenName.first?.isLetter == true ? screenName : description
        default: description
        }
    }
}

/// Why a name under `keys:` names no key.
public struct KeyNameProblem: Error, Sendable, Equatable {
    /// What is wrong, for a config problem.
    public let message: String

    init(_ message: String) { self.message = message }
}
