import TerminalUI

/// The help overlay (`?`): the key map's lines, then what the symbols on screen mean, in a box
/// that wraps to the terminal and scrolls when it is taller than the screen. `update` scrolls by
/// it and the view draws it, so both agree on how far it goes.
enum HelpOverlay {
    /// What every symbol of the header, the title bars and the list means.
    static let legend = [
        "Symbols (the header counts the panes in each state)",
        "✓          ok",
        "✗          failing: the latest load failed, or its data cannot be shown",
        "⚠          an expectation is unmet (the pane says which)",
        "◐          degraded: failing fewer times than alerts.failAfter, recovering, or past a warn threshold",
        "⟳ ⠋        loading",
        "▸          the selected pane",
        "⏸          refreshes paused (p)",
    ]

    /// Under the key column of a "key  does" line.
    static let hangingIndent = 11

    static var lines: [String] { KeyMap.helpLines + [""] + legend }

    /// The overlay scrolled to `scroll`.
    static func modal(scroll: Int) -> Modal {
        Modal(title: "Keys", lines: lines, hangingIndent: hangingIndent, scroll: scroll)
    }

    /// Where it is drawn at `size`: the screen between the header and the footer.
    static func area(at size: Size) -> Rect {
        Rect(x: 0, y: 1, width: size.columns, height: max(0, size.rows - GridShape.chromeRows))
    }

    /// The furthest it scrolls at `size`.
    static func maxScroll(at size: Size) -> Int {
        modal(scroll: 0).maxScroll(in: area(at: size))
    }
}
