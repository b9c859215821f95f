/// `key   value` lines with the keys in one aligned column.
public struct KeyValueList: Widget {
    public var pairs: [(key: String, value: String)]
    public var keyStyle: Style
    public var valueStyle: Style
    public var scroll: Int
    /// The key column's natural width, when the caller knows it from more pairs than it passes
    /// (a scrolled window of a long list); computed from `pairs` otherwise.
    public var naturalKeyWidth: Int?
    /// A style per pair's value, over `valueStyle` (as in `pairs`; missing ones: `valueStyle`).
    public var valueStyles: [Style?] = []

    public init(
        _ pairs: [(key: String, value: String)], keyStyle: Style = Style().dimmed, valueStyle: Style = .plain, scroll: Int = 0,
        naturalKeyWidth: Int? = nil
    ) {
        self.pairs = pairs
        self.keyStyle = keyStyle
        self.valueStyle = valueStyle
        self.scroll = scroll
        self.naturalKeyWidth = naturalKeyWidth
    }

    /// The widest key.
    public static func naturalKeyWidth(_ pairs: [(key: String, value: String)]) -> Int {
        pairs.map { DisplayWidth.of(Sanitizer.line($0.key)) }.max() ?? 0
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let keyWidth = min(naturalKeyWidth ?? KeyValueList.naturalKeyWidth(pairs), max(1, area.width / 2))
        let first = max(0, scroll)
        for (row, pair) in pairs.dropFirst(first).prefix(area.height).enumerated() {
            let y = area.y + row
            buffer.setString(x: area.x, y: y, DisplayWidth.truncate(Sanitizer.line(pair.key), to: keyWidth), style: keyStyle)
            let valueX = area.x + keyWidth + 2
            guard valueX < area.right else { continue }
            buffer.setString(x: valueX, y: y, DisplayWidth.truncate(Sanitizer.line(pair.value), to: area.right - valueX), style: (first + row < valueStyles.count ? valueStyles[first + row] : nil) ?? valueStyle)
        }
    }
}
