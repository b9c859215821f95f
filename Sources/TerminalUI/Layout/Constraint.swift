/// How much of the available space one part of a layout wants.
public enum Constraint: Sendable, Hashable {
    /// Exactly n cells (shrunk only when even the fixed parts do not fit).
    case length(Int)
    /// This percentage of the total.
    case percentage(Int)
    /// numerator/denominator of the total.
    case ratio(Int, Int)
    /// At least n cells, growing like `fill(1)` when there is room.
    case min(Int)
    /// Up to n cells, growing like `fill(1)` until then.
    case max(Int)
    /// A share of what is left, by weight.
    case fill(Int)
}

/// Splits a rectangle into parts along one axis.
///
/// Fixed parts (`length`, `percentage`, `ratio`, the floor of `min`) are placed first; when they
/// alone exceed the space they shrink in proportion. What remains goes to `fill`, `min` and `max`
/// parts by weight, with `max` parts capped. Rounding leftovers go to the earliest growing parts,
/// so the parts always tile the rectangle exactly.
public struct Layout: Sendable {
    public enum Direction: Sendable { case horizontal, vertical }

    public let direction: Direction
    public let constraints: [Constraint]
    public let spacing: Int

    public init(_ direction: Direction, _ constraints: [Constraint], spacing: Int = 0) {
        self.direction = direction
        self.constraints = constraints
        self.spacing = spacing
    }

    /// Parts stacked top to bottom.
    public static func vertical(_ constraints: [Constraint], spacing: Int = 0) -> Layout {
        Layout(.vertical, constraints, spacing: spacing)
    }

    /// Parts side by side, left to right.
    public static func horizontal(_ constraints: [Constraint], spacing: Int = 0) -> Layout {
        Layout(.horizontal, constraints, spacing: spacing)
    }

    /// The parts of `area`.
    public func split(_ area: Rect) -> [Rect] {
        let total = direction == .horizontal ? area.width : area.height
        let sizes = Layout.sizes(for: constraints, total: Swift.max(0, total - spacing * Swift.max(0, constraints.count - 1)))
        var rects: [Rect] = []
        var offset = 0
        for size in sizes {
            switch direction {
            case .horizontal: rects.append(Rect(x: area.x + offset, y: area.y, width: size, height: area.height))
            case .vertical: rects.append(Rect(x: area.x, y: area.y + offset, width: area.width, height: size))
            }
            offset += size + spacing
        }
        return rects
    }

    /// The sizes of the parts along the axis for `total` cells.
    public static func sizes(for constraints: [Constraint], total: Int) -> [Int] {
        var sizes = constraints.map { constraint -> Int in
            switch constraint {
            case .length(let n): Swift.max(0, n)
            case .percentage(let p): total * Swift.max(0, Swift.min(p, 100)) / 100
            case .ratio(let a, let b): b > 0 ? total * Swift.max(0, a) / b : 0
            case .min(let n): Swift.max(0, n)
            case .max, .fill: 0
            }
        }
        let fixed = sizes.reduce(0, +)
        if fixed > total {
            var scaled = sizes.map { fixed > 0 ? $0 * total / fixed : 0 }
            var leftover = total - scaled.reduce(0, +)
            for i in scaled.indices where leftover > 0 && sizes[i] > scaled[i] {
                scaled[i] += 1
                leftover -= 1
            }
            return scaled
        }
        var remaining = total - fixed
        var growing = constraints.indices.filter {
            switch constraints[$0] {
            case .fill(let w): w > 0
            case .min, .max: true
            default: false
            }
        }
        while remaining > 0, !growing.isEmpty {
            let weights = growing.map { i -> Int in if case .fill(let w) = constraints[i] { return w } else { return 1 } }
            let weightSum = weights.reduce(0, +)
            var grants = weights.map { remaining * $0 / weightSum }
            var extra = remaining - grants.reduce(0, +)
            for k in grants.indices where extra > 0 {
                grants[k] += 1
                extra -= 1
            }
            var capped: [Int] = []
            var given = 0
            for (k, i) in growing.enumerated() {
                var grant = grants[k]
                if case .max(let cap) = constraints[i] {
                    grant = Swift.min(grant, Swift.max(0, cap - sizes[i]))
                    if sizes[i] + grant >= cap { capped.append(i) }
                }
                sizes[i] += grant
                given += grant
            }
            remaining -= given
            if capped.isEmpty { break }
            growing.removeAll { capped.contains($0) }
        }
        return sizes
    }

    /// `count` equal cells in rows of `columns`, filling `area` row by row; the last row's cells
    /// widen to use the whole row.
    public static func grid(_ area: Rect, count: Int, columns: Int) -> [Rect] {
        guard count > 0, columns > 0 else { return [] }
        let rowCount = (count + columns - 1) / columns
        let rows = vertical(Array(repeating: .fill(1), count: rowCount)).split(area)
        var cells: [Rect] = []
        for (r, row) in rows.enumerated() {
            let inRow = Swift.min(columns, count - r * columns)
            cells += horizontal(Array(repeating: .fill(1), count: inRow)).split(row)
        }
        return cells
    }
}
