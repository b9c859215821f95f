import DashboardConfig
import DashboardKeys
import TerminalUI

/// How the grid shows its panes at a size: in rows of panes (each spanning the columns its
/// `size:` asks for, a `size: full` pane a row of its own), or, when they would be too short, as a
/// list of one line per pane. The view draws by it and `update` moves the selection and finds the
/// pane under a click by it, so a key moves to the pane the user sees next to the selected one.
struct GridShape: Equatable {
    /// Panes across a row (1 in a list).
    let columns: Int
    /// One line per pane.
    let isList: Bool
    /// Panes in view at once.
    let capacity: Int
    /// Where each pane is drawn (empty in a list).
    let rects: [Rect]

    /// Below this many rows per pane, panes collapse to one line each.
    static let minimumPaneHeight = 4
    /// Rows of the screen that are not the panes': the header and the footer.
    static let chromeRows = 2
    /// Narrowest pane in the grid.
    static let minimumPaneWidth = 24

    /// The grid's columns for a layout at a width: the layout's (or, with `auto`, as many as fit
    /// at `LayoutSpec.autoPaneWidth`), never so many that a pane is narrower than the minimum.
    static func columns(for layout: LayoutSpec, width: Int) -> Int {
        let wanted = layout.autoColumns ? width / LayoutSpec.autoPaneWidth : layout.columns
        return max(1, min(wanted, width / minimumPaneWidth))
    }

    /// The shape of `sizes` (one per pane in view, in order) at `size`, in rows of `gridColumns`.
    init(gridColumns: Int, size: Size, sizes: [PaneSize]) {
        let body = Self.body(of: size)
        let rowCount = Self.rowCount(sizes, columns: gridColumns)
        isList = rowCount == 0 ? false : body.height / rowCount < Self.minimumPaneHeight
        columns = isList ? 1 : gridColumns
        capacity = isList ? max(1, body.height) : max(1, sizes.count)
        // Where each pane goes only when panes are drawn (a list of a thousand needs none).
        rects = isList ? [] : Self.rects(Self.rows(sizes, columns: gridColumns), in: body)
    }

    /// The columns a pane of `size` spans in rows of `columns`.
    private static func span(of size: PaneSize, columns: Int) -> Int {
        switch size {
        case .full: columns
        case .columns(let wanted): max(1, min(wanted, columns))
        }
    }

    /// How many rows `sizes` take, counted without building them (every frame asks).
    private static func rowCount(_ sizes: [PaneSize], columns: Int) -> Int {
        var rows = 0
        var used = columns
        for size in sizes {
            let span = Self.span(of: size, columns: columns)
            if used + span > columns {
                rows += 1
                used = 0
            }
            used += span
        }
        return rows
    }

    /// Panes of one column each (tests, and callers that know only a count).
    init(gridColumns: Int, size: Size, paneCount: Int) {
        self.init(gridColumns: gridColumns, size: size, sizes: Array(repeating: .columns(1), count: paneCount))
    }

    /// The panes packed into rows, left to right: each row's panes and the columns each spans.
    private static func rows(_ sizes: [PaneSize], columns: Int) -> [[(index: Int, span: Int)]] {
        var rows: [[(index: Int, span: Int)]] = []
        var used = columns
        for (index, size) in sizes.enumerated() {
            let span = Self.span(of: size, columns: columns)
            if used + span > columns {
                rows.append([])
                used = 0
            }
            rows[rows.count - 1].append((index, span))
            used += span
        }
        return rows
    }

    /// Equal rows; in each, the panes share the width by their spans (a row not full widens its
    /// panes to use it all).
    private static func rects(_ rows: [[(index: Int, span: Int)]], in body: Rect) -> [Rect] {
        var rects = [Rect](repeating: Rect(x: 0, y: 0, width: 0, height: 0), count: rows.reduce(0) { $0 + $1.count })
        let rowRects = Layout.vertical(Array(repeating: .fill(1), count: rows.count)).split(body)
        for (row, area) in zip(rows, rowRects) {
            let cells = Layout.horizontal(row.map { .fill($0.span) }).split(area)
            for (pane, cell) in zip(row, cells) { rects[pane.index] = cell }
        }
        return rects
    }

    /// The first pane in view of a list whose selection is `selection`: the window scrolls to keep
    /// the selection on screen.
    func listStart(selection: Int, count: Int) -> Int {
        max(0, min(selection - capacity + 1, count - capacity))
    }

    /// Where the panes are: the screen between the header and the footer.
    static func body(of size: Size) -> Rect {
        Rect(x: 0, y: 1, width: size.columns, height: max(0, size.rows - chromeRows))
    }

    /// The pane drawn at cell (`x`, `y`), as an index into the `count` panes in view, or nil.
    func pane(atX x: Int, y: Int, size: Size, selection: Int, count: Int) -> Int? {
        let body = Self.body(of: size)
        guard count > 0, body.contains(x: x, y: y) else { return nil }
        if isList {
            let index = listStart(selection: selection, count: count) + (y - body.y)
            return index < count ? index : nil
        }
        return rects.firstIndex { $0.contains(x: x, y: y) }
    }

    /// Where a movement key takes the selection from `selection` among `count` panes, or nil when
    /// it stays (the key is not a movement, or there is nowhere to go). Up and down go to the pane
    /// above or below the middle of the selected one, as the eye does.
    func move(_ action: KeyAction, from selection: Int, count: Int) -> Int? {
        guard count > 0 else { return nil }
        let last = count - 1
        let target: Int
        switch action {
        case .selectNext: target = (selection + 1) % count
        case .selectPrevious: target = (selection - 1 + count) % count
        case .top: target = 0
        case .bottom: target = last
        case .moveRight: target = isList ? selection : min(last, selection + 1)
        case .moveLeft: target = isList ? selection : max(0, selection - 1)
        case .moveDown, .moveUp, .pageDown, .pageUp:
            if isList {
                let step = action == .moveDown ? 1 : action == .moveUp ? -1 : action == .pageDown ? capacity : -capacity
                target = max(0, min(last, selection + step))
            } else {
                target = vertical(from: selection, down: action == .moveDown || action == .pageDown, all: action == .pageDown || action == .pageUp) ?? selection
            }
        default: return nil
        }
        return target == selection ? nil : target
    }

    /// The pane in the next row down (or up), or in the last (or first) row with `all`, under
    /// the middle of the pane at `selection`; nil when there is none.
    private func vertical(from selection: Int, down: Bool, all: Bool) -> Int? {
        guard rects.indices.contains(selection) else { return nil }
        let from = rects[selection]
        let middle = from.x + from.width / 2
        let rowTops = Set(rects.map(\.y)).sorted()
        let candidates = rowTops.filter { down ? $0 > from.y : $0 < from.y }
        guard let rowTop = all ? (down ? candidates.last : candidates.first) : (down ? candidates.first : candidates.last) else { return nil }
        let inRow = rects.indices.filter { rects[$0].y == rowTop }
        return inRow.first { rects[$0].x <= middle && middle < rects[$0].right }
            ?? inRow.min { abs(rects[$0].x + rects[$0].width / 2 - middle) < abs(rects[$1].x + rects[$1].width / 2 - middle) }
    }
}
