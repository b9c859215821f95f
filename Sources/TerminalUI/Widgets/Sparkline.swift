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
        let shown = values.suffix(max(0, width))
        let top = maximum ?? shown.compactMap { $0 }.max() ?? 0
        return shown.map { value -> String in
            guard let value else { return " " }
            guard top > 0, value > 0 else { return Sparkline.bars[0] }
            let level = Int((min(value, top) / top * Double(Sparkline.bars.count - 1)).rounded())
            return Sparkline.bars[max(0, min(Sparkline.bars.count - 1, level))]
        }.joined()
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.setString(x: area.x, y: area.y, text(width: area.width), style: style)
    }
}
