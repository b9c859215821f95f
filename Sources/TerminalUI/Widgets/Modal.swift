/// A bordered box centred over what is already drawn, with its lines inside (help, messages).
///
/// Clears the cells it covers; sized to its content, clamped to the area.
public struct Modal: Widget {
    public var title: String
    public var lines: [String]
    public var style: Style

    public init(title: String, lines: [String], style: Style = .plain) {
        self.title = title
        self.lines = lines
        self.style = style
    }

    /// The box's rectangle within `area`.
    public func frame(in area: Rect) -> Rect {
        let contentWidth = max(DisplayWidth.of(title) + 2, lines.map { DisplayWidth.of(Sanitizer.line($0)) }.max() ?? 0)
        return area.centered(width: contentWidth + 4, height: lines.count + 2)
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        let box = frame(in: area)
        guard box.width >= 4, box.height >= 2 else { return }
        buffer.fill(box, with: Cell(" ", style: style))
        let block = Block(title: title, borderStyle: style, titleStyle: style.bolded)
        block.render(into: box, buffer: &buffer)
        let inner = block.inner(box).inset(horizontal: 1)
        for (row, line) in lines.prefix(inner.height).enumerated() {
            buffer.setString(x: inner.x, y: inner.y + row, DisplayWidth.truncate(Sanitizer.line(line), to: inner.width), style: style)
        }
    }
}
