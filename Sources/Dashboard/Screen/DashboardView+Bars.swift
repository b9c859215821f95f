import DashboardConfig
import DashboardKeys
import FoundationEssentials
import Monitor
import Redaction
import ResourceEngine
import TerminalUI

/// The header (counts, filter, clock) and the footer (a flash, the status line, the keys that matter here).
extension DashboardView {
    // MARK: Header and footer

    func renderHeader(into area: Rect, buffer: inout Buffer) {
        let counts = healthCounts
        let file = URL(fileURLWithPath: spec.file).lastPathComponent
        var state = "✓\(counts.ok)"
        if counts.degraded > 0 { state += " \(Self.degradedMark)\(counts.degraded)" }
        state += " ✗\(counts.failing)"
        if counts.blocked > 0 { state += " \(Self.blockedMark)\(counts.blocked)" }
        if counts.unmet > 0 { state += " ⚠\(counts.unmet)" }
        state += " ⟳\(counts.loading)"
        // Every `connectivity:` check fails: this machine, not the APIs, has lost the network.
        if let since = counts.offlineSince { state += "  \(Self.blockedMark) offline since " + Formatting.clock(since, timeZone: timeZone, seconds: false) }
        if isPaused { state += "  ⏸ paused" }
        if !filter.isEmpty || mode == .filtering { state += "  /\(filter)" }
        if sortFailingFirst { state += "  failing first" }
        if valueDisplay.raw { state += "  raw values" }
        let count = "\(panes.count) pane\(panes.count == 1 ? "" : "s")"
        // Narrowing drops the file name, then the title, then the clock: the counts stay.
        let lefts = [" \(spec.title) · \(file) · \(count)  \(state)", " \(spec.title) · \(count)  \(state)", " \(state)"]
        let help = showsKeys ? spec.keyMap.hint(.showHelp).map { "   \($0) " } ?? " " : " "
        let right = Formatting.clock(now, timeZone: timeZone, seconds: false) + help
        let rightWidth = DisplayWidth.of(right) + 1
        let left = lefts.first { DisplayWidth.of($0) + rightWidth <= area.width } ?? lefts.last!
        StatusBar(left: left, right: right, style: Style().reversed).render(into: area, buffer: &buffer)
    }

    func renderFooter(into area: Rect, buffer: inout Buffer) {
        if let flash {
            StatusBar(left: " " + flash, style: Style(foreground: .yellow).bolded).render(into: area, buffer: &buffer)
            return
        }
        if let statusMessage {
            StatusBar(left: " ⚠ " + statusMessage, style: Style(foreground: .red).bolded).render(into: area, buffer: &buffer)
            return
        }
        guard showsKeys else { return }
        let keys = spec.keyMap
        let hints: String
        switch mode {
        case .filtering: hints = " filter: \(filter)▏  ⏎ apply  Esc clear"
        case .searching: hints = " search: \(zoomSearch)▏  ⏎ find  Esc cancel"
        case .command: hints = " :\(commandLine)▏  Tab complete  ⏎ run  Esc cancel"
        case .help, .curl:
            let context: KeyContext = mode == .help ? .help : .curl
            let close = keys.primaryName(.close, in: context) ?? keys.primaryName(mode == .help ? .showHelp : .showCurl, in: context)
            hints = close.map { " \($0) close" } ?? ""
        case .events:
            hints = typingEventFilter
                ? " filter: \(eventFilter)▏  ⏎ apply  Esc clear"
                : " " + [
                    keys.hint(.scrollDown, in: .events), keys.hint(.filterEvents, in: .events),
                    keys.hint(.eventsOfThisPaneOnly, in: .events, word: eventsOfSelectedPaneOnly ? "all panes" : nil),
                    keys.hint(.toggleRequestedEvents, in: .events, word: eventsShowRequests ? "hide requests" : nil),
                    keys.hint(.close, in: .events),
                ].compactMap { $0 }.joined(separator: "  ")
        case .normal:
            if isZoomed {
                let views = ZoomView.allCases.map { view in
                    let name = keys.primaryName(.zoomView(view), in: .zoom).map { "\($0) \(view.name)" } ?? view.name
                    return view == zoomView ? "[\(name)]" : name
                }
                let back = keys.hint(.close, in: .zoom) ?? ""
                // Narrow, the view in front and the keys that change it, so the rest still fits.
                var parts = [views.joined(separator: " ")]
                if DisplayWidth.of(parts[0]) + DisplayWidth.of(back) + 20 > area.width, let cycle = keys.hint(.nextZoomView, in: .zoom, word: "views") {
                    parts = [views[zoomView.rawValue - 1], cycle]
                }
                // A search's state first: it answers the last key.
                if searchMissed {
                    parts.insert("no match for \"\(zoomSearch)\"", at: 0)
                } else if !zoomSearch.isEmpty {
                    let position = searchPosition.map { "\($0.match)/\($0.count) " } ?? ""
                    parts.insert("\(position)\"\(zoomSearch)\"" + (keys.hint(.searchNext, in: .zoom).map { "  \($0)" } ?? ""), at: 0)
                } else if let search = keys.hint(.search, in: .zoom) {
                    parts.append(search)
                }
                if zoomView == .data, selectedPane?.spec.show == .table {
                    if let sort = keys.hint(.sortColumn, in: .zoomTable) { parts.insert(sort, at: 1) }
                }
                parts += [keys.hint(.scrollDown, in: .zoom), keys.hint(.showCurl), keys.hint(.openPager)].compactMap { $0 }
                // As many whole hints as fit, and always the way back.
                hints = Self.fittingHints(parts, last: back, width: area.width)
            } else {
                // The keys for the selected pane first (a failing one: retry, what failed, the
                // request), then the screen's; as many whole hints as fit, and always the way out.
                var actions: [KeyAction] = selectedPane?.health == .failing
                    ? [.retry, .zoom, .showCurl, .reload, .showEvents, .openPager]
                    : [.reload, .zoom, .showCurl, .openPager, .showEvents]
                actions += [.filterPanes, .sortFailingFirst, .commandLine, .toggleRawValues, .togglePause, .reloadAll, .selectNext]
                // While values are raw or refreshes paused, the way back comes first.
                if valueDisplay.raw { actions.removeAll { $0 == .toggleRawValues }; actions.insert(.toggleRawValues, at: 0) }
                if isPaused { actions.removeAll { $0 == .togglePause }; actions.insert(.togglePause, at: 0) }
                let items = actions.compactMap { action in
                    switch action {
                    case .togglePause where isPaused: keys.hint(action, word: "resume")
                    case .toggleRawValues where valueDisplay.raw: keys.hint(action, word: "formatted")
                    default: keys.hint(action)
                    }
                }
                let quit = keys.hint(.quit) ?? "Ctrl-C quit"
                hints = Self.fittingHints(items, last: quit, width: area.width)
            }
        }
        StatusBar(left: hints, style: Style().dimmed).render(into: area, buffer: &buffer)
    }

    /// " a  b  c  last": as many of `keys` as fit `width` whole, in order, then `last`.
    static func fittingHints(_ keys: [String], last: String, width: Int) -> String {
        var line = " "
        let room = width - 1 - DisplayWidth.of(last)
        for key in keys where DisplayWidth.of(line) + DisplayWidth.of(key) + 2 <= room {
            line += key + "  "
        }
        return line + last
    }
}
