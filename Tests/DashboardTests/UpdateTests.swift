import Dashboard
import Monitor
import TerminalUI
import Testing

/// `update` alone, as bubbletea's tests call `Update`: a model, a message, a world that stands
/// still; the model that results and the effects returned. No main queue, no network, no clock.
@MainActor
@Suite struct UpdateTests {
    /// Panes and a screen, as the keys see them; the zoom has `lines` lines per pane.
    final class StillWorld: ScreenWorld {
        final class Token {}
        let tokens = (0..<4).map { _ in Token() }
        var healths: [Probe.Health] = [.ok, .failing, .ok, .unmet]
        var lines = 100
        var paused = false

        var ids: [PaneID] { tokens.map(ObjectIdentifier.init) }
        var paneFacts: [PaneFacts] {
            ["Health", "Payments", "Orders", "Search"].enumerated().map { index, title in
                PaneFacts(id: ids[index], title: title, displayURL: "https://shop.test/\(title.lowercased())", health: healths[index], isTable: title == "Orders")
            }
        }
        var size: Size { Size(columns: 80, rows: 24) }
        var gridColumns: Int { 2 }
        var isPaused: Bool { paused }
        func shownEventCount(_ model: DashboardModel) -> Int { 10 }
        func zoomLineCount(_ pane: PaneID, _ view: ZoomView, width: Int, model: DashboardModel) -> Int { lines }
        func searchRows(_ pane: PaneID, _ view: ZoomView, width: Int, model: DashboardModel) -> [String] {
            (0..<lines).map { $0 == 42 ? "needle here" : "row \($0)" }
        }
        func tableColumnCount(_ pane: PaneID, model: DashboardModel) -> Int { 3 }
        func curlCommand(_ pane: PaneID) -> String { "curl -sS 'https://shop.test/'" }
    }

    let world = StillWorld()

