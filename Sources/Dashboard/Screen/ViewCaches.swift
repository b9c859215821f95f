import FoundationEssentials
import Monitor

/// What the view memoises between frames, owned by the runtime: each pane's content as drawn
/// (made again when its probe checks new content), and the pretty, redacted bodies the zoom
/// views showed last (a frame of a zoomed 8 MiB body must not pretty-print it again).
@MainActor
final class ViewCaches {
    struct PrettyBodyKey: Hashable {
        let pane: PaneID
        let timestamp: TimeInterval
        let isError: Bool
    }

    /// By pane, answer time and kind (data or error); only the latest few.
    var prettyBodies: [PrettyBodyKey: [String]] = [:]
    /// By pane: its content as drawn.
    private var contents: [PaneID: PaneContent] = [:]

    /// What `pane` shows of its content, its table rows in `sort`'s order (nil: as listed).
    func content(of pane: PaneState, sortedBy sort: TableSort?, display: ValueDisplay) -> PaneContent? {
        guard let check = pane.probe.contentCheck else {
            contents[pane.id] = nil
            return nil
        }
        if let cached = contents[pane.id], cached.check === check {
            cached.tableSort = sort
            return cached
        }
        let content = PaneContent(check: check, display: display)
        content.tableSort = sort
        contents[pane.id] = content
        return content
    }

    /// When what the pane shows stops being true by itself (a formatted age), or nil.
    func contentValidUntil(_ pane: PaneID) -> TimeInterval? {
        contents[pane]?.formattedValidUntil
    }

    /// Forgets the contents of panes no longer shown (after a config reload).
    func keepContents(of panes: [PaneState]) {
        let kept = Set(panes.map(\.id))
        contents = contents.filter { kept.contains($0.key) }
    }
}

/// The panes a frame drew, in any view: what the view returns. Its storage is reused from frame
/// to frame.
@MainActor
final class DrawnPanes {
    var panes: [PaneID] = []
}
