import DashboardKeys
import Monitor
import TerminalUI

/// What `update` may read of the world beyond its model: the screen's size, and the lines the
/// zoom and the event log show (to scroll and search them). Read only: `update` changes
/// nothing through it, and it never reads the runtime's model (which `update` is changing): what
/// depends on the model is asked with the model. The runtime is one; a test can be another.
@MainActor
public protocol ScreenWorld {
    /// The terminal's size.
    var size: Size { get }
    /// Columns the grid uses at the current width.
    var gridColumns: Int { get }
    /// What each key does where (the config's `keys:` over the standard map).
    var keyMap: KeyMap { get }
    /// Whether the monitor's refreshes are paused.
    var isPaused: Bool { get }
    /// The event log's lines the model's filters let through.
    func shownEventCount(_ model: DashboardModel) -> Int
    /// The lines the zoom's `view` of a pane has at `width` (after wrapping, for `.data`).
    func zoomLineCount(_ pane: PaneID, _ view: ZoomView, width: Int, model: DashboardModel) -> Int
    /// The rows a search in the zoom's `view` of a pane looks through, in order.
    func searchRows(_ pane: PaneID, _ view: ZoomView, width: Int, model: DashboardModel) -> [String]
    /// Which column's header of a zoomed table is at `x`, `y` on screen, or nil.
    func tableColumn(_ pane: PaneID, atX x: Int, y: Int, model: DashboardModel) -> Int?
    /// The columns of a table pane's data.
    func tableColumnCount(_ pane: PaneID, model: DashboardModel) -> Int
    /// The pane's request as a curl command (secrets masked, safe to paste).
    func curlCommand(for pane: PaneState) -> String
}
