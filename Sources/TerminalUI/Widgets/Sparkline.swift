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
        text.append(contentsOf: bars(width: width))
        return String(text)
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.setSymbols(x: area.x, y: area.y, bars(width: area.width), style: style)
    }

    private static let barScalars = bars.map { $0.unicodeScalars.first! }

    /// The bars of the most recent `width` samples, oldest first (a space for a missing sample).
    private func bars(width: Int) -> some Sequence<Unicode.Scalar> {
        let shown = values.suffix(max(0, width))
        let top = maximum ?? shown.compactMap { $0 }.max() ?? 0
        let levels = Sparkline.barScalars
        return shown.lazy.map { value -> Unicode.Scalar in
            guard let value else { return " " }
            guard top > 0, value > 0 else { return levels[0] }
            let level = Int((min(value, top) / top * Double(levels.count - 1)).rounded())
            return levels[max(0, min(levels.count - 1, level))]
        }
    }
}
