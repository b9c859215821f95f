import DashboardConfig
import FoundationEssentials
import Monitor
import ResourceEngine
import TerminalUI

/// What a pane shows of its data, for each `show` mode, as widgets and lines.
///
/// Built from the content value and the pane's spec (its `PaneContentShape`); `select` is applied
/// here, at display time, so panes sharing a resource can show different parts of it. A pane keeps
/// one until its resource has new data, and everything derived from the whole value
/// (pretty-printed lines, table cells and column widths, wrapped line counts) is computed once, so
/// a frame only draws the screenful it shows — however large the body.
@MainActor
final class PaneContent {
    /// The content with the pane's `select` and `show` applied, and what the probe made of it.
    let check: ContentCheck
    var shape: PaneContentShape { check.shape }
    var content: any Sendable { check.content }
    /// The value after `select`, or a message saying why select did not fit.
    var selected: Result<JSON, ContentCheck.SelectionError> { check.selected }
    let display: ValueDisplay

    init(check: ContentCheck, display: ValueDisplay = ValueDisplay()) {
        self.check = check
        self.display = display
    }

    /// The content of `shape` over `content` (already redacted), checked here.
    convenience init(shape: PaneContentShape, content: any Sendable, display: ValueDisplay = ValueDisplay()) {
        self.init(check: ContentCheck(shape: shape, content: content), display: display)
    }

    // Derived once, on first use, and bounded (see `Limits`).
    private var cachedPairs: [(key: String, value: String)]?
    private var cachedFieldStyles: [Style?] = []
    private var cachedCellStyles: [[Style?]] = []
    private var cachedKeyWidth = 0
    private var cachedTable: (header: [String], rows: [[String]], naturalWidths: [Int])?
    private var cachedLines: [String]?
    private var cachedInline: String?
    private var cachedSummary: String?
    private var cachedValueStyle: Style?
    /// The zoom's row order for a table; a change re-sorts.
    var tableSort: TableSort? {
        didSet { if tableSort != oldValue { cachedTable = nil } }
    }
    /// Per width: wrapped rows before each source line (prefix sums), so a frame wraps only the
    /// lines it shows.
    private var wrappedStarts: [Int: [Int]] = [:]
    /// What the formatted texts above were made for: raw or not, and until when they read true
    /// (an age, `5m ago`, changes with the clock).
    private var formattedFor: (raw: Bool, validUntil: TimeInterval)?

    /// When the texts shown stop being true by themselves (an age ticking over), or nil.
    var formattedValidUntil: TimeInterval? {
        formattedFor.flatMap { $0.validUntil.isFinite ? $0.validUntil : nil }
    }

    /// Drops formatted texts made for another mode or gone stale.
    private func refreshFormatting() {
        let now = display.now()
        if let formattedFor, formattedFor.raw == display.raw, now < formattedFor.validUntil { return }
        cachedPairs = nil
        cachedTable = nil
        cachedInline = nil
        cachedSummary = nil
        cachedValueStyle = nil
        formattedFor = (display.raw, .infinity)
    }

    /// `value` as the field, column or pane says to show it (raw while `v` is on).
    private func formatted(_ value: JSON, _ format: ValueFormat?, decimals: Int? = nil) -> String {
        guard let format, !display.raw else { return PaneContent.inline(value) }
        let now = display.now()
        if let until = ValueFormatter.untilChange(value, format, now: now), let formattedFor {
            self.formattedFor = (formattedFor.raw, min(formattedFor.validUntil, now + until))
        }
        return ValueFormatter.text(value, format, decimals: decimals, now: now, timeZone: display.timeZone) ?? PaneContent.inline(value)
    }

    /// The colour a field or column gives this value (matched on the value as received).
    private static func style(of value: JSON, in field: DisplayField) -> Style? {
        guard !field.colors.isEmpty else { return nil }
        let key: String
        switch value {
        case .string(let s): key = s
        default: key = inline(value)
        }
        return field.colors[key].map { Style().fg(color($0)) }
    }

    static func color(_ color: DisplayColor) -> Color {
        switch color {
        case .red: .red
        case .green: .green
        case .yellow: .yellow
        case .blue: .blue
        case .magenta: .magenta
        case .cyan: .cyan
        case .white: .white
        case .gray: .brightBlack
        }
    }

    /// What a pane keeps for display (see `PaneContentLimits`).
    typealias Limits = PaneContentLimits

    /// Why the value cannot be shown as the pane says, or nil (see `ContentCheck.problem`).
    var problem: String? { check.problem }

    /// A warn threshold the value meets, or nil (see `ContentCheck.warning`).
    var warning: String? { check.warning }

