/// A bordered box with a title on the left of the top border and optional text on the right.
///
/// `┌ Health ───── 200 · 41 ms ┐`. Titles are truncated with `…` to fit; `inner(_:)` is the area
/// inside the border for the content.
public struct Block: Widget {
    public var title: String
    public var rightTitle: String
    public var borderStyle: Style
    public var titleStyle: Style
    public var rightTitleStyle: Style

    public init(
        title: String = "", rightTitle: String = "", borderStyle: Style = .plain, titleStyle: Style = Style().bolded,
        rightTitleStyle: Style = .plain
    ) {
        self.title = title
        self.rightTitle = rightTitle
        self.borderStyle = borderStyle
        self.titleStyle = titleStyle
        self.rightTitleStyle = rightTitleStyle
    }

    /// The content area inside the border.
    public func inner(_ area: Rect) -> Rect {
        area.inset(horizontal: 1, vertical: 1)
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        guard area.width >= 2, area.height >= 1 else { return }
        let top = area.y, bottom = area.bottom - 1, left = area.x, right = area.right - 1
        for x in left...right {
            buffer[x, top] = Cell("─", style: borderStyle)
            if area.height > 1 { buffer[x, bottom] = Cell("─", style: borderStyle) }
        }
        if area.height > 2 {
            for y in (top + 1)..<bottom {
                buffer[left, y] = Cell("│", style: borderStyle)
                buffer[right, y] = Cell("│", style: borderStyle)
            }
        }
        buffer[left, top] = Cell("┌", style: borderStyle)
        buffer[right, top] = Cell("┐", style: borderStyle)
        if area.height > 1 {
            buffer[left, bottom] = Cell("└", style: borderStyle)
            buffer[right, bottom] = Cell("┘", style: borderStyle)
        }
        // Titles sit between the corners, each padded by a space, the right one taking at most
        // half the room and at least one border cell left between them.
        let room = area.width - 2
        guard room >= 3 else { return }
        var rightText = ""
        if !rightTitle.isEmpty, room / 2 >= 3 {
            rightText = " " + DisplayWidth.truncate(rightTitle, to: room / 2 - 2) + " "
        }
        let leftRoom = room - DisplayWidth.of(rightText) - (rightText.isEmpty ? 0 : 1)
        var leftText = ""
        if !title.isEmpty, leftRoom >= 3 {
            leftText = " " + DisplayWidth.truncate(title, to: leftRoom - 2) + " "
        }
        if !leftText.isEmpty { buffer.setString(x: left + 1, y: top, leftText, style: titleStyle) }
        if !rightText.isEmpty {
            buffer.setString(x: right - DisplayWidth.of(rightText), y: top, rightText, style: rightTitleStyle)
        }
    }
}
