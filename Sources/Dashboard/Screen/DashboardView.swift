import DashboardConfig
import DashboardKeys
import FoundationEssentials
import Monitor
import Redaction
import ResourceEngine
import TerminalUI

/// The screen drawn from a copy of the model (the panes and what their probes said, the screen's
/// state) and what the monitor says beyond the panes (its counts, event log and histories), read
/// as values for the frame: it changes nothing it reads and calls nothing of the engine. It
/// returns the panes it drew (`drawn`); what it memoises (a pane's content as drawn, pretty
/// bodies) lives in caches the runtime owns.
@MainActor
struct DashboardView {
    let model: DashboardModel
    let spec: DashboardSpec
    let redactor: Redactor
    let eventLog: EventLog
    let healthCounts: HealthCounts
    /// The monitor's probe histories, by `PaneState.historyKey`.
    let histories: [String: ProbeHistory]
    let isPaused: Bool
    let size: Size
    /// The time on the engine clock the frame is drawn at.
    let now: TimeInterval
    /// Nil: the system's zone (`LocalTime`).
    let timeZone: ZoneInfo?
    let valueDisplay: ValueDisplay
    let caches: ViewCaches
    /// Where `render` lists the panes it drew, in any view.
    let drawn: DrawnPanes
    /// False: no key hints (a frame for a log, `snapshot`).
    var showsKeys = true

    var panes: [PaneState] { model.panes }
    var mode: DashboardModel.Mode { model.mode }
    var filter: String { model.filter }
    var sortFailingFirst: Bool { model.sortFailingFirst }
    var isZoomed: Bool { model.isZoomed }
    var zoomView: ZoomView { model.zoomView }
    var zoomSearch: String { model.zoomSearch }
    var searchMissed: Bool { model.searchMissed }
    var searchPosition: SearchPosition? { model.searchPosition }
    var curlCommand: String { model.curlCommand }
    var eventFilter: String { model.eventFilter }
    var eventsOfSelectedPaneOnly: Bool { model.eventsOfSelectedPaneOnly }
    var eventScroll: Int { model.eventScroll }
    var helpScroll: Int { model.helpScroll }
    var commandLine: String { model.commandLine }
    var eventsShowRequests: Bool { model.eventsShowRequests }
    var typingEventFilter: Bool { model.typingEventFilter }
    var flash: String? { model.flash }
    var statusMessage: String? { model.statusMessage }
    var spinnerTick: Int { model.spinnerTick }

    /// The panes after the filter and the failing-first sort, in display order.
    var visiblePanes: [PaneState] { model.visiblePanes }

    var selectedPane: PaneState? { model.selectedPane }

    func selectionIndex(in visible: [PaneState]) -> Int {
        model.selectionIndex(in: visible, id: \.id)
    }

    /// The probes kept for the resource a pane shows.
    func history(for pane: PaneState) -> ProbeHistory? {
        histories[pane.historyKey]
    }

    /// Lines the pane's zoom is scrolled.
    func scroll(of pane: PaneState) -> Int {
        model.scroll[pane.id] ?? 0
    }

    /// What the pane shows of its entity, its table in the order the zoom sorts it.
    func content(of pane: PaneState) -> PaneContent? {
        caches.content(of: pane, sortedBy: model.tableSort[pane.id], display: valueDisplay)
    }
}

extension DashboardView {
    /// The smallest terminal the dashboard draws in.
    public static let minimumSize = Size(columns: 30, rows: 6)

    /// Columns the grid uses at the current width.
    var gridColumns: Int { GridShape.columns(for: spec.layout, width: size.columns) }


