/// A bordered box centred over what is already drawn, with its lines inside (help, messages).
///
/// Clears the cells it covers; sized to its content, clamped to the area. A line wider than the
/// area wraps, its continuation indented by `hangingIndent` (under the text of a "key  does"
/// line); lines that do not fit in height scroll, from `scroll`, and the border says there is more.
public struct Modal: Widget {
    public var title: String
    public var lines: [String]
    public var style: Style
    /// Columns a wrapped line's continuation is indented by.
    public var hangingIndent: Int
    /// The first line shown (clamped to what there is).
    public var scroll: Int

    public init(title: String, lines: [String], style: Style = .plain, hangingIndent: Int = 0, scroll: Int = 0) {
        self.title = title
        self.lines = lines
        self.style = style
        self.hangingIndent = hangingIndent
        self.scroll = scroll
    }

    /// The box's rectangle within `area`.
    public func frame(in area: Rect) -> Rect {
        let shown = wrappedLines(in: area)
        let contentWidth = max(DisplayWidth.of(title) + 2, shown.map { DisplayWidth.of($0) }.max() ?? 0)
        return area.centered(width: contentWidth + 4, height: shown.count + 2)
    }

    /// The lines as the box shows them in `area`: sanitised, and wrapped to its width.
    public func wrappedLines(in area: Rect) -> [String] {
        let width = max(1, area.width - 4)
        var result: [String] = []
        for line in lines {
            let clean = Sanitizer.line(line)
            if DisplayWidth.of(clean) <= width {
                result.append(clean)
                continue
            }
            // A line's own leading spaces (a sub-entry's indent) stay on its first row.
            let lead = clean.prefix { $0 == " " }.count
            let indent = hangingIndent < width / 2 ? max(hangingIndent, lead) : 0
            let first = Paragraph.wrap(String(clean.dropFirst(lead)), width: max(1, width - lead))
            result.append(String(repeating: " ", count: lead) + first[0])
            let rest = first.dropFirst().joined(separator: " ")
            if !rest.isEmpty {
                result += Paragraph.wrap(rest, width: max(1, width - indent)).map { String(repeating: " ", count: indent) + $0 }
            }
        }
        return result
    }

    /// The furthest `scroll` can go in `area`: 0 when every line fits.
    public func maxScroll(in area: Rect) -> Int {
        max(0, wrappedLines(in: area).count - max(0, area.height - 2))
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        let shown = wrappedLines(in: area)
        let box = frame(in: area)
        guard box.width >= 4, box.height >= 2 else { return }
        buffer.fill(box, with: Cell(" ", style: style))
        let visible = max(0, box.height - 2)
        let first = max(0, min(scroll, shown.count - visible))
        var more: [String] = []
        if first > 0 { more.append("↑") }
        if first + visible < shown.count { more.append("↓") }
        let block = Block(
            title: title, rightTitle: more.isEmpty ? "" : more.joined() + " j/k", borderStyle: style, titleStyle: style.bolded,
            rightTitleStyle: style.dimmed)
        block.render(into: box, buffer: &buffer)
        let inner = block.inner(box).inset(horizontal: 1)
        for (row, line) in shown.dropFirst(first).prefix(inner.height).enumerated() {
            buffer.setString(x: inner.x, y: inner.y + row, DisplayWidth.truncate(line, to: inner.width), style: style)
        }
    }
}
