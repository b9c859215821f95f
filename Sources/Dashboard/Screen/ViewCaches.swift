import Foundation

/// What the view memoises between frames, owned by the runtime: the pretty, redacted bodies the
/// zoom views showed last (a frame of a zoomed 8 MiB body must not pretty-print it again).
@MainActor
final class ViewCaches {
    struct PrettyBodyKey: Hashable {
        let pane: ObjectIdentifier
        let timestamp: TimeInterval
        let isError: Bool
    }

    /// By pane, answer time and kind (data or error); only the latest few.
    var prettyBodies: [PrettyBodyKey: [String]] = [:]
}

/// The panes a frame drew, in any view: what the view returns. Its storage is reused from frame
/// to frame.
@MainActor
final class DrawnPanes {
    var panes: [Pane] = []
}
