/// Rows under a header, columns sized to their content and truncated with `…` when space runs out.
///
/// Columns get their natural width (widest of header and cells) while they fit; when they do not,
/// the last columns (the least important, as a config lists them) are left out until the rest can
/// each keep `readableWidth` cells (or their header, or all they hold), then the widest columns give
/// way, down to a minimum of 3 columns each. A column may instead
/// be of a fixed width, or fill what the others leave (it gives way last). Columns are separated
/// by two spaces. `scroll` skips rows below the header.
public struct Table: Widget {
    /// How wide a column is.
    public enum ColumnWidth: Sendable, Equatable {
        case natural
        case fixed(Int)
        case fill
        /// A share of the table's width, in percent.
        case share(Int)
    }

    public var header: [String]
    public var rows: [[String]]
    /// Per column (missing ones: natural).
    public var widthRules: [ColumnWidth] = []
    /// A style per cell, over `style` (rows as in `rows`; missing ones: `style`).
    public var cellStyles: [[Style?]] = []
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

    /// The width below which a column is left out rather than cut further, while others are shown.
    public static let readableWidth = 12

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
        let rules = (0..<count).map { $0 < widthRules.count ? widthRules[$0] : .natural }
        // Leave out columns from the right while the others cannot all be readable (whole, or at
        // least their header and `readableWidth` cells wide): a few whole columns read better than
        // every column cut to a stub.
        var shown = count
        func need(_ column: Int) -> Int {
            switch rules[column] {
            case .fixed(let fixed): max(1, fixed)
            default: min(widths[column], max(Self.readableWidth, DisplayWidth.of(Sanitizer.line(header[column]))))
            }
        }
        while shown > 1, (0..<shown).map(need).reduce(0, +) + 2 * (shown - 1) > width { shown -= 1 }
        if shown < count {
            var kept = Table(header: Array(header.prefix(shown)), rows: rows, headerStyle: headerStyle, style: style, naturalWidths: Array(widths.prefix(shown)))
            kept.widthRules = Array(rules.prefix(shown))
            return kept.columnWidths(for: width) + Array(repeating: 0, count: count - shown)
        }
        let available = width - 2 * (count - 1)
        for (column, rule) in rules.enumerated() {
            switch rule {
            case .fixed(let fixed): widths[column] = max(1, fixed)
            case .share(let percent): widths[column] = max(1, available * min(100, max(0, percent)) / 100)
            // A fill column starts at its header and takes what the others leave.
            case .fill: widths[column] = min(widths[column], max(3, DisplayWidth.of(Sanitizer.line(header[column]))))
            case .natural: break
            }
        }
        // Natural columns give way first, widest first; fill columns only after them.
        for giving in [{ (rule: ColumnWidth) in rule == .natural }, { (rule: ColumnWidth) in rule == .fill }] {
            while widths.reduce(0, +) > available {
                let candidates = widths.indices.filter { giving(rules[$0]) && widths[$0] > 3 }
                guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
            }
        }
        // What is left goes to the fill columns, shared out evenly.
        let fills = rules.indices.filter { rules[$0] == .fill }
        let spare = available - widths.reduce(0, +)
        if spare > 0, !fills.isEmpty {
            for (position, column) in fills.enumerated() {
                widths[column] += spare / fills.count + (position < spare % fills.count ? 1 : 0)
            }
        }
        return widths
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let widths = columnWidths(for: area.width)
        func draw(_ cells: [String], y: Int, style: Style, styles: [Style?]) {
            var x = area.x
            for (column, width) in widths.enumerated() where x < area.right && width > 0 {
                let text = column < cells.count ? cells[column] : ""
                let cellStyle = (column < styles.count ? styles[column] : nil) ?? style
                buffer.setString(x: x, y: y, DisplayWidth.truncate(Sanitizer.line(text), to: width), style: cellStyle, maxWidth: min(width, area.right - x))
                x += width + 2
            }
        }
        draw(header, y: area.y, style: headerStyle, styles: [])
        let first = max(0, scroll)
        for (i, row) in rows.dropFirst(first).prefix(max(0, area.height - 1)).enumerated() {
            let index = first + i
            draw(row, y: area.y + 1 + i, style: style, styles: index < cellStyles.count ? cellStyles[index] : [])
        }
    }
}