    /// Content as JSON when it is JSON, or text or bytes that parse as JSON; else nil.
    nonisolated static func jsonIfParsed(_ content: any Sendable) -> JSON? {
        switch content {
        case let json as JSON: json
        case let data as Data: try? JSONParser.parse(data)
        case let text as String: try? JSONParser.parse(text)
        default: nil
        }
    }

    /// One-line text for a value (see `ContentCheck.inline`).
    static func inline(_ value: JSON) -> String { ContentCheck.inline(value) }

    /// Lines of plain text for the value (text and json modes): at most `Limits.lines`, each at
    /// most `Limits.lineLength` characters, with a last line saying what was left out.
    static func textLines(_ value: JSON, pretty: Bool) -> [String] {
        var lines: [String]
        if case .string(let s) = value {
            lines = Sanitizer.lines(s)
        } else {
            lines = pretty ? value.prettyPrinted().components(separatedBy: "\n") : [inline(value)]
        }
        let total = lines.count
        if total > Limits.lines {
            lines.removeLast(total - Limits.lines)
            lines.append("… \(total - Limits.lines) more lines")
        }
        for index in lines.indices where lines[index].utf8.count > Limits.lineLength {
            lines[index] = lines[index].bounded(to: Limits.lineLength)
        }
        return lines
    }

    /// Renders into `area`, scrolled by `scroll` lines.
    func render(into area: Rect, buffer: inout Buffer, scroll: Int, highlight: String = "") {
        guard !area.isEmpty else { return }
        refreshFormatting()
        let value: JSON
        switch selected {
        case .success(let v): value = v
        case .failure(let error):
            Paragraph(error.message, style: Style().fg(.red)).render(into: area, buffer: &buffer)
            return
        }
        let scroll = max(0, scroll)
        switch shape.show {
        case .fields:
            if let problem {
                Paragraph(problem, style: Style().fg(.red)).render(into: area, buffer: &buffer)
                return
            }
            let pairs = fieldPairs(value)
            let start = min(scroll, max(0, pairs.count - 1))
            var list = KeyValueList(Array(pairs[start..<min(pairs.count, start + area.height)]), naturalKeyWidth: cachedKeyWidth)
            list.valueStyles = Array(cachedFieldStyles.dropFirst(start))
            if !highlight.isEmpty {
                for (offset, pair) in list.pairs.enumerated() where PaneContent.matches(PaneContent.searchText(pair), highlight) {
                    while list.valueStyles.count <= offset { list.valueStyles.append(nil) }
                    list.valueStyles[offset] = Style().reversed
                }
            }
            list.render(into: area, buffer: &buffer)
        case .table:
            let table = tableRows(value)
            if value.arrayValue?.isEmpty == true {
                let labels = shape.columns?.map(\.label)
                let header = labels.map { Table(header: $0, rows: [], naturalWidths: Table.naturalWidths(header: $0, rows: [])) }
                header?.render(into: area, buffer: &buffer)
                let line = Rect(x: area.x, y: area.y + (header == nil ? 0 : 1), width: area.width, height: 1).intersection(area)
                Paragraph("empty list: no rows", style: Style().dimmed).render(into: line, buffer: &buffer)
            } else if table.header.isEmpty || problem != nil {
                Paragraph(problem ?? "table: nothing to show", style: Style().fg(.red)).render(into: area, buffer: &buffer)
            } else {
                let start = min(scroll, table.rows.count)
                let end = min(table.rows.count, start + max(0, area.height - 1))
                var widget = Table(header: table.header, rows: Array(table.rows[start..<end]), naturalWidths: table.naturalWidths)
                widget.widthRules = (shape.columns ?? []).map(PaneContent.widthRule)
                var cellStyles = Array(cachedCellStyles[min(start, cachedCellStyles.count)..<min(end, cachedCellStyles.count)])
                if !highlight.isEmpty {
                    for (offset, row) in table.rows[start..<end].enumerated() where PaneContent.matches(PaneContent.searchText(row), highlight) {
                        while cellStyles.count <= offset { cellStyles.append([]) }
                        cellStyles[offset] = row.indices.map { _ in Style().reversed }
                    }
                }
                widget.cellStyles = cellStyles
                widget.render(into: area, buffer: &buffer)
            }
        case .text:
            Paragraph(wrappedRows(value, width: area.width, from: scroll, count: area.height).joined(separator: "\n"), wrap: false)
                .render(into: area, buffer: &buffer)
        case .json:
            let lines = sourceLines(value)
            let start = min(scroll, max(0, lines.count - 1))
            Paragraph(lines[start..<min(lines.count, start + area.height)].joined(separator: "\n"), wrap: false).render(into: area, buffer: &buffer)
        case .value:
            let row = Rect(x: area.x, y: area.y + max(0, (area.height - 1) / 2), width: area.width, height: 1)
            let text = inlineValue(value)
            Paragraph(text, style: cachedValueStyle ?? Style().bolded, wrap: false, alignment: .center).render(into: row, buffer: &buffer)
        }
    }