    func render(into buffer: inout Buffer) {
        drawn.panes.removeAll(keepingCapacity: true)
        let area = buffer.area
        guard area.width >= Self.minimumSize.columns, area.height >= Self.minimumSize.rows else {
            let message = "Terminal too small: \(area.width)x\(area.height) (Hammock needs \(Self.minimumSize))"
            Paragraph(message, alignment: .center).render(into: area, buffer: &buffer)
            return
        }
        let rows = Layout.vertical([.length(1), .fill(1), .length(1)]).split(area)
        renderHeader(into: rows[0], buffer: &buffer)
        renderFooter(into: rows[2], buffer: &buffer)
        let body = rows[1]
        let visible = visiblePanes
        if visible.isEmpty {
            let text = filter.isEmpty ? "No panes." : "No pane matches \"\(filter)\"" + (spec.keyMap.primaryName(.clearFilter).map { " (\($0) clears the filter)" } ?? "")
            let message = Paragraph(text, style: Style().dimmed, alignment: .center)
            message.render(into: body.centered(width: body.width, height: message.lines(width: body.width).count), buffer: &buffer)
        } else if isZoomed, let pane = selectedPane {
            if zoomView == .data {
                renderPane(pane, selected: true, into: body, buffer: &buffer, zoomed: true)
            } else {
                renderDetail(zoomView, of: pane, into: body, buffer: &buffer)
            }
        } else {
            renderGrid(visible, into: body, buffer: &buffer)
        }
        switch mode {
        case .help: HelpOverlay.modal(spec.keyMap, scroll: helpScroll).render(into: body, buffer: &buffer)
        case .events: renderEvents(into: body, buffer: &buffer)
        case .curl: renderCurl(into: body, buffer: &buffer)
        case .normal, .filtering, .searching, .command: break
        }
    }

    // MARK: Grid

    private func renderGrid(_ visible: [PaneState], into area: Rect, buffer: inout Buffer) {
        let shape = GridShape(gridColumns: gridColumns, size: size, sizes: visible.map(\.spec.size))
        if shape.isList {
            renderCollapsed(visible, shape: shape, into: area, buffer: &buffer)
            return
        }
        let selection = selectionIndex(in: visible)
        for (index, rect) in shape.rects.enumerated() {
            renderPane(visible[index], selected: index == selection, into: rect, buffer: &buffer, zoomed: false)
        }
    }

    /// One line per pane; the window scrolls to keep the selection in view.
    private func renderCollapsed(_ visible: [PaneState], shape: GridShape, into area: Rect, buffer: inout Buffer) {
        let capacity = area.height
        let selection = selectionIndex(in: visible)
        let first = shape.listStart(selection: selection, count: visible.count)
        var titleWidth = 0
        for pane in visible { titleWidth = max(titleWidth, min(24, pane.titleWidth)) }
        for (row, index) in (first..<min(visible.count, first + capacity)).enumerated() {
            let pane = visible[index]
            drawn.panes.append(pane.id)
            let (mark, style) = marker(for: pane)
            let y = area.y + row
            let selected = index == selection
            // The selected row is a bar across the list, as in htop and k9s.
            let bar: (Style) -> Style = selected ? { $0.reversed } : { $0 }
            if selected { buffer.setStyle(bar(.plain), in: Rect(x: area.x, y: y, width: area.width, height: 1)) }
            var x = buffer.setString(x: area.x, y: y, selected ? "▸" : " ", style: bar(Style().bolded))
            x = buffer.setString(x: x, y: y, mark + " ", style: bar(style))
            x = buffer.setString(x: x, y: y, DisplayWidth.pad(pane.title, to: titleWidth) + "  ", style: bar(selected ? Style().bolded : .plain))
            buffer.setString(x: x, y: y, DisplayWidth.truncate(summary(of: pane), to: area.right - x), style: bar(selected ? .plain : Style().dimmed))
        }
    }

    /// How many kept probes a title bar's uptime needs.
    static let probesForUptime = 5

    /// How a degraded pane is marked (half of ✓, half of ✗).
    static let degradedMark = "◐"
    /// How a blocked pane is marked: failing, but because of another.
    static let blockedMark = "⊘"

    private func marker(for pane: PaneState) -> (String, Style) {
        switch pane.health {
        case .ok: ("✓", Style().fg(.green))
        case .failing: ("✗", Style().fg(.red).bolded)
        case .unmet: ("⚠", Style().fg(.yellow).bolded)
        case .degraded: (Self.degradedMark, Style().fg(.yellow))
        case .blocked: (Self.blockedMark, Style().fg(.magenta))
        case .loading, .waiting: (Spinner(tick: spinnerTick).symbol, Style().fg(.yellow))
        }
    }

    /// A one-line summary: status, latency, and the data or the error.
    private func summary(of pane: PaneState) -> String {
        var summary = statusText(for: pane)
        let detail = pane.probe.failure ?? pane.probe.unmetExpectation ?? content(of: pane)?.summary() ?? ""
        if !detail.isEmpty { summary += summary.isEmpty ? detail : "  " + detail }
        return summary
    }

