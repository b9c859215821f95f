import DashboardConfig
import DashboardKeys
import Monitor
import TerminalUI

/// A pane as `update` knows it: which one, and what its order and the filter depend on.
public typealias PaneID = ObjectIdentifier

/// Everything the screen shows: the panes and what their probes last said, which view is in
/// front, the selection, the zoom, the filters and searches, the one-line answers. A value:
/// `update` (below, in this file, so its setters can stay private) is the only function that
/// changes it; the view reads a copy.
public struct DashboardModel: Sendable {
    /// Which screen is in front.
    public enum Mode: Equatable, Sendable {
        case normal, help, events, filtering
        /// Typing a search in a zoomed detail view.
        case searching
        /// The selected pane's request as a curl command (`c`).
        case curl
        /// Typing a command after `:` (`:pane Orders`, `:theme light`).
        case command
    }

    /// The panes in the config's order, each with what its probe last said.
    public private(set) var panes: [PaneState] = []
    /// Where each pane is in `panes`.
    private var paneIndex: [PaneID: Int] = [:]
    public internal(set) var mode: Mode = .normal
    /// What is typed after `:`, and the answer to the last command (an unknown one, a pane not found).
    public internal(set) var commandLine = ""
    /// The theme `:theme` chose for this run, over the config's.
    public internal(set) var themeOverride: ThemeSpec.Base?
    /// The pane the user chose, and the index it had then (used when it is no longer visible).
    public private(set) var chosenPane: PaneID?
    public private(set) var chosenIndex = 0
    /// The title of the pane selected when a config reload began: chosen again once it ran.
    private var titleToChooseAfterReload: String?
    public private(set) var isZoomed = false
    /// The zoomed pane's view (data, response, request, timing, error).
    public private(set) var zoomView: ZoomView = .data
    /// What `/` searches for in a zoomed detail view.
    public private(set) var zoomSearch = ""
    /// "no match" after a search that found nothing, for the footer.
    public private(set) var searchMissed = false
    /// Which match of the zoom's search is shown, of how many; nil until a search finds one.
    public private(set) var searchPosition: SearchPosition?
    /// Lines scrolled in zoom, by pane.
    public private(set) var scroll: [PaneID: Int] = [:]
    /// How a zoomed table's rows are ordered, by pane; none: as the data lists them.
    public private(set) var tableSort: [PaneID: TableSort] = [:]
    /// The curl command `c` made, shown while `mode` is `.curl`.
    public private(set) var curlCommand = ""
    /// The event log's view: a text filter (`/`), only the selected pane's events (`f`), and how
    /// many lines it is scrolled up from the newest.
    public private(set) var eventFilter = ""
    public private(set) var eventsOfSelectedPaneOnly = false
    public private(set) var eventScroll = 0
    /// Whether the event log shows `Requested` lines (one before every answer; hidden by default).
    public private(set) var eventsShowRequests = false
    /// The first line the help overlay shows.
    public private(set) var helpScroll = 0
    /// True while `/` in the event log takes typing.
    public private(set) var typingEventFilter = false
    /// A one-line answer to a key (the pager failed, nothing to page), shown until the next key.
    public internal(set) var flash: String?
    /// The panes' filter (`/`).
    public private(set) var filter = ""
    public private(set) var sortFailingFirst = false
    /// Raw values instead of formatted ones (`v`).
    public private(set) var rawValues = false
    /// A message for the status line (a rejected config reload), shown until the next good reload.
    public private(set) var statusMessage: String?
    /// Counts ticks: the spinners' frame.
    public private(set) var spinnerTick = 0

    public init() {}

    /// The pane with `id`, if the model has it.
    public func pane(_ id: PaneID) -> PaneState? {
        paneIndex[id].map { panes[$0] }
    }

    /// Where the chosen pane is among `visible` (pane IDs in display order); where it was, kept
    /// within them, when it is not there.
    public func selectionIndex(in visible: [PaneID]) -> Int {
        selectionIndex(in: visible) { $0 }
    }

