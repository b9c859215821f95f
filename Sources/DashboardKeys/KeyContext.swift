/// Where a key is pressed: the view that has the keyboard.
public enum KeyContext: String, Sendable, CaseIterable {
    /// The grid of panes (and, for keys the zoom does not take, a zoomed pane).
    case grid
    /// A zoomed pane.
    case zoom
    /// A zoomed table in its data view.
    case zoomTable
    /// The event log.
    case events
    /// The help overlay.
    case help
    /// The curl command overlay.
    case curl
    /// Everywhere, before any view.
    case anywhere

    /// The contexts a key is looked up in, in order, while this one has the keyboard: a zoomed
    /// table's keys first, then the zoom's, then the grid's (which a zoom lets through).
    public var layers: [KeyContext] {
        switch self {
        case .zoomTable: [.zoomTable, .zoom, .grid]
        case .zoom: [.zoom, .grid]
        default: [self]
        }
    }

    /// How a conflict names it: "in the grid", "while zoomed".
    public var phrase: String {
        switch self {
        case .grid: "in the grid"
        case .zoom: "while zoomed"
        case .zoomTable: "in a zoomed table"
        case .events: "in the event log"
        case .help: "in the help"
        case .curl: "in the curl overlay"
        case .anywhere: "anywhere"
        }
    }
}