    // MARK: One pane

    /// "200 · 41 ms · 2s ago ⠋": what the title bar says about the last exchange.
    func statusText(for pane: PaneState) -> String {
        statusText(for: pane, fitting: .max)
    }

    /// The longest title-bar status that fits `room` columns with a space each side, else the
    /// shortest: narrowing drops the uptime, the latency, then the status code; then the state
    /// (error, unmet, the data's age) gives way to the pane's mark with one figure ("✓ 2ms",
    /// "✗ 503"), and last to the mark alone. Built one variant at a time, with no arrays or
    /// closures: this runs for every pane of every frame, and the longest nearly always fits.
    func statusText(for pane: PaneState, fitting room: Int) -> String {
        let (code, latency, state, uptime, spinner) = statusParts(for: pane)
        var text = ""
        for narrowing in 0..<6 {
            text = ""
            if narrowing < 4 {
                Self.appendStatus(narrowing < 3 ? code : state ?? code, to: &text)
                if narrowing < 2 { Self.appendStatus(latency, to: &text) }
                if narrowing < 3 { Self.appendStatus(state, to: &text) }
                if narrowing == 0 { Self.appendStatus(uptime, to: &text) }
            } else {
                text = marker(for: pane).0
                let failed = pane.health == .failing || pane.health == .unmet
                if narrowing == 4, let figure = failed ? code : latency.map(Self.compactLatency) ?? code { text += " " + figure }
            }
            if let spinner { text += (text.isEmpty ? "" : " ") + spinner }
            if DisplayWidth.of(text) + 2 <= room { return text }
        }
        return text
    }

    /// "1.5 s" → "1.5s": a latency in the fewest cells.
    nonisolated private static func compactLatency(_ latency: String) -> String {
        latency.replacing(" ", with: "")
    }

    /// `part`, when there is one, after " · ".
    nonisolated private static func appendStatus(_ part: String?, to text: inout String) {
        guard let part else { return }
        if !text.isEmpty { text += " · " }
        text += part
    }

    /// The pieces of a title bar's status; nil where a piece does not apply.
    private func statusParts(for pane: PaneState) -> (code: String?, latency: String?, state: String?, uptime: String?, spinner: String?) {
        let resource = pane.probe.resource
        var code: String?
        var latency: String?
        if resource.latestError?.cause is LoginSession.LoginFailed {
            // The pane's own request was never sent: its last exchange's status says nothing now.
            code = "login failed"
        } else if let metrics = resource.latestMetrics {
            code = metrics.statusCode.map(String.init) ?? "no response"
            latency = Formatting.latency(metrics.latency)
        }
        var state: String?
        let health = pane.health
        let alerts = pane.spec.alerts
        // Data with no exchange behind it in this run came from the persistent cache.
        if resource.latestMetrics == nil, let data = resource.latestData, !resource.hasError {
            state = "cached " + Formatting.age(max(0, now - data.timestamp))
        } else if health == .failing {
            state = "error"
        } else if health == .blocked, let blockage = pane.probe.blockedBy {
            state = Self.blockedMark + " blocked by " + blockage.by
        } else if health == .degraded, pane.probe.verdict == .failing {
            state = "error \(pane.probe.alert.badInARow)/\(alerts.failAfter)"
        } else if pane.probe.unmetExpectation != nil {
            state = health == .degraded ? "⚠ unmet \(pane.probe.alert.badInARow)/\(alerts.failAfter)" : "⚠ unmet"
        } else if let entity = pane.probe.shownEntity {
            state = Formatting.age(max(0, now - entity.timestamp))
            if health == .degraded, pane.probe.alert.firing { state! += " · recovering \(pane.probe.alert.goodInARow)/\(alerts.recoverAfter)" }
        }
        // Every state has a symbol as well as a colour (NO_COLOR, a palette where yellow is
        // olive): a degraded pane's status starts with its mark.
        if health == .degraded, let shown = state {
            state = Self.degradedMark + " " + (shown.hasPrefix("⚠ ") ? String(shown.dropFirst(2)) : shown)
        }
        var spinner: String?
        if resource.isLoading { spinner = (code == nil && state == nil ? "loading " : "") + Spinner(tick: spinnerTick).symbol }
        if code == nil, state == nil, spinner == nil { state = isPaused ? "paused" : "waiting" }
        // From a few probes on: "up 100%" after one says nothing.
        var uptime: String?
        if let history = history(for: pane), history.probes.count >= Self.probesForUptime,
            let share = Formatting.uptime(ok: history.okCount, of: history.probes.count)
        {
            uptime = "up " + share
        }
        return (code, latency, state, uptime, spinner)
    }