    /// The same for panes of any kind in display order, `id` naming each (a frame asks several
    /// times: no array of IDs is made for it).
    public func selectionIndex<Item>(in visible: [Item], id: (Item) -> PaneID) -> Int {
        if let chosenPane, let index = visible.firstIndex(where: { id($0) == chosenPane }) { return index }
        return max(0, min(chosenIndex, visible.count - 1))
    }

    /// The selected pane among `visible`, or nil when none is visible.
    public func selected(in visible: [PaneID]) -> PaneID? {
        let index = selectionIndex(in: visible)
        return visible.indices.contains(index) ? visible[index] : nil
    }
}

/// `update`: a message in, the model changed, the effects to carry out returned as data. The
/// only code that changes a `DashboardModel`.
@MainActor
extension DashboardModel {
    /// Applies `message`, reading `world` where the answer depends on the panes or the screen,
    /// and returns what the runtime is to do, in order.
    public mutating func update(_ message: DashboardMessage, world: some ScreenWorld) -> [DashboardEffect] {
        switch message {
        case .key(let key):
            flash = nil
            return keyPressed(key, world: world) + [.frame(urgent: true)]
        case .action(let action):
            flash = nil
            return perform(action, world: world) + [.frame(urgent: true)]
        case .resized:
            return [.frame(urgent: true)]
        case .panes(let panes):
            self.panes = panes
            paneIndex = Dictionary(panes.enumerated().map { ($1.id, $0) }) { first, _ in first }
            return [.frame(urgent: false)]
        case .paneMoved(let state):
            guard let index = paneIndex[state.id] else { return [] }
            let manualLoads = panes[index].manualLoads
            panes[index] = state
            panes[index].manualLoads = manualLoads
            return Self.afterAChange
        case .probesChanged:
            // A resource now loads (a spinner) or has fresh data ("now", then "1s ago").
            return Self.afterAChange
        case .probed(let reports):
            // A report for a pane the model no longer has (a reload replaced it) is dropped.
            for (id, report) in reports {
                if let index = paneIndex[id] { panes[index].probe = report }
            }
            return []
        case .manualLoads(let id, let count):
            guard let index = paneIndex[id], panes[index].manualLoads != count else { return [] }
            panes[index].manualLoads = count
            return Self.afterAChange
        case .reminded:
            return Self.afterAChange
        case .tick:
            spinnerTick += 1
            return Self.afterATick
        case .configReloaded(let outcome):
            titleToChooseAfterReload = selectedPane?.title
            return [.applyConfig(outcome)]
        case .configApplied(let result):
            defer { titleToChooseAfterReload = nil }
            switch result {
            case .reloaded:
                statusMessage = nil
                let visible = visiblePanes
                if let title = titleToChooseAfterReload, let index = visible.firstIndex(where: { $0.title == title }) {
                    select(index, in: visible)
                }
                // The panes are new: they start at the top, as listed.
                scroll = [:]
                tableSort = [:]
                return [.frame(urgent: true), .tickAgain]
            case .rejected(let line):
                statusMessage = line
                return [.frame(urgent: false)]
            case .unchanged:
                return []
            }
        case .notice(let text):
            statusMessage = text
            return [.notify(text), .frame(urgent: false)]
        case .flash(let text):
            flash = text
            return [.frame(urgent: false)]
        }
    }

    /// The effects of the most frequent messages, made once.
    private static let afterAChange: [DashboardEffect] = [.tickSoon, .frame(urgent: false)]
    private static let afterATick: [DashboardEffect] = [.tickAgain, .frame(urgent: false)]

    // MARK: Selection

    /// Chooses the pane at `index` of `visible`.
    mutating func select(_ index: Int, in visible: [PaneState]) {
        chosenIndex = max(0, min(index, visible.count - 1))
        chosenPane = visible.indices.contains(chosenIndex) ? visible[chosenIndex].id : nil
    }

