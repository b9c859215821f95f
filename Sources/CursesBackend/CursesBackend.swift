import CNCursesW
import Glibc
import TerminalUI

/// The real screen: draws buffer diffs through ncursesw.
///
/// The only code that talks to ncurses. Created by `TerminalSession`, which owns the terminal's
/// lifecycle; this type only draws and measures. Runs of cells with one style on a row go out in one
/// call; nothing reaches the terminal until `flush()` calls `doupdate` once.
@MainActor
public final class CursesBackend: Backend {
    private let window: UnsafeMutablePointer<WINDOW>
    private var pairs: [PairKey: Int16] = [:]
    private var nextPair: Int16 = 1
    /// The wide characters of the run being drawn, kept between frames.
    private var run: [wchar_t] = []
    /// How many colours the terminal offers (0 for none).
    public let colorCount: Int
    /// False once the session has restored the terminal: a late frame must not re-enter curses
    /// mode (ncurses' `doupdate` would put the terminal back into raw mode on the way out).
    var isActive = true

    private struct PairKey: Hashable {
        let foreground: Int
        let background: Int
    }

    init(window: UnsafeMutablePointer<WINDOW>, colors: Bool) {
        self.window = window
        colorCount = colors ? Int(nc_colors()) : 0
    }

    public var size: Size {
        Size(columns: Int(getmaxx(window)), rows: Int(getmaxy(window)))
    }

    public func draw(_ updates: [CellUpdate]) {
        guard isActive else { return }
        var index = 0
        while index < updates.count {
            let first = updates[index]
            run.removeAll(keepingCapacity: true)
            appendScalars(of: first)
            var end = first.x + first.columns
            var next = index + 1
            while next < updates.count, updates[next].y == first.y, updates[next].x == end,
                updates[next].hasSameStyle(as: first)
            {
                appendScalars(of: updates[next])
                end += updates[next].columns
                next += 1
            }
            apply(first.style)
            _ = mvwaddnwstr(window, Int32(first.y), Int32(first.x), run, Int32(run.count))
            index = next
        }
        _ = wattr_set(window, NC_A_NORMAL, 0, nil)
    }

    /// The cell's grapheme as wide characters onto `run` (ncurses takes them as they are; a
    /// multibyte string it decodes byte by byte).
    private func appendScalars(of update: CellUpdate) {
        if let scalar = update.scalar {
            run.append(wchar_t(bitPattern: scalar.value))
            return
        }
        // A grapheme of several scalars (a combining mark, a flag): rare, read as a `String`.
        for scalar in update.cell.symbol.unicodeScalars { run.append(wchar_t(bitPattern: scalar.value)) }
    }

    public func flush() {
        guard isActive else { return }
        _ = wnoutrefresh(window)
        _ = doupdate()
    }

    public func clear() {
        guard isActive else { return }
        _ = werase(window)
        _ = clearok(window, true)
    }

    private func apply(_ style: Style) {
        var attributes = NC_A_NORMAL
        if style.bold { attributes |= NC_A_BOLD }
        if style.dim { attributes |= NC_A_DIM }
        if style.reverse { attributes |= NC_A_REVERSE }
        if style.underline { attributes |= NC_A_UNDERLINE }
        _ = wattr_set(window, attributes, pair(for: style), nil)
    }

    /// The colour pair for a style's colours, allocated on first use; 0 (default) without colour.
    private func pair(for style: Style) -> Int16 {
        guard colorCount > 0 else { return 0 }
        let key = PairKey(foreground: paletteIndex(style.foreground), background: paletteIndex(style.background))
        if key.foreground < 0, key.background < 0 { return 0 }
        if let pair = pairs[key] { return pair }
        guard Int32(nextPair) < nc_color_pairs() else { return 0 }
        let pair = nextPair
        nextPair += 1
        _ = init_pair(pair, Int16(key.foreground), Int16(key.background))
        pairs[key] = pair
        return pair
    }

    /// The palette index to use on this terminal, degrading bright and 256 colours; -1 for default.
    private func paletteIndex(_ color: Color) -> Int {
        guard let index = color.paletteIndex else { return -1 }
        if index < colorCount { return index }
        if index < 16 { return index - 8 }
        return index % 8
    }

    /// OSC 52: `ESC ] 52 ; c ; BASE64 BEL`, written straight to the terminal (it moves no cursor
    /// and draws nothing). Under tmux it reaches the clipboard when `set-clipboard` is `on`.
    public func copyToClipboard(_ text: String) {
        let sequence = Array(("\u{1B}]52;c;" + Base64.encode(Array(text.utf8)) + "\u{07}").utf8)
        var offset = 0
        while offset < sequence.count {
            let written = sequence[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// ncurses' `beep()`: the terminal's bell (BEL), flushed at once. Not while curses is ended
    /// (the pager, a suspend): the terminal is someone else's then.
    public func bell() {
        guard !isendwin() else { return }
        _ = beep()
    }
}
