/// What the zoomed pane shows: its data, or one side of its last exchange.
public enum ZoomView: Int, CaseIterable, Sendable {
    case data = 1, response, request, timing, error, changes

    /// The footer's name for it, after its key (`2 response`).
    public var name: String {
        switch self {
        case .data: "data"
        case .response: "response"
        case .request: "request"
        case .timing: "timing"
        case .error: "error"
        case .changes: "changes"
        }
    }

    /// The next view (Tab) or the previous one (Shift-Tab), round the end.
    public func cycled(by step: Int) -> ZoomView {
        let count = ZoomView.allCases.count
        return ZoomView(rawValue: (rawValue - 1 + step + count) % count + 1) ?? .data
    }
}
