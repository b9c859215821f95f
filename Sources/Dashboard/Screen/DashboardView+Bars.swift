import DashboardConfig
import Foundation
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
        if counts.unmet > 0 { state += " ⚠\(counts.unmet)" }
        state += " ⟳\(counts.loading)"
        if isPaused { state += "  ⏸ paused" }
        if !filter.isEmpty || mode == .filtering { state += "  /\(filter)" }
        if sortFailingFirst { state += "  failing first" }
        if valueDisplay.raw { state += "  raw values" }
        let count = "\(panes.count) pane\(panes.count == 1 ? "" : "s")"
        // Narrowing drops the file name, then the title, then the clock: the counts stay.
        let lefts = [" \(spec.title) · \(file) · \(count)  \(state)", " \(spec.title) · \(count)  \(state)", " \(state)"]
        let right = "\(Formatting.clock(now, timeZone: timeZone, seconds: false))   ? help "
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
        let hints: String
        switch mode {
        case .filtering: hints = " filter: \(filter)▏  ⏎ apply  Esc clear"
        case .searching: hints = " search: \(zoomSearch)▏  ⏎ find  Esc cancel"
        case .command: hints = " :\(commandLine)▏  Tab complete  ⏎ run  Esc cancel"
        case .help, .curl: hints = " Esc close"
        case .events:
            hints = typingEventFilter
                ? " filter: \(eventFilter)▏  ⏎ apply  Esc clear"
                : " j/k PgUp/PgDn scroll  / filter  f \(eventsOfSelectedPaneOnly ? "all panes" : "this pane only")  r \(eventsShowRequests ? "hide" : "show") requests  q close"
        case .normal:
            if isZoomed {
                let views = ZoomView.allCases.map { $0 == zoomView ? "[\($0.rawValue) \($0.name)]" : "\($0.rawValue) \($0.name)" }
                var keys = [views.joined(separator: " ")]
                // A search's state first: it answers the last key.
                if searchMissed {
                    keys.insert("no match for \"\(zoomSearch)\"", at: 0)
                } else if !zoomSearch.isEmpty {
                    let position = searchPosition.map { "\($0.match)/\($0.count) " } ?? ""
                    keys.insert("\(position)\"\(zoomSearch)\"  n/N next/previous", at: 0)
                } else if let search = KeyMap.hint(.search, in: .zoom) {
                    keys.append(search)
                }
                if zoomView == .data, selectedPane?.spec.show == .table, let sort = KeyMap.hint(.sortColumn, in: .zoomTable) {
                    keys.insert(sort, at: 1)
                }
                keys += [KeyMap.hint(.scrollDown, in: .zoom), KeyMap.hint(.showCurl), KeyMap.hint(.openPager), KeyMap.hint(.close, in: .zoom)]
                    .compactMap { $0 }
                hints = " " + keys.joined(separator: "  ")
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
                let keys = actions.compactMap { action in
                    switch action {
                    case .togglePause where isPaused: "p resume"
                    case .toggleRawValues where valueDisplay.raw: "v formatted"
                    case .toggleRawValues: "v raw"
                    default: KeyMap.hint(action)
                    }
                }
                hints = Self.fittingHints(keys, last: KeyMap.hint(.quit) ?? "q quit", width: area.width)
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