    /// Chooses the pane the selection now falls on (after a filter that hid the chosen one).
    private mutating func clampSelection() {
        let visible = visiblePanes
        select(selectionIndex(in: visible, id: \.id), in: visible)
    }

    // MARK: Keys

    mutating func keyPressed(_ key: KeyEvent, world: some ScreenWorld) -> [DashboardEffect] {
        if case .mouse(let event) = key { return mouse(event, world: world) }
        let keys = world.keyMap
        switch keys.action(for: key, in: .anywhere) {
        case .interrupt: return [.quit(130)]
        case .suspend: return [.suspend]
        default: break
        }
        switch mode {
        case .filtering: filterKey(key)
        case .command: return commandKey(key, world: world)
        case .searching: searchKey(key, world: world)
        case .events where typingEventFilter: eventFilterKey(key)
        default:
            guard let action = keys.action(for: key, in: keyContexts) else { return [] }
            return perform(action, world: world)
        }
        return []
    }

    /// Where a key is looked up now, in order: the view in front's keys (a zoom lets the grid's
    /// through).
    var keyContexts: [KeyContext] {
        switch mode {
        case .help: [.help]
        case .events: [.events]
        case .curl: [.curl]
        case .normal where isZoomed: (zoomView == .data && selectedPane?.isTable == true ? KeyContext.zoomTable : .zoom).layers
        default: [.grid]
        }
    }

    /// What `action` does in the view in front, however it was asked for (a key, a click, the wheel).
    mutating func perform(_ action: KeyAction, world: some ScreenWorld) -> [DashboardEffect] {
        switch mode {
        case .help: helpAction(action, world: world)
        case .events: eventsAction(action, world: world)
        case .curl: if action == .close || action == .showCurl { mode = .normal }
        case .normal:
            if isZoomed, let handled = zoomAction(action, world: world) { return handled }
            return gridAction(action, world: world)
        case .filtering, .command, .searching: break
        }
        return []
    }

    private mutating func helpAction(_ action: KeyAction, world: some ScreenWorld) {
        let page = max(1, world.size.rows - 4)
        switch action {
        case .close, .showHelp: mode = .normal
        case .scrollDown: helpScroll += 1
        case .scrollUp: helpScroll -= 1
        case .pageDown: helpScroll += page
        case .pageUp: helpScroll -= page
        case .top: helpScroll = 0
        case .bottom: helpScroll = Int.max / 2
        default: break
        }
        helpScroll = max(0, min(helpScroll, HelpOverlay.maxScroll(world.keyMap, at: world.size)))
    }

    /// Typing the panes' filter.
    private mutating func filterKey(_ key: KeyEvent) {
        switch key {
        case .enter: mode = .normal
        case .escape:
            filter = ""
            mode = .normal
        case .backspace: filter = String(filter.dropLast())
        case .character(let c): filter.append(c)
        default: break
        }
        select(0, in: visiblePanes)
    }

    /// Typing the event log's filter.
    private mutating func eventFilterKey(_ key: KeyEvent) {
        switch key {
        case .enter: typingEventFilter = false
        case .escape:
            eventFilter = ""
            typingEventFilter = false
        case .backspace: eventFilter = String(eventFilter.dropLast())
        case .character(let c): eventFilter.append(c)
        default: break
        }
        eventScroll = 0
    }

    /// The event log: scroll, filter, only the selected pane, close.
    private mutating func eventsAction(_ action: KeyAction, world: some ScreenWorld) {
        let page = max(1, world.size.rows - 6)
        switch action {
        case .close, .showEvents: mode = .normal
        case .filterEvents:
            typingEventFilter = true
            eventFilter = ""
        case .eventsOfThisPaneOnly: eventsOfSelectedPaneOnly.toggle()
        case .toggleRequestedEvents: eventsShowRequests.toggle()
        case .scrollUp: eventScroll += 1
        case .scrollDown: eventScroll -= 1
        case .pageUp: eventScroll += page
        case .pageDown: eventScroll -= page
        case .top: eventScroll = Int.max / 2
        case .bottom: eventScroll = 0
        default: break
        }
        eventScroll = max(0, min(eventScroll, max(0, world.shownEventCount(self) - 1)))
    }

