import DashboardConfig
import TerminalUI

@MainActor
extension DashboardModel {
    /// Lines the wheel moves a scrolled view by, per notch.
    static let wheelLines = 3

    /// A mouse report, as the keys it stands for: the wheel scrolls what has the keyboard (on the
    /// grid it moves the selection, a pane a notch), a click chooses the pane under it and a
    /// double click zooms it. Clicks inside a view (zoom, help, the log) do nothing yet.
    mutating func mouse(_ event: MouseEvent, world: some ScreenWorld) -> [DashboardEffect] {
        switch event.kind {
        case .wheelUp, .wheelDown:
            let key: KeyEvent = event.kind == .wheelUp ? .up : .down
            guard mode != .filtering, mode != .searching else { return [] }
            let notches = mode == .normal && !isZoomed ? 1 : Self.wheelLines
            return (0..<notches).flatMap { _ in keyPressed(key, world: world) }
        case .press(button: 0):
            guard mode == .normal, !isZoomed else { return [] }
            let visible = visiblePanes
            let shape = GridShape(gridColumns: world.gridColumns, size: world.size, sizes: visible.map(\.spec.size))
            let selection = selectionIndex(in: visible, id: \.id)
            guard let index = shape.pane(atX: event.x, y: event.y, size: world.size, selection: selection, count: visible.count) else { return [] }
            select(index, in: visible)
            return event.clicks > 1 ? keyPressed(.enter, world: world) : []
        default:
            return []
        }
    }
}
