import DashboardConfig
import Monitor
import TerminalUI

/// What `update` may read of the dashboard: the screen, the zoom's and the event log's lines.
extension DashboardApp: ScreenWorld {
    public var size: Size { terminal?.size ?? Size(columns: 80, rows: 24) }

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

    public func curlCommand(for pane: PaneState) -> String {
         Sanitizer.lines(CurlCommand.make(for: pane.spec, in: spec, redactor: pane.redactor)).joined(separator: "\n")
    }
}
