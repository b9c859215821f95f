import TerminalUI

/// How the grid shows its panes at a size: in columns of panes, or, when they would be too short,
/// as a list of one line per pane. The view draws by it and `update` moves the selection by it, so
/// a key moves to the pane the user sees next to the selected one.
struct GridShape: Equatable {
    /// Panes across (1 in a list).
    let columns: Int
    /// One line per pane.
    let isList: Bool
    /// Panes in view at once.
    let capacity: Int

    /// Below this many rows per pane, panes collapse to one line each.
    static let minimumPaneHeight = 4
    /// Rows of the screen that are not the panes': the header and the footer.
    static let chromeRows = 2

    init(gridColumns: Int, size: Size, paneCount: Int) {
        let height = max(0, size.rows - Self.chromeRows)
        let rows = max(1, (paneCount + gridColumns - 1) / gridColumns)
        isList = height / rows < Self.minimumPaneHeight
        columns = isList ? 1 : gridColumns
        capacity = isList ? max(1, height) : max(1, paneCount)
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
        return Layout.grid(body, count: count, columns: columns).firstIndex { $0.contains(x: x, y: y) }
    }

    /// Where a movement key takes the selection from `selection` among `count` panes, or nil when
    /// it stays (the key is not a movement, or there is nowhere to go).
    func move(_ action: KeyAction, from selection: Int, count: Int) -> Int? {
        guard count > 0 else { return nil }
        let last = count - 1
        let target: Int
        switch action {
        case .selectNext: target = (selection + 1) % count
        case .selectPrevious: target = (selection - 1 + count) % count
        case .moveRight: target = isList ? selection : min(last, selection + 1)
        case .moveLeft: target = isList ? selection : max(0, selection - 1)
        case .moveDown: target = selection + columns <= last ? selection + columns : selection
        case .moveUp: target = selection - columns >= 0 ? selection - columns : selection
        case .pageDown: target = isList ? min(last, selection + capacity) : Self.sameColumn(last, as: selection, columns: columns)
        case .pageUp: target = isList ? max(0, selection - capacity) : selection % columns
        case .top: target = 0
        case .bottom: target = last
        default: return nil
        }
        return target == selection ? nil : target
    }

    /// The last pane at or before `last` in the column of `selection`.
    private static func sameColumn(_ last: Int, as selection: Int, columns: Int) -> Int {
        let column = selection % columns
        let lastRowStart = last - last % columns
        let candidate = lastRowStart + column
        return candidate <= last ? candidate : candidate - columns
    }
}
