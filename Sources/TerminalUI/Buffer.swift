#if canImport(Glibc)
import Glibc
#endif

/// A screen (or part of one) as a grid of cells: what widgets draw into and the diff compares.
///
/// Text is written with `setString`, which sanitises it and lays out wide graphemes, so nothing in
/// a buffer can be a control sequence. `description` prints the buffer as lines, which is how tests
/// assert screens: `#expect(buffer.lines == ["┌Title┐", …])`.
public struct Buffer: Sendable, Equatable, CustomStringConvertible {
    public private(set) var area: Rect
    /// The cells, row by row, as plain bytes (`PackedCell`).
    private var storage: [PackedCell]
    /// Graphemes longer than a packed cell holds, named by index from `storage`.
    private var overflow: [String] = []
    /// Entries in the overflow list (tests: it stays bounded).
    var overflowCount: Int { overflow.count }

    /// A blank buffer covering `area`.
    public init(area: Rect) {
        self.area = area
        self.storage = Array(repeating: .blank, count: area.area)
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

    /// Every cell, row by row.
    public var cells: [Cell] { storage.indices.map(cell(at:)) }

    private func index(_ x: Int, _ y: Int) -> Int? {
        guard area.contains(x: x, y: y) else { return nil }
        return (y - area.y) * area.width + (x - area.x)
    }

    private func cell(at i: Int) -> Cell {
        let packed = storage[i]
        return Cell(symbol(of: packed), style: packed.style, width: Int(packed.width))
    }

    private func symbol(of packed: PackedCell) -> String {
        packed.isOverflow ? overflow[packed.overflowIndex] : packed.inlineSymbol
    }

    private mutating func store(_ symbol: String, style: Style, width: Int, at i: Int) {
        if let packed = PackedCell(inline: symbol, style: style, width: width) {
            storage[i] = packed
            return
        }
        // Entries no cell names any more are dropped before the list outgrows the buffer.
        if overflow.count >= max(16, storage.count) { compactOverflow() }
        storage[i] = PackedCell(overflow: overflow.count, style: style, width: width)
        overflow.append(symbol)
    }

    private mutating func compactOverflow() {
        var kept: [String] = []
        for i in storage.indices where storage[i].isOverflow {
            let packed = storage[i]
            storage[i] = PackedCell(overflow: kept.count, style: packed.style, width: Int(packed.width))
            kept.append(overflow[packed.overflowIndex])
        }
        overflow = kept
    }

    /// The cell at (x, y); a blank cell outside the area.
    public subscript(x: Int, y: Int) -> Cell {
        get { index(x, y).map(cell(at:)) ?? .blank }
        set {
            guard let i = index(x, y) else { return }
            store(newValue.symbol, style: newValue.style, width: newValue.width, at: i)
            mendSplitGraphemes(y: y, from: x, to: x + 1)
        }
    }

    /// Writes `text` from (x, y) on one line, sanitised, clipped at `maxWidth` columns and at the
    /// buffer's edge. Returns the column after the last cell written.
    @discardableResult
    public mutating func setString(x: Int, y: Int, _ text: String, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= area.y, y < area.bottom else { return x }
        let end = layOut(x: x, y: y, text, style: style, maxWidth: maxWidth)
        mendSplitGraphemes(y: y, from: x, to: end)
        return end
    }

    private mutating func layOut(x: Int, y: Int, _ text: String, style: Style, maxWidth: Int?) -> Int {
        let limit = min(area.right, maxWidth.map { x + max(0, $0) } ?? area.right)
        var bytes = text
        if let end = bytes.withUTF8({ layOutScalarByScalar($0, x: x, y: y, limit: limit, style: style) }) { return end }
        let safe = Sanitizer.line(text)
        var column = x
        // Sanitised text whose scalars are each a grapheme (control characters become pictures).
        if DisplayWidth.isOneScalarPerGrapheme(safe) {
            for scalar in safe.unicodeScalars { place(scalar, x: &column, y: y, limit: limit, style: style) }
            return column
        }
        for character in safe {
            let symbol = String(character)
            let width = DisplayWidth.of(grapheme: symbol)
            if width == 0 {
                join(symbol, ontoCellBefore: column, y: y)
                continue
            }
            guard let i = place(width: width, x: &column, y: y, limit: limit, style: style) else { break }
            if i >= 0 { store(symbol, style: style, width: width, at: i) }
        }
        return column
    }

    /// Writes one of a widget's own symbols (a border, a bar): a scalar one column wide that is a
    /// grapheme of its own and that the sanitiser keeps, so neither needs to look at it.
    mutating func setSymbol(x: Int, y: Int, _ symbol: Unicode.Scalar, style: Style) {
        setSymbols(x: x, y: y, CollectionOfOne(symbol), style: style)
    }

    /// Writes a row of a widget's own symbols from (x, y) (see `setSymbol`), up to the edge.
    mutating func setSymbols(x: Int, y: Int, _ symbols: some Sequence<Unicode.Scalar>, style: Style) {
        guard y >= area.y, y < area.bottom else { return }
        let row = (y - area.y) * area.width - area.x
        var column = x
        for symbol in symbols {
            assert(Sanitizer.keeps(symbol) && DisplayWidth.isOneScalarPerGrapheme(String(symbol)) && DisplayWidth.of(scalar: symbol) == 1)
            if column >= area.right { break }
            if column >= area.x { storage[row + column] = PackedCell(scalar: symbol, style: style, width: 1) }
            column += 1
        }
        mendSplitGraphemes(y: y, from: x, to: column)
    }

    /// Fills `rect` with one of a widget's own symbols (see `setSymbol`).
    mutating func fill(_ rect: Rect, symbol: Unicode.Scalar, style: Style) {
        assert(Sanitizer.keeps(symbol) && DisplayWidth.isOneScalarPerGrapheme(String(symbol)) && DisplayWidth.of(scalar: symbol) == 1)
        fill(rect, packed: PackedCell(scalar: symbol, style: style, width: 1))
    }

    /// Lays out text that needs neither sanitising nor grapheme breaking, which is what the
    /// dashboard writes itself (ASCII, "·", "✓", borders, braille): checked in one pass over its
    /// bytes, written in another. Nil, with nothing written, for any other text.
    private mutating func layOutScalarByScalar(_ bytes: UnsafeBufferPointer<UInt8>, x: Int, y: Int, limit: Int, style: Style) -> Int? {
        var ascii = true
        let safe = DisplayWidth.visitOwnGraphemes(bytes) { value in
            guard value >= 0x80 else { return true }
            ascii = false
            return Sanitizer.keeps(Unicode.Scalar(value)!)
        }
        guard safe else { return nil }
        var column = x
        if ascii {
            let row = (y - area.y) * area.width - area.x
            let first = max(x, area.x)
            let end = min(limit, x + bytes.count)
            guard first < end else { return max(x, min(limit, x + bytes.count)) }
            storage.withUnsafeMutableBufferPointer { cells in
                for column in first..<end { cells[row + column] = PackedCell(ascii: bytes[column - x], style: style) }
            }
            return end
        }
        if let end = layOutWideOrNarrow(bytes, x: x, y: y, limit: limit, style: style) { return end }
        var offset = 0
        while offset < bytes.count {
            let (value, length) = UTF8Scalar.decode(bytes, at: offset)
            offset += length
            guard place(Unicode.Scalar(value)!, x: &column, y: y, limit: limit, style: style) else { break }
        }
        return column
    }

    /// `layOutScalarByScalar` for text with no zero-width scalar, written through one pointer
    /// (no uniqueness check per cell); nil at the first zero-width scalar, which joins the cell
    /// before it (the caller's loop writes the same cells again and joins it).
    private mutating func layOutWideOrNarrow(_ bytes: UnsafeBufferPointer<UInt8>, x: Int, y: Int, limit: Int, style: Style) -> Int? {
        let row = (y - area.y) * area.width - area.x
        let left = area.x
        return storage.withUnsafeMutableBufferPointer { cells -> Int? in
            var column = x
            var offset = 0
            while offset < bytes.count {
                let (value, length) = UTF8Scalar.decode(bytes, at: offset)
                let scalar = Unicode.Scalar(value)!
                let width = DisplayWidth.of(scalar: scalar)
                if width == 0 { return nil }
                if column + width > limit { break }
                if column >= left {
                    if width == 2 { cells[row + column + 1] = PackedCell.continuation(style: style) }
                    cells[row + column] = PackedCell(scalar: scalar, style: style, width: width)
                }
                column += width
                offset += length
            }
            return column
        }
    }

    /// Writes a scalar that is a grapheme of its own at `x` and moves `x` past it; false when it
    /// does not fit before `limit`.
    @discardableResult
    private mutating func place(_ scalar: Unicode.Scalar, x column: inout Int, y: Int, limit: Int, style: Style) -> Bool {
        let width = DisplayWidth.of(scalar: scalar)
        if width == 0 {
            join(String(scalar), ontoCellBefore: column, y: y)
            return true
        }
        guard let i = place(width: width, x: &column, y: y, limit: limit, style: style) else { return false }
        if i >= 0 { storage[i] = PackedCell(scalar: scalar, style: style, width: width) }
        return true
    }

    /// Makes room for a grapheme `width` columns wide at `x` (its continuation cell written) and
    /// moves `x` past it. Returns where the grapheme goes, -1 when left of the area, nil when it
    /// does not fit before `limit`.
    private mutating func place(width: Int, x column: inout Int, y: Int, limit: Int, style: Style) -> Int? {
        if column + width > limit { return nil }
        defer { column += width }
        guard column >= area.x else { return -1 }
        let i = (y - area.y) * area.width + (column - area.x)
        if width == 2 { storage[i + 1] = PackedCell.continuation(style: style) }
        return i
    }

    /// A lone zero-width grapheme joins the cell before `x`, so nothing is lost.
    private mutating func join(_ symbol: String, ontoCellBefore column: Int, y: Int) {
        guard column > area.x, let i = index(column - 1, y), !storage[i].isContinuation else { return }
        var joined = cell(at: i)
        joined.symbol += symbol
        store(joined.symbol, style: joined.style, width: joined.width, at: i)
    }

    /// Draws every cell's colours through `palette` (a theme).
    public mutating func apply(_ palette: Palette) {
        for i in storage.indices {
            let style = storage[i].style
            let mapped = palette.map(style)
            if mapped != style { storage[i].style = mapped }
        }
    }

    /// Sets the style of every cell in `rect`, keeping symbols.
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        let r = rect.intersection(area)
        for y in r.y..<r.bottom { for x in r.x..<r.right { storage[index(x, y)!].style = style } }
    }

