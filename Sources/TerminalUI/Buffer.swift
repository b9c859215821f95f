/// A screen (or part of one) as a grid of cells: what widgets draw into and the diff compares.
///
/// Text is written with `setString`, which sanitises it and lays out wide graphemes, so nothing in
/// a buffer can be a control sequence. `description` prints the buffer as lines, which is how tests
/// assert screens: `#expect(buffer.lines == ["┌Title┐", …])`.
public struct Buffer: Sendable, Equatable, CustomStringConvertible {
    public private(set) var area: Rect
    public private(set) var cells: [Cell]

    /// A blank buffer covering `area`.
    public init(area: Rect) {
        self.area = area
        self.cells = Array(repeating: .blank, count: area.area)
    }

    /// A blank buffer of `width` × `height` at the origin.
    public init(width: Int, height: Int) {
        self.init(area: Rect(width: width, height: height))
    }

    /// A buffer holding `lines` (for expected pictures in tests); its width is the widest line.
    public init(lines: [String]) {
        let width = lines.map { DisplayWidth.of($0) }.max() ?? 0
        self.init(width: width, height: lines.count)
        for (row, line) in lines.enumerated() { setString(x: 0, y: row, line) }
    }

    private func index(_ x: Int, _ y: Int) -> Int? {
        guard area.contains(x: x, y: y) else { return nil }
        return (y - area.y) * area.width + (x - area.x)
    }

    /// The cell at (x, y); a blank cell outside the area.
    public subscript(x: Int, y: Int) -> Cell {
        get { index(x, y).map { cells[$0] } ?? .blank }
        set { if let i = index(x, y) { cells[i] = newValue } }
    }

    /// Writes `text` from (x, y) on one line, sanitised, clipped at `maxWidth` columns and at the
    /// buffer's edge. Returns the column after the last cell written.
    @discardableResult
    public mutating func setString(x: Int, y: Int, _ text: String, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= area.y, y < area.bottom else { return x }
        let limit = min(area.right, maxWidth.map { x + max(0, $0) } ?? area.right)
        var column = x
        // Printable ASCII (most of a dashboard): one cell per byte, no grapheme breaking.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            let row = (y - area.y) * area.width - area.x
            for byte in text.utf8 {
                if column >= limit { break }
                if column >= area.x { cells[row + column] = Cell(Buffer.asciiSymbols[Int(byte)], style: style, width: 1) }
                column += 1
            }
            return column
        }
        let safe = Sanitizer.line(text)
        // Text whose scalars are each a grapheme (what the dashboard writes itself: "·", "✓",
        // borders) is laid out without grapheme breaking.
        if DisplayWidth.isOneScalarPerGrapheme(safe) {
            for scalar in safe.unicodeScalars {
                guard place(String(Character(scalar)), width: DisplayWidth.of(scalar: scalar), x: &column, y: y, limit: limit, style: style) else { break }
            }
            return column
        }
        for character in safe {
            let symbol = String(character)
            guard place(symbol, width: DisplayWidth.of(grapheme: symbol), x: &column, y: y, limit: limit, style: style) else { break }
        }
        return column
    }

    /// Puts one grapheme at `x` and moves `x` past it; false when it does not fit before `limit`.
    private mutating func place(_ symbol: String, width: Int, x column: inout Int, y: Int, limit: Int, style: Style) -> Bool {
        if width == 0 {
            // A lone zero-width grapheme joins the previous cell so nothing is lost.
            if column > area.x, let i = index(column - 1, y), !cells[i].isContinuation { cells[i].symbol += symbol }
            return true
        }
        if column + width > limit { return false }
        if column >= area.x {
            self[column, y] = Cell(symbol, style: style, width: width)
            if width == 2 { self[column + 1, y] = .continuation(style: style) }
        }
        column += width
        return true
    }

    /// One string per ASCII byte, made once: a frame writes thousands of them.
    private static let asciiSymbols: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    /// Sets the style of every cell in `rect`, keeping symbols.
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        let r = rect.intersection(area)
        for y in r.y..<r.bottom { for x in r.x..<r.right { self[x, y].style = style } }
    }

    /// Fills `rect` with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(area)
        for y in r.y..<r.bottom { for x in r.x..<r.right { self[x, y] = cell } }
    }

    /// Makes every cell blank.
    public mutating func reset() {
        for i in cells.indices { cells[i] = .blank }
    }

    /// Changes the area; contents are reset.
    public mutating func resize(to newArea: Rect) {
        area = newArea
        cells = Array(repeating: .blank, count: newArea.area)
    }

    /// The text of each row, continuation cells omitted.
    public var lines: [String] {
        (0..<area.height).map { row in
            var line = ""
            for column in 0..<area.width {
                line += cells[row * area.width + column].symbol
            }
            return line
        }
    }

    public var description: String {
        "Buffer \(area.width)×\(area.height)\n" + lines.map { "\"\($0)\"" }.joined(separator: "\n")
    }

    /// The cells of `next` that differ from this buffer, wide-glyph aware.
    ///
    /// Both buffers must have the same area. A continuation cell is never sent on its own; when a
    /// wide grapheme is replaced by narrow ones, the cell its second half covered is re-sent.
    public func diff(to next: Buffer) -> [CellUpdate] {
        precondition(area == next.area, "diff needs buffers of one size; redraw everything after a resize")
        var updates: [CellUpdate] = []
        var toSkip = 0
        var invalidated = 0
        let width = area.width
        // Cells are read in place: copying each one would retain and release its string.
        cells.withUnsafeBufferPointer { old in
            next.cells.withUnsafeBufferPointer { new in
                for i in new.indices {
                    let currentWidth = max(1, new[i].width)
                    if toSkip == 0, invalidated > 0 || new[i] != old[i] {
                        updates.append(CellUpdate(x: area.x + i % width, y: area.y + i / width, cell: new[i]))
                    }
                    toSkip = new[i].isContinuation ? max(0, toSkip - 1) : currentWidth - 1
                    let affected = max(currentWidth, max(1, old[i].width))
                    invalidated = max(affected, invalidated) - 1
                }
            }
        }
        return updates
    }

    /// Every cell as an update, for a full redraw.
    public var allCells: [CellUpdate] {
        cells.indices.compactMap { i in
            cells[i].isContinuation ? nil : CellUpdate(x: area.x + i % area.width, y: area.y + i / area.width, cell: cells[i])
        }
    }
}

/// One cell to draw at a position.
public struct CellUpdate: Sendable, Equatable {
    public let x: Int
    public let y: Int
    public let cell: Cell
}
