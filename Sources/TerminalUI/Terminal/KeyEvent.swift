/// A key press (or a mouse report, which arrives in the same stream), independent of the terminal
/// library that read it.
public enum KeyEvent: Sendable, Hashable, CustomStringConvertible {
    case character(Character)
    case ctrl(Character)
    case up, down, left, right
    case tab, backTab, enter, escape, backspace, delete
    case pageUp, pageDown, home, end
    case function(Int)
    /// A click or a turn of the wheel (SGR reports, `ESC [ < b ; x ; y M`), when mouse reporting is on.
    case mouse(MouseEvent)

    public var description: String {
        switch self {
        case .character(let c): String(c)
        case .ctrl(let c): "C-\(c)"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .tab: "Tab"
        case .backTab: "BTab"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "BSpace"
        case .delete: "Delete"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .function(let n): "F\(n)"
        case .mouse(let event): "\(event)"
        }
    }
}

/// Something that happened to the terminal: a key, a new size, a signal, a resume after suspend.
public enum TerminalEvent: Sendable, Equatable {
    case key(KeyEvent)
    case resize(Size)
    /// SIGINT, SIGTERM or SIGHUP arrived; the app should quit with status 128 + signal.
    case signal(Int32)
    /// The process was continued after a suspend; the screen must be redrawn in full.
    case resumed
    /// Standard input closed; nothing more can be read.
    case inputClosed
}
