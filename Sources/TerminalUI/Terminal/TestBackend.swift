/// An in-memory screen that records what was drawn, so tests can assert frames and diffs.
@MainActor
public final class TestBackend: Backend {
    public private(set) var buffer: Buffer
    /// The number of cells sent in each flushed frame, oldest first.
    public private(set) var cellsPerFrame: [Int] = []
    /// The cells sent since the last flush.
    public private(set) var pending: [CellUpdate] = []
    /// The cells sent in the last flushed frame.
    public private(set) var lastFrame: [CellUpdate] = []
    public private(set) var clearCount = 0
    /// What was put on the clipboard, oldest first.
    public private(set) var clipboard: [String] = []
    /// How many times the bell rang.
    public private(set) var bells = 0

    public init(columns: Int, rows: Int) {
        buffer = Buffer(width: columns, height: rows)
    }

    public var size: Size { Size(columns: buffer.area.width, rows: buffer.area.height) }

    /// Changes the screen size, as a terminal resize would.
    public func resize(columns: Int, rows: Int) {
        buffer = Buffer(width: columns, height: rows)
    }

    public func draw(_ updates: [CellUpdate]) {
        for update in updates {
            buffer[update.x, update.y] = update.cell
            if update.columns == 2 {
                buffer[update.x + 1, update.y] = .continuation(style: update.cell.style)
            }
        }
        pending += updates
    }

    public func flush() {
        cellsPerFrame.append(pending.count)
        lastFrame = pending
        pending = []
    }

    public func clear() {
        clearCount += 1
        buffer.reset()
    }

    /// The screen as lines of text.
    public var lines: [String] { buffer.lines }

    public func copyToClipboard(_ text: String) {
        clipboard.append(text)
    }

    public func bell() {
        bells += 1
    }
}
