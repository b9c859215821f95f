/// A one-cell activity indicator whose frame is chosen by a tick counter.
public struct Spinner: Widget {
    public static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    public var tick: Int
    public var style: Style

    public init(tick: Int, style: Style = .plain) {
        self.tick = tick
        self.style = style
    }

    /// The frame for this tick.
    public var symbol: String { Spinner.frames[((tick % Spinner.frames.count) + Spinner.frames.count) % Spinner.frames.count] }

    public func render(into area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.setString(x: area.x, y: area.y, symbol, style: style)
    }
}