    /// Where a zoomed pane's content starts at `size`: inside the border and its one-cell inset,
    /// under the header line (a table's header is its first row).
    static func zoomInner(at size: Size) -> Rect {
        Rect(x: 2, y: 2, width: max(0, size.columns - 4), height: max(0, size.rows - 4))
    }

    private func renderPane(_ pane: PaneState, selected: Bool, into area: Rect, buffer: inout Buffer, zoomed: Bool) {
        drawn.panes.append(pane.id)
        let health = pane.health
        var border = Style.plain
        if health == .failing { border = border.fg(.red) }
        if health == .blocked { border = border.fg(.magenta) }
        if health == .unmet || health == .degraded { border = border.fg(.yellow) }
        if selected { border = border.fg(health == .failing ? .red : health == .unmet || health == .degraded ? .yellow : health == .blocked ? .magenta : .cyan).bolded }
        var title = (selected && !zoomed ? "▸ " : "") + pane.title
        // `tls.insecure`: what the pane shows was fetched without checking who sent it.
        if pane.request.tlsInsecure { title += " · TLS unverified" }
        // The longest status that leaves the whole title; the status narrows to the pane's mark
        // before the title gives way.
        let room = area.width - 2 - (DisplayWidth.of(title) + 2) - 1
        let status = statusText(for: pane, fitting: room)
        let block = Block(
            title: title, rightTitle: status, borderStyle: border,
            titleStyle: selected ? Style().bolded.fg(.cyan) : Style().bolded,
            rightTitleStyle: health == .failing ? Style().fg(.red) : health == .unmet ? Style().fg(.yellow) : health == .blocked ? Style().fg(.magenta) : Style().dimmed)
        block.render(into: area, buffer: &buffer)
        var inner = block.inner(area).inset(horizontal: 1)
        guard !inner.isEmpty else { return }
        if let history = history(for: pane), history.probes.count >= 2 {
            if zoomed, inner.height >= 10 {
                let chart = Rect(x: inner.x, y: inner.bottom - 5, width: inner.width, height: 5)
                renderHistoryChart(history, into: chart, buffer: &buffer)
                inner.height -= 6
            } else if !zoomed, inner.height >= 3 {
                renderHistoryLine(
                    history, ofValues: pane.spec.show == .value, into: Rect(x: inner.x, y: inner.bottom - 1, width: inner.width, height: 1),
                    buffer: &buffer)
                inner.height -= 1
            }
        }
        // Why the pane is not plainly ok, at its foot: an unmet expectation, or what keeps it
        // degraded ("1 of 3 failed probes before it fails", "0.85 meets the warn threshold > 0.8").
        if let silence = pane.probe.silence {
            // Its alerts are held: a quiet window or a mute, until when.
            let until = silence.until.map { " until " + Formatting.clock($0, timeZone: timeZone, seconds: false) } ?? " until it recovers"
            footNote("◌ " + silence.reason + until + " · no alerts", style: Style().dimmed, lines: 1, in: &inner, buffer: &buffer)
        }
        if health == .blocked, let blockage = pane.probe.blockedBy {
            // On whom its failure waits, and since when that one is in trouble.
            let since = blockage.since.map { " · failing since " + Formatting.clock($0, timeZone: timeZone, seconds: false) } ?? ""
            footNote(Self.blockedMark + " blocked by " + blockage.by + since, style: Style().fg(.magenta), lines: 2, in: &inner, buffer: &buffer)
        } else if let unmet = pane.probe.unmetExpectation, !pane.probe.resource.hasError {
            footNote("⚠ " + unmet, style: Style().fg(.yellow), lines: 2, in: &inner, buffer: &buffer)
        } else if health == .degraded, let reason = pane.probe.degradedReason {
            footNote("◐ " + reason, style: Style().fg(.yellow), lines: 2, in: &inner, buffer: &buffer)
        }
        // A failing pane that still shows its older data (an overlay like [anyData, …]) says
        // so at the bottom: what failed and how old the data is.
        if pane.health == .failing, case .success = pane.overlayState, let data = pane.probe.resource.latestData, inner.height >= 2 {
            let age = max(0, now - data.timestamp)
            let status = pane.probe.errorIsExpected ? nil : pane.probe.resource.latestError?.httpStatusCode
            let line = "✗ " + (status.map { "\($0) · " } ?? "") + (pane.probe.failure ?? "failing") + " · data from " + (age < 1 ? "just now" : Formatting.age(age))
            buffer.setString(x: inner.x, y: inner.bottom - 1, DisplayWidth.truncate(line, to: inner.width), style: Style().fg(.red))
            inner.height -= 1
        }
        switch pane.overlayState {
        case .loading:
            let line = "\(Spinner(tick: spinnerTick).symbol) Loading…"
            Paragraph(line, style: Style().fg(.yellow), alignment: .center).render(into: inner.centered(width: inner.width, height: 1), buffer: &buffer)
        case .error(let error):
            renderError(error, pane: pane, into: inner, buffer: &buffer)
        case .success:
            if let content = content(of: pane) {
                content.render(into: inner, buffer: &buffer, scroll: zoomed ? scroll(of: pane) : 0, highlight: zoomed ? zoomSearch : "")
            } else if let waiting = pane.probe.waitingFor {
                // A chained pane whose source has no value for it yet: on what it waits.
                let height = min(inner.height, Paragraph(waiting).lines(width: inner.width).count)
                Paragraph(waiting, style: Style().dimmed, alignment: .center).render(into: inner.centered(width: inner.width, height: height), buffer: &buffer)
            } else {
                Paragraph(isPaused ? (spec.keyMap.primaryName(.reload).map { "paused: press \($0) to load" } ?? "paused") : "no data yet", style: Style().dimmed, alignment: .center)
                    .render(into: inner.centered(width: inner.width, height: 1), buffer: &buffer)
            }
        }
    }

