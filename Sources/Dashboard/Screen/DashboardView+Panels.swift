import DashboardConfig
import FoundationEssentials
import Monitor
import Redaction
import ResourceEngine
import TerminalUI
import TextBasics

/// The history line and chart, the curl command and the event log.
extension DashboardView {
    // MARK: History

    /// "▁▂▁▃▂ ▁  p50 41 ms  p95 120 ms": recent latencies (gaps for failures) and percentiles.
    func renderHistoryLine(_ history: ProbeHistory, ofValues: Bool = false, into area: Rect, buffer: inout Buffer) {
        // A value pane's own number over its kept probes, as sampler shows it, once it has two.
        if ofValues, history.valueCount >= 2 {
            let values = history.probes.compactMap(\.value)
            if values.count >= 2, let low = values.min(), let high = values.max() {
                let label = "\(Self.plainNumber(low))–\(Self.plainNumber(high))  now \(Self.plainNumber(values[values.count - 1]))"
                let labelWidth = DisplayWidth.of(label)
                let sparkWidth = max(0, min(values.count, area.width - labelWidth - 2))
                if sparkWidth > 0 {
                    // From the lowest to the highest kept value, so a change of 23.14 to 23.51 shows.
                    Sparkline(values.suffix(sparkWidth).map { $0 - low }, style: Style().fg(.cyan), maximum: high - low)
                        .render(into: Rect(x: area.x, y: area.y, width: sparkWidth, height: 1), buffer: &buffer)
                }
                let x = sparkWidth > 0 ? area.x + sparkWidth + 2 : area.x
                buffer.setString(x: x, y: area.y, DisplayWidth.truncate(label, to: area.right - x), style: Style().dimmed)
                return
            }
        }
        var label = ""
        if let p50 = history.percentile(50), let p95 = history.percentile(95) {
            label = "p50 \(Formatting.latency(p50))  p95 \(Formatting.latency(p95))"
        } else {
            label = "no answered probe"
        }
        let labelWidth = DisplayWidth.of(label)
        let sparkWidth = max(0, min(history.probes.count, area.width - labelWidth - 2))
        if sparkWidth > 0 {
            Sparkline(history.sparklineValues, style: Style().fg(.green)).render(into: Rect(x: area.x, y: area.y, width: sparkWidth, height: 1), buffer: &buffer)
        }
        let x = sparkWidth > 0 ? area.x + sparkWidth + 2 : area.x
        buffer.setString(x: x, y: area.y, DisplayWidth.truncate(label, to: area.right - x), style: Style().dimmed)
    }

    /// 18, 23.51, 1.2e+06: a number as short as it reads.
    static func plainNumber(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(printf: "%g", value)
    }

    /// Zoom: a three-row latency chart, one status mark per probe, and a summary line.
    func renderHistoryChart(_ history: ProbeHistory, into area: Rect, buffer: inout Buffer) {
        let probes = history.probes.suffix(area.width)
        let top = probes.filter(\.ok).map(\.latency).max() ?? 0
        let levels = Sparkline.bars.count
        for (column, probe) in probes.enumerated() {
            let x = area.x + column
            if probe.ok, top > 0 {
                // Height in eighths of a cell over three rows.
                let eighths = max(1, Int((probe.latency / top * Double(3 * levels)).rounded()))
                for row in 0..<3 {
                    let filled = min(levels, max(0, eighths - row * levels))
                    if filled > 0 { buffer[x, area.y + 2 - row] = Cell(Sparkline.bars[filled - 1], style: Style().fg(.green)) }
                }
            }
            let (mark, style): (String, Style) = probe.ok ? ("•", Style().fg(.green)) : ("✗", Style().fg(.red).bolded)
            buffer[x, area.y + 3] = Cell(mark, style: style)
        }
        var summary = "last \(history.probes.count) probes · \(history.okCount) ok"
        if let p50 = history.percentile(50), let p95 = history.percentile(95) {
            summary += " · p50 \(Formatting.latency(p50)) · p95 \(Formatting.latency(p95))"
            if let max = history.probes.filter(\.ok).map(\.latency).max() { summary += " · max \(Formatting.latency(max))" }
        }
        buffer.setString(x: area.x, y: area.y + 4, DisplayWidth.truncate(summary, to: area.width), style: Style().dimmed)
    }

