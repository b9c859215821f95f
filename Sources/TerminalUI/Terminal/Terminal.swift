/// Draws whole frames to a backend, sending only the cells that changed since the last frame.
///
/// Keeps the previous frame; each `draw` renders a fresh buffer, diffs it against the previous
/// one and hands the backend the difference. A size change or `forceFullRedraw()` clears the
/// screen and sends every cell.
@MainActor
public final class Terminal {
    public let backend: any Backend
    private var previous: Buffer
    /// The frame before `previous`, drawn over by the next frame instead of a new buffer.
    private var spare: Buffer?
    private var needsFullRedraw = true

    public init(backend: any Backend) {
        self.backend = backend
        let size = backend.size
        previous = Buffer(width: size.columns, height: size.rows)
    }

    /// The size frames are rendered at.
    public var size: Size { backend.size }

    /// Puts `text` on the clipboard, when the terminal allows it (OSC 52).
    public func copyToClipboard(_ text: String) {
        backend.copyToClipboard(text)
    }

    /// Rings the bell.
    public func bell() {
        backend.bell()
    }

    /// Makes the next frame send every cell (after a resume, or when the screen may be garbled).
    public func forceFullRedraw() {
        needsFullRedraw = true
    }

    /// Renders a frame with `render` and sends what changed; returns how many cells were sent.
    @discardableResult
    public func draw(_ render: (inout Buffer) -> Void) -> Int {
        let size = backend.size
        let area = Rect(width: size.columns, height: size.rows)
        var next = spare.take() ?? Buffer(area: area)
        if next.area == area { next.reset() } else { next = Buffer(area: area) }
        render(&next)
        let updates: [CellUpdate]
        if needsFullRedraw || previous.area != next.area {
            backend.clear()
            updates = next.allCells
            needsFullRedraw = false
        } else {
            updates = previous.diff(to: next)
        }
        if !updates.isEmpty { backend.draw(updates) }
        backend.flush()
        spare = previous
        previous = next
        return updates.count
    }

    /// The last frame drawn.
    public var lastFrame: Buffer { previous }
}