    /// What a collapsed pane shows after its status: the fields, or the value, on one line of at
    /// most `Limits.value` characters; built once.
    func summary() -> String {
        refreshFormatting()
        if let cachedSummary { return cachedSummary }
        guard case .success(let value) = selected else { return "" }
        let text = shape.show == .fields
            ? fieldPairs(value).prefix(20).map { "\($0.key) \($0.value)" }.joined(separator: "  ")
            : inlineValue(value)
        let summary = text.bounded(to: Limits.value)
        cachedSummary = summary
        return summary
    }

    /// The selected value on one line (the `value` view and collapsed panes).
    func inlineValue(_ value: JSON) -> String {
        if let cachedInline { return cachedInline }
        let text = formatted(value, shape.show == .value ? shape.format : nil, decimals: shape.decimals)
        cachedInline = text
        var style = Style().bolded
        switch shape.thresholds?.level(of: value) ?? .normal {
        case .normal: break
        case .warn: style = style.fg(.yellow)
        case .fail: style = style.fg(.red)
        }
        cachedValueStyle = style
        return text
    }

    /// Rows ordered by one column's values: numbers as numbers (text that reads as one too),
    /// other text without case, missing values last either way; ties keep the data's order.
    static func sorted(_ rows: [[JSON?]], by sort: TableSort) -> [[JSON?]] {
        func key(_ value: JSON?) -> (rank: Int, number: Double, text: String) {
            guard let value, value != .null else { return (2, 0, "") }
            if let number = ValueFormatter.number(value) { return (0, number, "") }
            return (1, 0, inline(value).lowercased())
        }
        let keyed = rows.enumerated().map { (offset: $0.offset, row: $0.element, key: key(sort.column < $0.element.count ? $0.element[sort.column] : nil)) }
        return keyed.sorted { a, b in
            if a.key.rank != b.key.rank { return a.key.rank < b.key.rank }
            let ordered: Bool?
            if a.key.rank == 0, a.key.number != b.key.number {
                ordered = a.key.number < b.key.number
            } else if a.key.rank == 1, a.key.text != b.key.text {
                ordered = a.key.text < b.key.text
            } else {
                ordered = nil
            }
            guard let ordered else { return a.offset < b.offset }
            return sort.descending ? !ordered : ordered
        }.map(\.row)
    }

    /// A table row or a field as search sees it (and highlights it).
    static func searchText(_ cells: [String]) -> String { cells.joined(separator: "  ") }
    static func searchText(_ pair: (key: String, value: String)) -> String { "\(pair.key)  \(pair.value)" }

    /// The one rule for a search match: the text contains the needle, case aside.
    static func matches(_ text: String, _ needle: String) -> Bool {
        !needle.isEmpty && text.lowercased().contains(needle.lowercased())
    }

    /// Which column's header is at `x` cells into a table drawn `width` cells wide, or nil
    /// (between columns, past the last, or no table).
    func tableColumn(atX x: Int, width: Int) -> Int? {
        guard shape.show == .table, case .success(let value) = selected else { return nil }
        let table = tableRows(value)
        var widget = Table(header: table.header, rows: [], naturalWidths: table.naturalWidths)
        widget.widthRules = (shape.columns ?? []).map(PaneContent.widthRule)
        var left = 0
        for (column, columnWidth) in widget.columnWidths(for: width).enumerated() where columnWidth > 0 {
            if x >= left, x < left + columnWidth { return column }
            left += columnWidth + 2
        }
        return nil
    }

    /// How many columns the table shows (0 when it shows no table).
    var tableColumnCount: Int {
        guard shape.show == .table, case .success(let value) = selected else { return 0 }
        return tableRows(value).header.count
    }

    /// The rows a zoomed pane scrolls through, as text, for search: table rows, field lines,
    /// source lines (json), wrapped rows (text).
    func searchRows(width: Int) -> [String] {
        refreshFormatting()
        guard case .success(let value) = selected else { return [] }
        switch shape.show {
        case .table: return tableRows(value).rows.map(PaneContent.searchText)
        case .fields: return fieldPairs(value).map(PaneContent.searchText)
        case .json: return sourceLines(value)
        case .text: return wrappedRows(value, width: max(1, width), from: 0, count: Int.max / 2)
        case .value: return [inlineValue(value)]
        }
    }

    static func widthRule(_ field: DisplayField) -> Table.ColumnWidth {
        switch field.width {
        case .natural: .natural
        case .fixed(let columns): .fixed(columns)
        case .fill: .fill
        case .share(let percent): .share(percent)
        }
    }