    // MARK: curl

    /// The curl command on a plain area, no borders at its sides, so it can be selected and copied.
    func renderCurl(into area: Rect, buffer: inout Buffer) {
        buffer.fill(area)
        buffer.setString(x: area.x, y: area.y, DisplayWidth.truncate(" curl: copied to the clipboard where the terminal allows it (OSC 52); or select it below", to: area.width), style: Style().bolded)
        var row = area.y + 2
        for line in curlCommand.split(separator: "\n", omittingEmptySubsequences: false) {
            for piece in Paragraph.wrap(String(line), width: max(1, area.width)) where row < area.bottom {
                buffer.setString(x: area.x, y: row, piece, style: line.hasPrefix("#") ? Style().dimmed : .plain)
                row += 1
            }
        }
    }

    // MARK: Events

    /// The event log's entries after the pane and text filters (and without `Requested` lines
    /// unless asked), oldest first.
    var shownEventRows: [EventRow] {
        let pane = eventsOfSelectedPaneOnly ? selectedPane?.spec.title : nil
        let needle = eventFilter.lowercased()
        return eventLog.entries.compactMap { entry -> EventRow? in
            if let pane, !entry.panes.contains(pane) { return nil }
            if !eventsShowRequests, entry.event == "Requested" { return nil }
            let row = EventRow(entry, timeZone: timeZone)
            return row.matches(needle) ? row : nil
        }
    }

    /// The shown rows as lines of text (for tests and the headless run).
    var shownEvents: [String] { shownEventRows.map { $0.cells.joined(separator: "  ") } }

    func renderEvents(into area: Rect, buffer: inout Buffer) {
        let box = area.inset(horizontal: 2, vertical: 1)
        let room = max(1, box.height - 3)
        let all = shownEventRows
        let end = max(0, all.count - eventScroll)
        let rows = Array(all[max(0, end - room)..<end])
        var title = "Events (latest last)"
        if eventsOfSelectedPaneOnly, let pane = selectedPane { title += " · \(pane.title) only" }
        if !eventFilter.isEmpty || typingEventFilter { title += " · /\(eventFilter)" + (typingEventFilter ? "▏" : "") }
        if !eventsShowRequests { title += " · requests hidden" }
        if eventScroll > 0 { title += " · \(eventScroll) newer below" }
        buffer.fill(box)
        let block = Block(title: title, rightTitle: "\(all.count) of \(eventLog.entries.count)")
        block.render(into: box, buffer: &buffer)
        let inner = block.inner(box).inset(horizontal: 1)
        guard !rows.isEmpty else {
            let empty = eventLog.entries.isEmpty ? "no events yet" : "no event matches"
            buffer.setString(x: inner.x, y: inner.y, DisplayWidth.truncate(empty, to: inner.width))
            return
        }
        // Columns sized to the whole log, not the rows in view, so they stay put while scrolling.
        let widths = Table.naturalWidths(header: EventRow.header, rows: all.map(\.cells))
        // The event's own name only where the words keep room to be read beside it (it says less).
        let wordsRoom = inner.width - widths[0] - widths[1] - widths[3] - 6
        let columns = wordsRoom >= EventRow.wordsWidth ? 4 : 3
        let header = Array(EventRow.header.prefix(columns))
        var table = Table(
            header: header, rows: rows.map { Array($0.cells.prefix(columns)) }, headerStyle: Style().bolded.dimmed,
            naturalWidths: Array(widths.prefix(columns)))
        // The words take what is left.
        table.widthRules = Array([.natural, .natural, .fill, .natural].prefix(columns))
        table.cellStyles = rows.map { row in Array([Style().dimmed, nil, row.isError ? Style().fg(.red) : nil, Style().dimmed].prefix(columns)) }
        table.render(into: inner, buffer: &buffer)
    }
}
