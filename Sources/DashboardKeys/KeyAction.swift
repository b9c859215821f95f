/// What a key does.
public enum KeyAction: Hashable, Sendable {
    case reload, retry, reloadAll
    case selectNext, selectPrevious, moveLeft, moveRight, moveUp, moveDown
    case zoom, showCurl, openPager, showEvents, filterPanes, sortFailingFirst, toggleRawValues, togglePause, toggleMute
    case showHelp, suspend, quit, interrupt, commandLine, editConfig
    /// Escape on the grid: clears the pane filter.
    case clearFilter
    /// Closes the view that has the keyboard (zoom, help, curl, events).
    case close
    case zoomView(ZoomView), nextZoomView, previousZoomView, search, searchNext, searchPrevious, sortColumn, sortNextColumn, sortPreviousColumn
    case scrollDown, scrollUp, pageDown, pageUp, top, bottom
    case filterEvents, eventsOfThisPaneOnly, toggleRequestedEvents

    /// Every action a config may bind, in the order the help lists them.
    public static let configurable: [KeyAction] =
        [
            .reload, .retry, .reloadAll, .moveLeft, .moveDown, .moveUp, .moveRight, .selectNext, .selectPrevious,
            .top, .bottom, .pageUp, .pageDown, .zoom, .showCurl, .openPager, .showEvents, .filterPanes, .clearFilter,
            .sortFailingFirst, .toggleRawValues, .togglePause, .toggleMute, .commandLine, .editConfig, .showHelp, .quit, .close,
            .scrollDown, .scrollUp,
        ] + ZoomView.allCases.map { .zoomView($0) }
        + [
            .nextZoomView, .previousZoomView, .search, .searchNext, .searchPrevious, .sortColumn, .sortPreviousColumn, .sortNextColumn,
            .filterEvents, .eventsOfThisPaneOnly, .toggleRequestedEvents,
        ]

    /// The action called `name` under `keys:`, or nil.
    public init?(name: String) {
        guard let action = Self.configurable.first(where: { $0.name == name }) else { return nil }
        self = action
    }

    /// Its name under `keys:` in a config (`reload`, `back`, `dataView`).
    public var name: String {
        switch self {
        case .reload: "reload"
        case .retry: "retry"
        case .reloadAll: "reloadAll"
        case .selectNext: "next"
        case .selectPrevious: "previous"
        case .moveLeft: "left"
        case .moveRight: "right"
        case .moveUp: "up"
        case .moveDown: "down"
        case .zoom: "zoom"
        case .showCurl: "curl"
        case .openPager: "pager"
        case .showEvents: "events"
        case .filterPanes: "filter"
        case .sortFailingFirst: "sort"
        case .toggleRawValues: "rawValues"
        case .togglePause: "pause"
        case .toggleMute: "mute"
        case .showHelp: "help"
        case .suspend: "suspend"
        case .quit: "quit"
        case .interrupt: "interrupt"
        case .commandLine: "command"
        case .editConfig: "editConfig"
        case .clearFilter: "clearFilter"
        case .close: "back"
        case .zoomView(let view): "\(view.name)View"
        case .nextZoomView: "nextView"
        case .previousZoomView: "previousView"
        case .search: "search"
        case .searchNext: "searchNext"
        case .searchPrevious: "searchPrevious"
        case .sortColumn: "sortColumn"
        case .sortNextColumn: "sortNextColumn"
        case .sortPreviousColumn: "sortPreviousColumn"
        case .scrollDown: "scrollDown"
        case .scrollUp: "scrollUp"
        case .pageDown: "pageDown"
        case .pageUp: "pageUp"
        case .top: "top"
        case .bottom: "bottom"
        case .filterEvents: "filterEvents"
        case .eventsOfThisPaneOnly: "thisPaneOnly"
        case .toggleRequestedEvents: "requests"
        }
    }
}
