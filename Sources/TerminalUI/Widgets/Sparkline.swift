/// A row of bars `▁▂▃▄▅▆▇█` scaled to the largest value, newest on the right.
///
/// Missing samples (nil, e.g. failed probes) draw as a space in `gapStyle`'s colour.
public struct Sparkline: Widget {
    public static let bars: [String] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public var values: [Double?]
    public var style: Style
    public var maximum: Double?

    public init(_ values: [Double?], style: Style = .plain, maximum: Double? = nil) {
        self.values = values
        self.style = style
        self.maximum = maximum
    }

    /// The bars as text for `width` columns (the most recent samples).
    public func text(width: Int) -> String {
        var text = String.UnicodeScalarView()
        forEachBar(width: width) { text.append($0) }
        return String(text)
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        var x = area.x
        forEachBar(width: area.width) { bar in
            buffer.setSymbol(x: x, y: area.y, bar, style: style)
            x += 1
        }
    }

    private static let barScalars = bars.map { $0.unicodeScalars.first! }

    /// Each bar of the most recent `width` samples, oldest first (a space for a missing sample).
    private func forEachBar(width: Int, _ body: (Unicode.Scalar) -> Void) {
        let shown = values.suffix(max(0, width))
        let top = maximum ?? shown.compactMap { $0 }.max() ?? 0
        let levels = Sparkline.barScalars
        for value in shown {
            guard let value else {
                body(" ")
                continue
            }
            guard top > 0, value > 0 else {
                body(levels[0])
                continue
            }
            let level = Int((min(value, top) / top * Double(levels.count - 1)).rounded())
            body(levels[max(0, min(levels.count - 1, level))])
        }
    }
}
