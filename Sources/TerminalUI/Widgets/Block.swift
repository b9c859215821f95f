/// A bordered box with a title on the left of the top border and optional text on the right.
///
/// `┌ Health ───── 200 · 41 ms ┐`. Titles are truncated with `…` to fit, the left one first;
/// `inner(_:)` is the area inside the border for the content.
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
        buffer.fill(Rect(x: left, y: top, width: area.width, height: 1), symbol: "─", style: borderStyle)
        if area.height > 1 { buffer.fill(Rect(x: left, y: bottom, width: area.width, height: 1), symbol: "─", style: borderStyle) }
        if area.height > 2 {
            buffer.fill(Rect(x: left, y: top + 1, width: 1, height: area.height - 2), symbol: "│", style: borderStyle)
            buffer.fill(Rect(x: right, y: top + 1, width: 1, height: area.height - 2), symbol: "│", style: borderStyle)
        }
        buffer.setSymbol(x: left, y: top, "┌", style: borderStyle)
        buffer.setSymbol(x: right, y: top, "┐", style: borderStyle)
        if area.height > 1 {
            buffer.setSymbol(x: left, y: bottom, "└", style: borderStyle)
            buffer.setSymbol(x: right, y: bottom, "┘", style: borderStyle)
        }
        // Titles sit between the corners, each padded by a space, with at least one border cell
        // between them. When both do not fit, the right title (a state: "503 · error", "2s ago")
        // wins: the left gives way down to a few cells (" H… "), and only then is the right cut.
        let room = area.width - 2
        guard room >= 3 else { return }
        // Each title's width is measured once, and a title that fits is written as it is, with no
        // padded copy: every pane's border is drawn on every frame.
        let titleWidth = title.isEmpty ? 0 : DisplayWidth.of(title)
        let rightWidth = rightTitle.isEmpty ? 0 : DisplayWidth.of(rightTitle)
        let leftNeed = title.isEmpty ? 0 : titleWidth + 2
        let rightNeed = rightTitle.isEmpty ? 0 : rightWidth + 2
        var leftRoom = leftNeed
        var rightRoom = rightNeed
        if leftNeed + rightNeed + (rightNeed > 0 ? 1 : 0) > room {
            let leftKeeps = min(leftNeed, 4)
            rightRoom = min(rightNeed, room - leftKeeps - (leftKeeps > 0 ? 1 : 0))
            leftRoom = room - rightRoom - 1
        }
        let showsRight = rightNeed > 0 && rightRoom >= 3
        if !showsRight { leftRoom = min(leftNeed, room) }
        if leftNeed > 0, leftRoom >= 3 {
            let shown = titleWidth <= leftRoom - 2 ? title : DisplayWidth.truncate(title, to: leftRoom - 2)
            Self.pad(shown, at: left + 1, y: top, style: titleStyle, buffer: &buffer)
        }
        if showsRight {
            let fits = rightWidth <= rightRoom - 2
            let shown = fits ? rightTitle : DisplayWidth.truncate(rightTitle, to: rightRoom - 2)
            let width = fits ? rightWidth : DisplayWidth.of(shown)
            Self.pad(shown, at: right - width - 2, y: top, style: rightTitleStyle, buffer: &buffer)
        }
    }

    /// `text` between two spaces from `x`.
    private static func pad(_ text: String, at x: Int, y: Int, style: Style, buffer: inout Buffer) {
        buffer.setSymbol(x: x, y: y, " ", style: style)
        let end = buffer.setString(x: x + 1, y: y, text, style: style)
        buffer.setSymbol(x: end, y: y, " ", style: style)
    }
}