    /// `fields`: the listed paths, or every top-level member.
    func fieldPairs(_ value: JSON) -> [(key: String, value: String)] {
        if let cachedPairs { return cachedPairs }
        let pairs: [(key: String, value: String)]
        if let fields = shape.fields {
            var styles: [Style?] = []
            pairs = fields.map { field in
                let found = PathCache.path(field.path).flatMap { $0.lookup(value) }
                styles.append(found.flatMap { PaneContent.style(of: $0, in: field) })
                return (field.label, found.map { formatted($0, field.format, decimals: field.decimals) } ?? "—")
            }
            cachedFieldStyles = styles
        } else if let object = value.objectValue {
            pairs = object.members.prefix(Limits.lines).map { ($0.key.bounded(to: Limits.value), PaneContent.inline($0.value)) }
        } else {
            pairs = [("value", PaneContent.inline(value))]
        }
        cachedPairs = pairs
        cachedKeyWidth = KeyValueList.naturalKeyWidth(pairs)
        return pairs
    }

    /// `table`: the listed columns, or the keys of the first object, with each column's natural
    /// width over every row.
    func tableRows(_ value: JSON) -> (header: [String], rows: [[String]], naturalWidths: [Int]) {
        if let cachedTable { return cachedTable }
        guard let items = value.arrayValue else { return ([], [], []) }
        // A list of values (Prometheus's label values, a list of names): one column, named after
        // what was selected.
        let values = shape.columns == nil && items.first.map { $0.objectValue == nil } == true
        let fields = values
            ? [DisplayField(path: "", label: shape.select.map(DisplayField.defaultLabel(for:)) ?? "value")]
            : shape.columns ?? (items.first?.objectValue?.keys ?? []).map { DisplayField(path: $0.bounded(to: Limits.value), label: $0) }
        var header = fields.map { $0.label.bounded(to: Limits.value) }
        let paths = fields.map { PathCache.path($0.path) }
        let colored = fields.contains { !$0.colors.isEmpty }
        var found = items.prefix(Limits.lines).map { item in values ? [item] : paths.map { path in path.flatMap { $0.lookup(item) } } }
        if let sort = tableSort, sort.column < fields.count {
            found = PaneContent.sorted(found, by: sort)
            header[sort.column] += sort.descending ? " ▼" : " ▲"
        }
        var styles: [[Style?]] = []
        let rows = found.map { values in
            if colored { styles.append(zip(values, fields).map { value, field in value.flatMap { PaneContent.style(of: $0, in: field) } }) }
            return zip(values, fields).map { value, field in value.map { formatted($0, field.format, decimals: field.decimals) } ?? "—" }
        }
        cachedCellStyles = styles
        let table = (header, rows, Table.naturalWidths(header: header, rows: rows))
        cachedTable = table
        return table
    }

    /// The lines of the `text` and `json` views before wrapping.
    private func sourceLines(_ value: JSON) -> [String] {
        if let cachedLines { return cachedLines }
        let lines = PaneContent.textLines(value, pretty: true)
        cachedLines = lines
        return lines
    }

    /// Rows `first ..< first + count` of the `text` view wrapped at `width`: only the source
    /// lines those rows come from are wrapped.
    private func wrappedRows(_ value: JSON, width: Int, from first: Int, count: Int) -> [String] {
        guard width > 0, count > 0 else { return [] }
        let lines = sourceLines(value)
        let starts = wrappedStarts(lines, width: width)
        // The last source line starting at or before `first`.
        var low = 0, high = lines.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= first { low = middle } else { high = middle - 1 }
        }
        var rows: [String] = []
        var line = low
        var skip = first - (starts.indices.contains(low) ? starts[low] : 0)
        while line < lines.count, rows.count < count {
            let wrapped = Paragraph.wrap(lines[line], width: width)
            rows += wrapped.dropFirst(max(0, skip)).prefix(count - rows.count)
            skip = 0
            line += 1
        }
        return rows
    }

    /// Wrapped rows before each source line at `width`, plus the total at the end; once per width.
    private func wrappedStarts(_ lines: [String], width: Int) -> [Int] {
        if let cached = wrappedStarts[width] { return cached }
        var starts: [Int] = []
        starts.reserveCapacity(lines.count + 1)
        var total = 0
        for line in lines {
            starts.append(total)
            total += max(1, Paragraph.wrap(line, width: width).count)
        }
        starts.append(total)
        wrappedStarts[width] = starts
        return starts
    }

    /// How many lines the content takes at `width`, for scroll limits.
    func lineCount(width: Int) -> Int {
        refreshFormatting()
        guard case .success(let value) = selected else { return 1 }
        switch shape.show {
        case .fields: return fieldPairs(value).count
        case .table: return tableRows(value).rows.count + 1
        case .text:
            return wrappedStarts(sourceLines(value), width: max(1, width)).last ?? 0
        case .json: return sourceLines(value).count
        case .value: return 1
        }
    }
}
