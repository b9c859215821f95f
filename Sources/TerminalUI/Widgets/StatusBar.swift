/// A one-line bar with text on the left and on the right, filling its width with `style`.
///
/// When both do not fit, the right text goes first, then the left is truncated with `…`.
public struct StatusBar: Widget {
    public var left: String
    public var right: String
    public var style: Style

    public init(left: String, right: String = "", style: Style = Style().reversed) {
        self.left = left
        self.right = right
        self.style = style
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.fill(Rect(x: area.x, y: area.y, width: area.width, height: 1), with: Cell(" ", style: style))
        let rightWidth = DisplayWidth.of(right)
        let leftWidth = DisplayWidth.of(left)
        let showRight = !right.isEmpty && leftWidth + 1 + rightWidth <= area.width
        let leftRoom = showRight ? area.width - rightWidth - 1 : area.width
        buffer.setString(x: area.x, y: area.y, DisplayWidth.truncate(left, to: leftRoom), style: style)
        if showRight { buffer.setString(x: area.right - rightWidth, y: area.y, right, style: style) }
    }
}
