/// Where frames go: a real terminal (CursesBackend) or memory (TestBackend).
@MainActor
public protocol Backend: AnyObject {
    /// The current size of the screen.
    var size: Size { get }
    /// Draws these cells; they become visible at the next `flush()`.
    func draw(_ updates: [CellUpdate])
    /// Makes everything drawn so far visible.
    func flush()
    /// Blanks the whole screen (before a full redraw).
    func clear()
    /// Asks the terminal to put `text` on the system clipboard (OSC 52); terminals that do not
    /// allow it ignore the request.
    func copyToClipboard(_ text: String)
    /// Rings the terminal's bell (BEL), between frames; nothing while the terminal is handed over.
    func bell()
}
