/// Rows under a header, columns sized to their content and truncated with `…` when space runs out.
///
/// Columns get their natural width (widest of header and cells) while they fit; when they do not,
/// the widest columns give way first, down to a minimum of 3 columns each. Columns are separated by
/// two spaces. `scroll` skips rows below the header.
public struct Table: Widget {
    public var header: [String]
    public var rows: [[String]]
    public var headerStyle: Style
    public var style: Style
    public var scroll: Int
    /// Each column's natural width, when the caller knows it from more rows than it passes
    /// (a scrolled window of a long table); computed from `rows` otherwise.
    public var naturalWidths: [Int]?

    public init(
        header: [String], rows: [[String]], headerStyle: Style = Style().bolded, style: Style = .plain, scroll: Int = 0,
        naturalWidths: [Int]? = nil
    ) {
        self.header = header
        self.rows = rows
        self.headerStyle = headerStyle
        self.style = style
        self.scroll = scroll
        self.naturalWidths = naturalWidths
    }

    /// The widest of the header and the cells, per column: what each column would like.
    public static func naturalWidths(header: [String], rows: [[String]]) -> [Int] {
        var widths = header.map { DisplayWidth.of(Sanitizer.line($0)) }
        for row in rows {
            for column in widths.indices where column < row.count {
                widths[column] = max(widths[column], DisplayWidth.of(Sanitizer.line(row[column])))
            }
        }
        return widths
    }

    /// The width of each column for an area `width` columns wide.
    public func columnWidths(for width: Int) -> [Int] {
        let count = header.count
        guard count > 0 else { return [] }
        var widths = naturalWidths.map { Array($0.prefix(count)) + Array(repeating: 0, count: max(0, count - $0.count)) }
            ?? Table.naturalWidths(header: header, rows: rows)
        let available = width - 2 * (count - 1)
        while widths.reduce(0, +) > available {
            guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 3 else { break }
            widths[widest] -= 1
        }
        return widths
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let widths = columnWidths(for: area.width)
        func draw(_ cells: [String], y: Int, style: Style) {
            var x = area.x
            for (column, width) in widths.enumerated() where x < area.right {
                let text = column < cells.count ? cells[column] : ""
                buffer.setString(x: x, y: y, DisplayWidth.truncate(Sanitizer.line(text), to: width), style: style, maxWidth: min(width, area.right - x))
                x += width + 2
            }
        }
        draw(header, y: area.y, style: headerStyle)
        for (i, row) in rows.dropFirst(max(0, scroll)).prefix(max(0, area.height - 1)).enumerated() {
            draw(row, y: area.y + 1 + i, style: style)
        }
    }
}
