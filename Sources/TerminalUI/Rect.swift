/// A rectangle of cells: origin and size, in columns and rows.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var right: Int { x + width }
    public var bottom: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var area: Int { width * height }

    /// The rectangle shrunk by `horizontal` columns and `vertical` rows on each side.
    public func inset(horizontal: Int = 0, vertical: Int = 0) -> Rect {
        Rect(x: x + horizontal, y: y + vertical, width: width - 2 * horizontal, height: height - 2 * vertical)
    }

    /// The overlap of two rectangles (empty if none).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let r = min(right, other.right), b = min(bottom, other.bottom)
        return Rect(x: left, y: top, width: r - left, height: b - top)
    }

    /// True if the cell at (column, row) is inside.
    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < right && row >= y && row < bottom
    }

    /// A rectangle of `width` × `height` centred in this one (clamped to fit).
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width), ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }

    public var description: String { "Rect(\(x),\(y) \(width)×\(height))" }
}

/// A terminal size in columns and rows.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public var description: String { "\(columns)x\(rows)" }
}
