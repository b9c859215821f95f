import DashboardConfig
import DashboardKeys
import Monitor
import TerminalUI

/// What `update` may read of the dashboard: the screen, the zoom's and the event log's lines.
extension DashboardApp: ScreenWorld {
    public var size: Size { terminal?.size ?? Size(columns: 80, rows: 24) }

    public var keyMap: KeyMap { spec.keyMap }

    /// Columns the grid uses at the current width.
    public var gridColumns: Int { GridShape.columns(for: spec.layout, width: size.columns) }

    public func shownEventCount(_ model: DashboardModel) -> Int {
        view(of: model).shownEventRows.count
    }

    public func zoomLineCount(_ pane: PaneID, _ zoom: ZoomView, width: Int, model: DashboardModel) -> Int {
        guard let pane = model.pane(pane) else { return 0 }
        return view(of: model).zoomLineCount(pane, width: width)
    }

    public func searchRows(_ pane: PaneID, _ zoom: ZoomView, width: Int, model: DashboardModel) -> [String] {
        guard let pane = model.pane(pane) else { return [] }
        return view(of: model).searchRows(pane, width: width)
    }

    public func tableColumnCount(_ pane: PaneID, model: DashboardModel) -> Int {
        guard let pane = model.pane(pane) else { return 0 }
        return view(of: model).content(of: pane)?.tableColumnCount ?? 0
    }

    public func tableColumn(_ pane: PaneID, atX x: Int, y: Int, model: DashboardModel) -> Int? {
        guard let pane = model.pane(pane) else { return nil }
        let inner = DashboardView.zoomInner(at: size)
        guard y == inner.y, x >= inner.x, x < inner.right else { return nil }
        return view(of: model).content(of: pane)?.tableColumn(atX: x - inner.x, width: inner.width)
    }

    public func curlCommand(for pane: PaneState) -> String {
         Sanitizer.lines(CurlCommand.make(for: pane.spec, in: spec, redactor: pane.redactor)).joined(separator: "\n")
    }
}
