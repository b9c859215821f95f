import DashboardKeys
import TerminalUI

/// The help overlay (`?`): the key map's lines, then what the symbols on screen mean, in a box
/// that wraps to the terminal and scrolls when it is taller than the screen. `update` scrolls by
/// it and the view draws it, so both agree on how far it goes.
enum HelpOverlay {
    /// What every symbol of the header, the title bars and the list means, the meanings under
    /// the keys' text.
    static func legend(_ keys: KeyMap) -> [String] {
        let symbols = [
            ("✓", "ok"),
            ("✗", "failing: the latest load failed, or its data cannot be shown"),
            ("⚠", "an expectation is unmet (the pane says which)"),
            ("◐", "degraded: failing fewer times than alerts.failAfter, recovering, or past a warn threshold"),
            ("⟳ ⠋", "loading"),
            ("▸", "the selected pane"),
            ("⏸", "refreshes paused" + (keys.primaryName(.togglePause).map { " (\($0))" } ?? "")),
        ]
        return ["Symbols (the header counts the panes in each state)"]
            + symbols.map { KeyMap.helpLine($0.0, $0.1, column: keys.helpKeyColumn) }
    }

    static func lines(_ keys: KeyMap) -> [String] { keys.helpLines + [""] + legend(keys) }

    /// The overlay of `keys` scrolled to `scroll`; a long line wraps under the keys' text.
    static func modal(_ keys: KeyMap, scroll: Int) -> Modal {
        Modal(title: "Keys", lines: lines(keys), hangingIndent: keys.helpKeyColumn, scroll: scroll)
    }

    /// Where it is drawn at `size`: the screen between the header and the footer.
    static func area(at size: Size) -> Rect {
        Rect(x: 0, y: 1, width: size.columns, height: max(0, size.rows - GridShape.chromeRows))
    }

    /// The furthest it scrolls at `size`.
    static func maxScroll(_ keys: KeyMap, at size: Size) -> Int {
        modal(keys, scroll: 0).maxScroll(in: area(at: size))
    }
}