    /// Typing a search in the zoom.
    private mutating func searchKey(_ key: KeyEvent, world: some ScreenWorld) {
        guard let pane = selectedPane else { return mode = .normal }
        switch key {
        case .enter:
            mode = .normal
            searchMissed = !findNext(in: pane.id, after: (scroll[pane.id] ?? 0) - 1, world: world)
        case .escape:
            zoomSearch = ""
            searchMissed = false
            searchPosition = nil
            mode = .normal
        case .backspace: zoomSearch = String(zoomSearch.dropLast())
        case .character(let c): zoomSearch.append(c)
        default: break
        }
    }

    /// Actions that mean something else while zoomed; nil lets the grid's handling have it.
    private mutating func zoomAction(_ action: KeyAction, world: some ScreenWorld) -> [DashboardEffect]? {
        guard let pane = selectedPane else {
            isZoomed = false
            return nil
        }
        let page = max(1, world.size.rows - 4)
        switch action {
        case .zoomView(let view): show(view, of: pane.id)
        case .close: isZoomed = false
        case .nextZoomView: show(zoomView.cycled(by: 1), of: pane.id)
        case .previousZoomView: show(zoomView.cycled(by: -1), of: pane.id)
        case .search:
            zoomSearch = ""
            searchMissed = false
            searchPosition = nil
            mode = .searching
        case .searchNext where !zoomSearch.isEmpty:
            searchMissed = !findNext(in: pane.id, after: scroll[pane.id] ?? 0, world: world)
        case .searchPrevious where !zoomSearch.isEmpty:
            searchMissed = !findNext(in: pane.id, after: scroll[pane.id] ?? 0, backward: true, world: world)
        case .sortColumn:
            tableSort[pane.id] = TableSort.next(after: tableSort[pane.id], columns: world.tableColumnCount(pane.id, model: self))
            scroll[pane.id] = 0
        case .sortNextColumn, .sortPreviousColumn:
            let step = action == .sortNextColumn ? 1 : -1
            tableSort[pane.id] = TableSort.shifted(tableSort[pane.id], by: step, columns: world.tableColumnCount(pane.id, model: self))
            scroll[pane.id] = 0
        case .scrollDown: scrollZoom(pane.id, by: 1, world: world)
        case .scrollUp: scrollZoom(pane.id, by: -1, world: world)
        case .pageDown: scrollZoom(pane.id, by: page, world: world)
        case .pageUp: scrollZoom(pane.id, by: -page, world: world)
        case .top: scroll[pane.id] = 0
        case .bottom: scrollZoom(pane.id, by: Int.max / 2, world: world)
        default: return nil
        }
        return []
    }

    /// The zoomed view's inside: within the border and its one-cell inset on each side.
    private static func zoomWidth(_ world: some ScreenWorld) -> Int { world.size.columns - 4 }

    private mutating func scrollZoom(_ pane: PaneID, by delta: Int, world: some ScreenWorld) {
        let height = world.size.rows - 4
        let content = world.zoomLineCount(pane, zoomView, width: Self.zoomWidth(world), model: self)
        let maximum = max(0, content - height)
        scroll[pane] = max(0, min(maximum, (scroll[pane] ?? 0).addingReportingOverflow(delta).partialValue))
    }

    /// Scrolls the zoomed view to the next line after `line` that contains the search text
    /// (round the end); false when no line does.
    private mutating func findNext(in pane: PaneID, after line: Int, backward: Bool = false, world: some ScreenWorld) -> Bool {
        searchPosition = nil
        guard !zoomSearch.isEmpty else { return false }
        let lines = world.searchRows(pane, zoomView, width: Self.zoomWidth(world), model: self)
        let matches = lines.indices.filter { PaneContent.matches(lines[$0], zoomSearch) }
        guard !matches.isEmpty else { return false }
        // Past the last match (or before the first, going back) the search wraps around, as less's does.
        let position = backward
            ? matches.lastIndex { $0 < line } ?? matches.count - 1
            : matches.firstIndex { $0 > line } ?? 0
        scroll[pane] = matches[position]
        searchPosition = SearchPosition(match: position + 1, count: matches.count)
        return true
    }

