import Monitor
import TerminalUI

/// A pane as `update` knows it: which one, and what its order and the filter depend on.
public typealias PaneID = ObjectIdentifier

/// Everything the screen shows that is not the monitor's: which view is in front, the selection,
/// the zoom, the filters and searches, the one-line answers. A value: `update` is the only
/// function that changes it, the view reads a copy.
public struct DashboardModel: Sendable {
    /// Which screen is in front.
    public enum Mode: Equatable, Sendable {
        case normal, help, events, filtering
        /// Typing a search in a zoomed detail view.
        case searching
        /// The selected pane's request as a curl command (`c`).
        case curl
    }

    public internal(set) var mode: Mode = .normal
    /// The pane the user chose, and the index it had then (used when it is no longer visible).
    public internal(set) var chosenPane: PaneID?
    public internal(set) var chosenIndex = 0
    /// The title of the pane selected when a config reload began: chosen again once it ran.
    var titleToChooseAfterReload: String?
    public internal(set) var isZoomed = false
    /// The zoomed pane's view (data, response, request, timing, error).
    public internal(set) var zoomView: ZoomView = .data
    /// What `/` searches for in a zoomed detail view.
    public internal(set) var zoomSearch = ""
    /// "no match" after a search that found nothing, for the footer.
    public internal(set) var searchMissed = false
    /// Lines scrolled in zoom, by pane.
    public internal(set) var scroll: [PaneID: Int] = [:]
    /// How a zoomed table's rows are ordered, by pane; none: as the data lists them.
    public internal(set) var tableSort: [PaneID: TableSort] = [:]
    /// The curl command `c` made, shown while `mode` is `.curl`.
    public internal(set) var curlCommand = ""
    /// The event log's view: a text filter (`/`), only the selected pane's events (`f`), and how
    /// many lines it is scrolled up from the newest.
    public internal(set) var eventFilter = ""
    public internal(set) var eventsOfSelectedPaneOnly = false
    public internal(set) var eventScroll = 0
    /// True while `/` in the event log takes typing.
    public internal(set) var typingEventFilter = false
    /// A one-line answer to a key (the pager failed, nothing to page), shown until the next key.
    public internal(set) var flash: String?
    /// The panes' filter (`/`).
    public internal(set) var filter = ""
    public internal(set) var sortFailingFirst = false
    /// Raw values instead of formatted ones (`v`).
    public internal(set) var rawValues = false
    /// A message for the status line (a rejected config reload), shown until the next good reload.
    public internal(set) var statusMessage: String?
    /// Counts ticks: the spinners' frame.
    public internal(set) var spinnerTick = 0

    public init() {}

    /// `panes` after the filter and the failing-first sort, in display order; `facts` reads
    /// each one's title, URL and health.
    public func visible<Item>(_ panes: [Item], facts: (Item) -> (title: String, url: String, health: Probe.Health)) -> [Item] {
        var result = panes
        if !filter.isEmpty {
            let needle = filter.lowercased()
            result = result.filter {
                let pane = facts($0)
                return pane.title.lowercased().contains(needle) || pane.url.lowercased().contains(needle)
            }
        }
        if sortFailingFirst {
            let ranks = result.map { item -> Int in
                switch facts(item).health {
                case .failing, .unmet: 0
                case .degraded: 1
                case .loading, .waiting: 2
                case .ok: 3
                }
            }
            result = result.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }.map { result[$0] }
        }
        return result
    }

    /// Where the chosen pane is among `visible` (pane IDs in display order); where it was, kept
    /// within them, when it is not there.
    public func selectionIndex(in visible: [PaneID]) -> Int {
        if let chosenPane, let index = visible.firstIndex(of: chosenPane) { return index }
        return max(0, min(chosenIndex, visible.count - 1))
    }

    /// The selected pane among `visible`, or nil when none is visible.
    public func selected(in visible: [PaneID]) -> PaneID? {
        let index = selectionIndex(in: visible)
        return visible.indices.contains(index) ? visible[index] : nil
    }
}