    /// Fills `rect` with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(area)
        guard let packed = PackedCell(inline: cell.symbol, style: cell.style, width: cell.width) else {
            for y in r.y..<r.bottom { for x in r.x..<r.right { self[x, y] = cell } }
            return
        }
        fill(r, packed: packed)
    }

    /// Packed once, copied into every cell (borders, blank areas).
    private mutating func fill(_ rect: Rect, packed: PackedCell) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        // One uniqueness check for the whole rectangle, not one a cell.
        storage.withUnsafeMutableBufferPointer { cells in
            for y in r.y..<r.bottom {
                let row = (y - area.y) * area.width - area.x
                cells[(row + r.x)..<(row + r.right)].update(repeating: packed)
            }
        }
        for y in r.y..<r.bottom { mendSplitGraphemes(y: y, from: r.x, to: r.right) }
    }

    /// After columns `start..<end` of row `y` were written: a wide grapheme that lost one of its
    /// halves to them is a blank in its style, as a terminal shows it. Left as it was, the diff
    /// would skip the cell after a wide grapheme's first half (its continuation, it thinks) and
    /// what was written there would never reach the screen.
    private mutating func mendSplitGraphemes(y: Int, from start: Int, to end: Int) {
        guard start < end else { return }
        if start > area.x, let i = index(start, y), storage[i - 1].width == 2, !storage[i].isContinuation {
            storage[i - 1] = PackedCell(ascii: 0x20, style: storage[i - 1].style)
        }
        if end > area.x, end < area.right, let i = index(end, y), storage[i].isContinuation, storage[i - 1].width != 2 {
            storage[i] = PackedCell(ascii: 0x20, style: storage[i].style)
        }
    }

    /// Makes every cell blank.
    public mutating func reset() {
        storage.withUnsafeMutableBufferPointer { $0.update(repeating: .blank) }
        overflow.removeAll(keepingCapacity: true)
    }

    /// Changes the area; contents are reset.
    public mutating func resize(to newArea: Rect) {
        area = newArea
        storage = Array(repeating: .blank, count: newArea.area)
        overflow = []
    }

    /// Whether `text` is drawn on row `y` over the cell in column `x` (for a click on a drawn button).
    public func text(_ text: String, coversX x: Int, y: Int) -> Bool {
        guard y >= area.y, y < area.bottom, !text.isEmpty else { return false }
        var line = ""
        var columns: [Int] = []  // the column of each character of `line`
        for column in area.x..<area.right {
            let symbol = self[column, y].symbol
            for _ in symbol { columns.append(column) }
            line += symbol
        }
        let characters = Array(line)
        let target = Array(text)
        guard characters.count >= target.count else { return false }
        for start in 0...(characters.count - target.count) where Array(characters[start..<(start + target.count)]) == target {
            if columns[start] <= x, x <= columns[start + target.count - 1] { return true }
        }
        return false
    }

    /// The text of each row, continuation cells omitted.
    public var lines: [String] {
        (0..<area.height).map { row in
            var line = ""
            for column in 0..<area.width {
                line += symbol(of: storage[row * area.width + column])
            }
            return line
        }
    }

    public var description: String {
        "Buffer \(area.width)×\(area.height)\n" + lines.map { "\"\($0)\"" }.joined(separator: "\n")
    }

    /// Cell `i` of this buffer and cell `j` of `other` look the same.
    private func same(_ i: Int, as j: Int, in other: Buffer) -> Bool {
        let a = storage[i]
        let b = other.storage[j]
        if a.isBitwiseEqual(to: b) { return !a.isOverflow || overflow[a.overflowIndex] == other.overflow[b.overflowIndex] }
        guard a.isOverflow || b.isOverflow, a.style == b.style, a.width == b.width else { return false }
        return symbol(of: a) == other.symbol(of: b)
    }

    public static func == (lhs: Buffer, rhs: Buffer) -> Bool {
        lhs.area == rhs.area && lhs.storage.indices.allSatisfy { lhs.same($0, as: $0, in: rhs) }
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
        // Without long graphemes on either side, equal bytes are equal cells: a row whose bytes
        // did not change (most rows of most frames) is passed over with one comparison.
        let rowsComparable = overflow.isEmpty && next.overflow.isEmpty
        storage.withUnsafeBufferPointer { old in
            next.storage.withUnsafeBufferPointer { new in
                var i = 0
                while i < new.count {
                    if rowsComparable, toSkip == 0, invalidated == 0, i % width == 0,
                        Buffer.sameRow(from: i, width: width, old, new)
                    {
                        i += width
                        continue
                    }
                    let cell = new[i]
                    let currentWidth = max(1, Int(cell.width))
                    // Equal bits of an inline cell are the same cell; anything else is looked at.
                    let differs = cell.isBitwiseEqual(to: old[i]) && !cell.isOverflow ? false : !next.same(i, as: i, in: self)
                    if toSkip == 0, invalidated > 0 || differs {
                        updates.append(next.update(at: i))
                    }
                    toSkip = cell.isContinuation ? max(0, toSkip - 1) : currentWidth - 1
                    let affected = max(currentWidth, max(1, Int(old[i].width)))
                    invalidated = max(affected, invalidated) - 1
                    i += 1
                }
            }
        }
        return updates
    }

    /// The row starting at `start` has the same bytes in both, and its last cell is narrow in
    /// both (so nothing of it reaches into the next row).
    private static func sameRow(from start: Int, width: Int, _ old: UnsafeBufferPointer<PackedCell>, _ new: UnsafeBufferPointer<PackedCell>) -> Bool {
        let last = start + width - 1
        guard old[last].width <= 1, new[last].width <= 1 else { return false }
        let bytes = width * MemoryLayout<PackedCell>.stride
        return memcmp(old.baseAddress! + start, new.baseAddress! + start, bytes) == 0
    }

    private func update(at i: Int) -> CellUpdate {
        let packed = storage[i]
        return CellUpdate(
            x: area.x + i % area.width, y: area.y + i / area.width, packed: packed,
            long: packed.isOverflow ? overflow[packed.overflowIndex] : nil)
    }

    /// Every cell as an update, for a full redraw.
    public var allCells: [CellUpdate] {
        storage.indices.compactMap { i in storage[i].isContinuation ? nil : update(at: i) }
    }
}

