import DashboardConfig
import TerminalUI

extension DashboardApp {
    func handleKey(_ key: KeyEvent) {
        defer { requestFrame(urgent: true) }
        flash = nil
        switch KeyMap.action(for: key, in: .anywhere) {
        case .interrupt: return quit(130)
        case .suspend: return onSuspend?() ?? ()
        default: break
        }
        switch mode {
        case .help:
            if KeyMap.action(for: key, in: .help) == .close { mode = .normal }
        case .events:
            handleEventsKey(key)
        case .curl:
            if KeyMap.action(for: key, in: .curl) == .close { mode = .normal }
        case .filtering:
            handleFilterKey(key)
        case .searching:
            handleSearchKey(key)
        case .normal:
            if isZoomed, handleZoomKey(key) { return }
            handleNormalKey(key)
        }
    }

    private func handleFilterKey(_ key: KeyEvent) {
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

    /// The event log: scroll, `/` filter, `f` only the selected pane, Esc (or `e`, `q`) closes.
    private func handleEventsKey(_ key: KeyEvent) {
        let page = max(1, (terminal?.size.rows ?? 24) - 6)
        if typingEventFilter {
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
            return
        }
        switch KeyMap.action(for: key, in: .events) {
        case .close: mode = .normal
        case .filterEvents:
            typingEventFilter = true
            eventFilter = ""
        case .eventsOfThisPaneOnly: eventsOfSelectedPaneOnly.toggle()
        case .scrollUp: eventScroll += 1
        case .scrollDown: eventScroll -= 1
        case .pageUp: eventScroll += page
        case .pageDown: eventScroll -= page
        case .top: eventScroll = Int.max / 2
        case .bottom: eventScroll = 0
        default: break
        }
        eventScroll = max(0, min(eventScroll, max(0, shownEvents.count - 1)))
    }

    private func handleSearchKey(_ key: KeyEvent) {
        guard let pane = selectedPane else { return mode = .normal }
        switch key {
        case .enter:
            mode = .normal
            searchMissed = !findNext(in: pane, after: pane.scroll - 1)
        case .escape:
            zoomSearch = ""
            searchMissed = false
            mode = .normal
        case .backspace: zoomSearch = String(zoomSearch.dropLast())
        case .character(let c): zoomSearch.append(c)
        default: break
        }
    }

    /// Keys that mean something else while zoomed; false lets normal handling see the key.
    private func handleZoomKey(_ key: KeyEvent) -> Bool {
        guard let pane = selectedPane else {
            isZoomed = false
            return false
        }
        let page = max(1, (terminal?.size.rows ?? 24) - 4)
        let isTable = zoomView == .data && pane.spec.show == .table
        switch KeyMap.action(for: key, in: isTable ? [.zoomTable, .zoom] : [.zoom]) {
        case .zoomView(let view): show(view, of: pane)
        case .close: isZoomed = false
        case .nextZoomView: show(zoomView.cycled(by: 1), of: pane)
        case .previousZoomView: show(zoomView.cycled(by: -1), of: pane)
        case .search:
            zoomSearch = ""
            searchMissed = false
            mode = .searching
        case .searchNext where !zoomSearch.isEmpty:
            searchMissed = !findNext(in: pane, after: pane.scroll)
        case .sortColumn:
            pane.tableSort = TableSort.next(after: pane.tableSort, columns: pane.content?.tableColumnCount ?? 0)
            pane.scroll = 0
        case .scrollDown: scroll(pane, by: 1)
        case .scrollUp: scroll(pane, by: -1)
        case .pageDown: scroll(pane, by: page)
        case .pageUp: scroll(pane, by: -page)
        case .top: pane.scroll = 0
        case .bottom: scroll(pane, by: Int.max / 2)
        default: return false
        }
        return true
    }

    private func scroll(_ pane: Pane, by delta: Int) {
        // Inside the border and its one-cell inset on each side, as the zoomed pane draws.
        let width = (terminal?.size.columns ?? 80) - 4
        let height = (terminal?.size.rows ?? 24) - 4
        let content = zoomLineCount(pane, width: width)
        let maximum = max(0, content - height)
        pane.scroll = max(0, min(maximum, pane.scroll.addingReportingOverflow(delta).partialValue))
    }

    private func handleNormalKey(_ key: KeyEvent) {
        let visible = visiblePanes
        let count = visible.count
        let selection = selectionIndex(in: visible)
        switch KeyMap.action(for: key, in: .grid) {
        case .quit: quit(0)
        case .reload: selectedPane?.reload()
        case .retry: selectedPane?.retry()
        case .reloadAll: reloadAll()
        case .togglePause: isPaused.toggle()
        case .toggleRawValues: valueDisplay.raw.toggle()
        case .showCurl: if let pane = selectedPane { showCurl(for: pane) }
        case .openPager: if let pane = selectedPane { openPager(for: pane) }
        case .sortFailingFirst:
            let current = selectedPane
            sortFailingFirst.toggle()
            reselect(current)
        case .showEvents:
            mode = .events
            eventScroll = 0
        case .showHelp: mode = .help
        case .filterPanes: mode = .filtering
        case .clearFilter:
            if !filter.isEmpty {
                filter = ""
                clampSelection()
            }
        case .zoom:
            if let pane = selectedPane {
                isZoomed = true
                zoomView = .data
                zoomSearch = ""
                searchMissed = false
                pane.scroll = 0
            }
        case .selectNext: if count > 0 { select((selection + 1) % count, in: visible) }
        case .selectPrevious: if count > 0 { select((selection - 1 + count) % count, in: visible) }
        case .moveRight: select(min(count - 1, selection + 1), in: visible)
        case .moveLeft: select(max(0, selection - 1), in: visible)
        case .moveDown: if selection + gridColumns < count { select(selection + gridColumns, in: visible) }
        case .moveUp: if selection - gridColumns >= 0 { select(selection - gridColumns, in: visible) }
        default: break
        }
    }

    /// Shows the pane's request as a curl command and offers it to the clipboard.
    private func showCurl(for pane: Pane) {
        // The clipboard gets what the screen shows: a config value with control characters
        // (ESC, BEL…) must not reach a shell the command is pasted into.
        curlCommand = Sanitizer.lines(CurlCommand.make(for: pane.spec, in: spec, redactor: pane.redactor)).joined(separator: "\n")
        terminal?.copyToClipboard(curlCommand)
        mode = .curl
    }

    /// Hands the terminal to `$PAGER` with the pane's last answer body (redacted, pretty when JSON).
    private func openPager(for pane: Pane) {
        guard let body = bodyText(of: pane) else {
            flash = "no body to page: \(pane.spec.title) has no answer yet"
            return
        }
        guard let onPage else {
            flash = "no terminal to page in"
            return
        }
        if let problem = onPage(body) { flash = problem }
    }

    /// Switches the zoom to `view`, from its top.
    private func show(_ view: ZoomView, of pane: Pane) {
        zoomView = view
        pane.scroll = 0
        searchMissed = false
    }

    private func reselect(_ pane: Pane?) {
        let visible = visiblePanes
        guard let pane, let index = visible.firstIndex(where: { $0 === pane }) else { return }
        select(index, in: visible)
    }
}