    /// Sorts a zoomed table by `column` ▲, or ▼ when it is sorted by it ▲ already; from the top.
    mutating func sortTable(_ pane: PaneID, byColumn column: Int) {
        let current = tableSort[pane]
        tableSort[pane] = TableSort(column: column, descending: current?.column == column && current?.descending == false)
        scroll[pane] = 0
    }

    /// Switches the zoom to `view`, from its top.
    private mutating func show(_ view: ZoomView, of pane: PaneID) {
        zoomView = view
        scroll[pane] = 0
        searchMissed = false
        searchPosition = nil
    }

    private mutating func gridKey(_ key: KeyEvent, world: some ScreenWorld) -> [DashboardEffect] {
        guard let action = world.keyMap.action(for: key, in: .grid) else { return [] }
        return gridAction(action, world: world)
    }

    /// What `action` does on the grid (or, let through, in a zoom).
    mutating func gridAction(_ action: KeyAction, world: some ScreenWorld) -> [DashboardEffect] {
        let visible = visiblePanes
        let count = visible.count
        let selection = selectionIndex(in: visible, id: \.id)
        let selected = visible.indices.contains(selection) ? visible[selection] : nil
        let shape = GridShape(gridColumns: world.gridColumns, size: world.size, sizes: visible.map(\.spec.size))
        if let target = shape.move(action, from: selection, count: count) {
            select(target, in: visible)
            return []
        }
        switch action {
        case .quit: return [.quit(0)]
        case .reload: return selected.map { [.reload($0.id)] } ?? []
        case .retry: return selected.map { [.retry($0.id)] } ?? []
        case .reloadAll: return [.reloadAll]
        case .togglePause: return [.setPaused(!world.isPaused)]
        case .toggleMute:
            guard let selected else { return [] }
            if selected.probe.silence?.reason == "muted" { return [.unmute(selected.id)] }
            // For how long: typed, or completed with Tab (15m, 1h, recovered).
            mode = .command
            commandLine = "mute "
            return []
        case .toggleRawValues:
            rawValues.toggle()
            return [.setRawValues(rawValues)]
        case .showCurl:
            guard let selected else { return [] }
            // The clipboard gets what the screen shows: a config value with control characters
            // (ESC, BEL…) must not reach a shell the command is pasted into.
            curlCommand = world.curlCommand(for: selected)
            mode = .curl
            return [.copyToClipboard(curlCommand)]
        case .openPager: return selected.map { [.page($0.id)] } ?? []
        case .editConfig: return [.editConfig]
        case .sortFailingFirst:
            sortFailingFirst.toggle()
            let reordered = visiblePanes
            if let selected, let index = reordered.firstIndex(where: { $0.id == selected.id }) {
                select(index, in: reordered)
            }
        case .showEvents:
            // Opened afresh: a filter left from last time would hide events without a word.
            mode = .events
            eventScroll = 0
            eventFilter = ""
            eventsOfSelectedPaneOnly = false
        case .showHelp:
            mode = .help
            helpScroll = 0
        case .commandLine:
            mode = .command
            commandLine = ""
        case .filterPanes: mode = .filtering
        case .clearFilter:
            if !filter.isEmpty {
                filter = ""
                clampSelection()
            }
        case .zoom:
            if let selected {
                isZoomed = true
                zoomView = .data
                zoomSearch = ""
                searchMissed = false
                searchPosition = nil
                scroll[selected.id] = 0
            }
        default: break
        }
        return []
    }
}
/// Which match of a search is shown (from 1), of how many: "3/17".
public struct SearchPosition: Equatable, Sendable {
    public let match: Int
    public let count: Int
}