/// One cell to draw at a position.
///
/// Kept as the buffer keeps it (packed bytes), so a frame's updates are made and copied without
/// a `String` each; a backend reads a one-scalar grapheme with `scalar`, any other with `cell`.
public struct CellUpdate: Sendable, Equatable {
    public let x: Int
    public let y: Int
    private let packed: PackedCell
    /// The grapheme when it is longer than a packed cell holds.
    private let long: String?

    init(x: Int, y: Int, packed: PackedCell, long: String?) {
        self.x = x
        self.y = y
        self.packed = packed
        self.long = long
    }

    /// The cell as a `Cell`.
    public var cell: Cell { Cell(long ?? packed.inlineSymbol, style: packed.style, width: Int(packed.width)) }

    public var style: Style { packed.style }

    /// The columns the grapheme takes: 1, or 2 for a wide one.
    public var columns: Int { max(1, Int(packed.width)) }

    /// Same style as `other`, without unpacking either.
    public func hasSameStyle(as other: CellUpdate) -> Bool { packed.hasSameStyle(as: other.packed) }

    /// The grapheme when it is a single Unicode scalar (nearly every cell), without making a
    /// `String`; nil for a grapheme of several.
    public var scalar: Unicode.Scalar? { long == nil ? packed.singleScalar : nil }

    public static func == (lhs: CellUpdate, rhs: CellUpdate) -> Bool {
        lhs.x == rhs.x && lhs.y == rhs.y && lhs.cell == rhs.cell
    }
}