    /// `text` wrapped to at most `lines` lines (the last ending in ` …` when cut) at the bottom of
    /// `inner`, which shrinks by what it took; nothing when the pane has no room beside it.
    private func footNote(_ text: String, style: Style, lines limit: Int, in inner: inout Rect, buffer: inout Buffer) {
        guard inner.height >= 2 else { return }
        var lines = Paragraph(text).lines(width: inner.width)
        let room = min(limit, inner.height - 1)
        if lines.count > room {
            lines = Array(lines.prefix(room))
            lines[room - 1] = DisplayWidth.truncate(lines[room - 1] + " …", to: inner.width)
        }
        for (offset, line) in lines.enumerated() {
            buffer.setString(x: inner.x, y: inner.bottom - lines.count + offset, line, style: style)
        }
        inner.height -= lines.count
    }

    /// "Unable to load data.", the message (wrapped to the room there is), "[t] Try again" and
    /// the age of the last good data, centred vertically.
    private func renderError(_ error: RequestError, pane: PaneState, into area: Rect, buffer: inout Buffer) {
        let message = pane.probe.displayedError ?? ""
        let detail = error.httpStatusCode.map { "\($0) · \(message)" } ?? message
        // How old the last thing it could show is: its data, or an answer its expectations asked
        // for (a 401 a check wants) before the server went away.
        let last = pane.probe.resource.latestData.map { ("last data ", $0.timestamp) } ?? pane.probe.lastAnswerTime.map { ("last answer ", $0) }
        let age = last.map { label, time -> String in
            let seconds = max(0, now - time)
            return label + (seconds < 1 ? "just now" : Formatting.age(seconds))
        } ?? "no data yet"
        var detailLines = Paragraph(detail).lines(width: area.width)
        let room = max(1, area.height - 2)
        if detailLines.count > room {
            detailLines = Array(detailLines.prefix(room))
            detailLines[room - 1] = DisplayWidth.truncate(detailLines[room - 1] + " …", to: area.width)
        }
        var lines: [(String, Style)] = [("Unable to load data.", Style().bolded)]
        lines += detailLines.map { ($0, Style().fg(.red)) }
        lines.append(("\(StatusOverlay.retryLabel(spec.keyMap))      \(age)", Style().dimmed))
        if lines.count > area.height { lines.remove(at: 0) }
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < area.bottom {
            buffer.setString(x: area.x, y: top + offset, DisplayWidth.truncate(line.0, to: area.width), style: line.1)
        }
    }
}
