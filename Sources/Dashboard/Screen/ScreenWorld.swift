import Monitor
import TerminalUI

/// A pane as the keys see it.
public struct PaneFacts: Sendable {
    public let id: PaneID
    public let title: String
    public let displayURL: String
    public let health: Probe.Health
    /// Shown as a table (its zoom sorts by column).
    public let isTable: Bool

    public init(id: PaneID, title: String, displayURL: String, health: Probe.Health, isTable: Bool) {
        self.id = id
        self.title = title
        self.displayURL = displayURL
        self.health = health
        self.isTable = isTable
    }
}

/// What `update` may read of the world beyond its model: the panes as they stand, the screen's
/// size, and the lines the zoom shows (to scroll and search them). Read only: `update` changes
/// nothing through it, and it never reads the runtime's model (which `update` is changing): what
/// depends on the model is asked with the model. The runtime is one; a test can be another.
@MainActor
public protocol ScreenWorld {
    /// The panes in the config's order.
    var paneFacts: [PaneFacts] { get }
    /// The terminal's size.
    var size: Size { get }
    /// Columns the grid uses at the current width.
    var gridColumns: Int { get }
    /// Whether the monitor's refreshes are paused.
    var isPaused: Bool { get }
    /// The event log's lines the model's filters let through.
    func shownEventCount(_ model: DashboardModel) -> Int
    /// The lines the zoom's `view` of a pane has at `width` (after wrapping, for `.data`).
    func zoomLineCount(_ pane: PaneID, _ view: ZoomView, width: Int, model: DashboardModel) -> Int
    /// The rows a search in the zoom's `view` of a pane looks through, in order.
    func searchRows(_ pane: PaneID, _ view: ZoomView, width: Int, model: DashboardModel) -> [String]
    /// The columns of a table pane's data.
    func tableColumnCount(_ pane: PaneID, model: DashboardModel) -> Int
    /// The pane's request as a curl command (secrets masked, safe to paste).
    func curlCommand(_ pane: PaneID) -> String
}