    func names(_ effects: [DashboardEffect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .reload(let id): "reload \(world.ids.firstIndex(of: id) ?? -1)"
            case .retry(let id): "retry \(world.ids.firstIndex(of: id) ?? -1)"
            case .reloadAll: "reload all"
            case .setPaused(let paused): paused ? "pause" : "resume"
            case .setRawValues(let raw): raw ? "raw" : "formatted"
            case .copyToClipboard(let text): "copy \(text)"
            case .page(let id): "page \(world.ids.firstIndex(of: id) ?? -1)"
            case .suspend: "suspend"
            case .quit(let status): "quit \(status)"
            case .applyConfig: "apply config"
            case .notify(let text): "notify \(text)"
            case .frame(let urgent): urgent ? "frame now" : "frame"
            case .tickSoon: "tick soon"
            case .tickAgain: "tick again"
            }
        }
    }

    func press(_ model: inout DashboardModel, _ keys: KeyEvent...) -> [String] {
        keys.flatMap { names(model.update(.key($0), world: world)) }
    }

    @Test func keysOnTheGridAskForTheirWorkAsEffects() {
        var model = DashboardModel()
        #expect(press(&model, .character("r")) == ["reload 0", "frame now"])
        #expect(press(&model, .tab, .character("t")) == ["frame now", "retry 1", "frame now"])
        #expect(press(&model, .character("R")) == ["reload all", "frame now"])
        #expect(press(&model, .character("p")) == ["pause", "frame now"])
        world.paused = true
        #expect(press(&model, .character("p")) == ["resume", "frame now"])
        #expect(press(&model, .character("v"), .character("v")) == ["raw", "frame now", "formatted", "frame now"])
        #expect(press(&model, .character("o")) == ["page 1", "frame now"])
        #expect(press(&model, .ctrl("z")) == ["suspend", "frame now"])
        #expect(press(&model, .character("q")) == ["quit 0", "frame now"])
        #expect(press(&model, .ctrl("c")) == ["quit 130", "frame now"])
    }

    @Test func movingFollowsTheGridAndTheFilterAndSortKeepTheChosenPane() {
        var model = DashboardModel()
        _ = press(&model, .character("j"))
        #expect(model.selected(in: world.ids) == world.ids[2], "down one row of two columns")
        _ = press(&model, .character("l"), .character("k"))
        #expect(model.selected(in: world.ids) == world.ids[1])
        // Failing first: Payments (failing) and Search (unmet) lead; the choice stays on Payments.
        _ = press(&model, .character("s"))
        let order = model.visible(world.paneFacts) { ($0.title, $0.displayURL, $0.health) }.map(\.title)
        #expect(order == ["Payments", "Search", "Health", "Orders"])
        #expect(model.selected(in: order.map { title in world.paneFacts.first { $0.title == title }!.id }) == world.ids[1])
        // Sorting off again: the file's order, the choice still on Payments.
        _ = press(&model, .character("s"))
        #expect(model.visible(world.paneFacts) { ($0.title, $0.displayURL, $0.health) }.map(\.title) == ["Health", "Payments", "Orders", "Search"])
        #expect(model.selected(in: world.ids) == world.ids[1])
        _ = press(&model, .character("s"))
        // A filter that hides it falls back to what is there.
        _ = press(&model, .character("/"), .character("o"), .character("r"), .enter)
        #expect(model.filter == "or" && model.mode == .normal)
        #expect(model.visible(world.paneFacts) { ($0.title, $0.displayURL, $0.health) }.map(\.title) == ["Orders"])
        _ = press(&model, .escape)
        #expect(model.filter.isEmpty)
    }

    @Test func theZoomScrollsSearchesAndSortsWithinItsLines() {
        var model = DashboardModel()
        _ = press(&model, .character("l"), .character("l"), .enter)
        let orders = world.ids[2]
        #expect(model.isZoomed && model.zoomView == .data)
        // 100 lines in a 20-line window: at most 80 down.
        _ = press(&model, .pageDown, .pageDown, .pageDown, .pageDown, .pageDown)
        #expect(model.scroll[orders] == 80)
        _ = press(&model, .character("g"))
        #expect(model.scroll[orders] == 0)
        _ = press(&model, .character("/"), .character("n"), .character("e"), .character("e"), .enter)
        #expect(model.scroll[orders] == 42 && !model.searchMissed)
        _ = press(&model, .character("s"), .character("s"))
        #expect(model.tableSort[orders] == TableSort.next(after: TableSort.next(after: nil, columns: 3), columns: 3))
        _ = press(&model, .character("2"))
        #expect(model.zoomView == .response && model.scroll[orders] == 0)
        // `s` in a view that is not a table's data sorts the grid instead.
        _ = press(&model, .character("s"))
        #expect(model.sortFailingFirst)
        _ = press(&model, .escape)
        #expect(!model.isZoomed)
    }

    @Test func curlShowsTheCommandAndOffersItToTheClipboard() {
        var model = DashboardModel()
        #expect(press(&model, .character("c")) == ["copy curl -sS 'https://shop.test/'", "frame now"])
        #expect(model.mode == .curl && model.curlCommand == "curl -sS 'https://shop.test/'")
        _ = press(&model, .character("q"))
        #expect(model.mode == .normal, "q closes the command, it does not quit")
    }

    @Test func messagesFromTheWorldAskForFramesAndTicks() {
        var model = DashboardModel()
        #expect(names(model.update(.resourceChanged, world: world)) == ["tick soon", "frame"])
        #expect(names(model.update(.tick, world: world)) == ["tick again", "frame"])
        #expect(model.spinnerTick == 1)
        #expect(names(model.update(.notice("cache off"), world: world)) == ["notify cache off", "frame"])
        #expect(model.statusMessage == "cache off")
        #expect(names(model.update(.configApplied(.reloaded), world: world)) == ["frame now", "tick again"])
        #expect(model.statusMessage == nil)
        _ = model.update(.flash("pager failed"), world: world)
        #expect(model.flash == "pager failed")
        _ = press(&model, .character("j"))
        #expect(model.flash == nil, "a flash lasts until the next key")
    }
}
