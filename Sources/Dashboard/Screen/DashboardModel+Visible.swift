import DashboardConfig
import Monitor

/// What the filter and the sort leave on screen, and which pane of it is selected: read from
/// the model, changed only by `update`.
extension DashboardModel {
    /// The panes after the filter and the failing-first sort, in display order.
    public var visiblePanes: [PaneState] {
        visible(panes) { ($0.title, $0.displayURL, $0.probe.health, $0.spec.tags) }
    }

    /// The selected pane, or nil when none is visible.
    public var selectedPane: PaneState? {
        let visible = visiblePanes
        let index = selectionIndex(in: visible, id: \.id)
        return visible.indices.contains(index) ? visible[index] : nil
    }

    /// `panes` after the filter and the failing-first sort, in display order; `facts` reads
    /// each one's title, URL, health and tags. A filter `#name` keeps the panes tagged so.
    public func visible<Item>(_ panes: [Item], facts: (Item) -> (title: String, url: String, health: Probe.Health, tags: [String])) -> [Item] {
        var result = panes
        if !filter.isEmpty {
            let needle = filter.lowercased()
            if needle.hasPrefix("#"), needle.count > 1 {
                let tag = needle.dropFirst()
                result = result.filter { facts($0).tags.contains { $0.lowercased() == tag } }
            } else {
                result = result.filter {
                    let pane = facts($0)
                    return pane.title.lowercased().contains(needle) || pane.url.lowercased().contains(needle)
                }
            }
        }
        if sortFailingFirst {
            let ranks = result.map { item -> Int in
                switch facts(item).health {
                case .failing, .unmet: 0
                // The root of a failure first, then what it blocks.
                case .degraded, .blocked: 1
                case .loading, .waiting: 2
                case .ok: 3
                }
            }
            result = result.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }.map { result[$0] }
        }
        return result
    }
}
