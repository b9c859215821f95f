import DashboardConfig
import DashboardKeys
import TerminalUI

@MainActor
extension DashboardModel {
    /// Lines the wheel moves a scrolled view by, per notch.
    static let wheelLines = 3

    /// A mouse report, as the actions it stands for (whatever their keys): the wheel scrolls what
    /// has the keyboard (on the grid it moves the selection, a pane a notch), a click chooses the
    /// pane under it and a double click zooms it; in a zoomed table a click on a column's header
    /// sorts by it (again: the other way). Other clicks inside a view do nothing.
    mutating func mouse(_ event: MouseEvent, world: some ScreenWorld) -> [DashboardEffect] {
        switch event.kind {
        case .wheelUp, .wheelDown:
            guard mode != .filtering, mode != .searching, mode != .command else { return [] }
            let onGrid = mode == .normal && !isZoomed
            let action: KeyAction = event.kind == .wheelUp ? (onGrid ? .moveUp : .scrollUp) : (onGrid ? .moveDown : .scrollDown)
            return (0..<(onGrid ? 1 : Self.wheelLines)).flatMap { _ in perform(action, world: world) }
        case .press(button: 0) where mode == .normal && isZoomed:
            guard zoomView == .data, let pane = selectedPane, pane.isTable,
                let column = world.tableColumn(pane.id, atX: event.x, y: event.y, model: self)
            else { return [] }
            sortTable(pane.id, byColumn: column)
            return []
        case .press(button: 0):
            guard mode == .normal else { return [] }
            let visible = visiblePanes
            let shape = GridShape(gridColumns: world.gridColumns, size: world.size, sizes: visible.map(\.spec.size))
            let selection = selectionIndex(in: visible, id: \.id)
            guard let index = shape.pane(atX: event.x, y: event.y, size: world.size, selection: selection, count: visible.count) else { return [] }
            select(index, in: visible)
            return event.clicks > 1 ? perform(.zoom, world: world) : []
        default:
            return []
        }
    }
}
