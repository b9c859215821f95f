import DashboardConfig
import Monitor

/// Which panes are in view, in what order, and which one the keys act on.
extension DashboardApp {
    /// The panes after the filter and the failing-first sort, in display order.
    public var visiblePanes: [Pane] {
        var result = panes
        if !filter.isEmpty {
            let needle = filter.lowercased()
            result = result.filter {
                $0.spec.title.lowercased().contains(needle) || $0.displayURL.lowercased().contains(needle)
            }
        }
        if sortFailingFirst {
            let rank: (Pane) -> Int = { pane in
                switch pane.health {
                case .failing, .unmet: 0
                case .degraded: 1
                case .loading, .waiting: 2
                case .ok: 3
                }
            }
            result = result.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        }
        return result
    }

    public var selectedPane: Pane? {
        let visible = visiblePanes
        let index = selectionIndex(in: visible)
        return visible.indices.contains(index) ? visible[index] : nil
    }

    /// Where the chosen pane is in `visible` (the panes in display order); where it was, kept
    /// within them, when it is not there.
    func selectionIndex(in visible: [Pane]) -> Int {
        if let chosenPane, let index = visible.firstIndex(where: { ObjectIdentifier($0) == chosenPane }) { return index }
        return max(0, min(chosenIndex, visible.count - 1))
    }

    /// Chooses the pane at `index` of `visible`.
    func select(_ index: Int, in visible: [Pane]) {
        chosenIndex = max(0, min(index, visible.count - 1))
        chosenPane = visible.indices.contains(chosenIndex) ? ObjectIdentifier(visible[chosenIndex]) : nil
    }

    /// Chooses the pane the selection now falls on (after a filter that hid the chosen one).
    func clampSelection() {
        let visible = visiblePanes
        select(selectionIndex(in: visible), in: visible)
    }
}
