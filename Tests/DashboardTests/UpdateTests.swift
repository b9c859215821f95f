import Dashboard
import DashboardConfig
import DashboardKeys
import Foundation
import Monitor
import TerminalUI
import Testing

/// `update` alone, as bubbletea's tests call `Update`: a model, a message, a world that stands
/// still; the model that results and the effects returned. No main queue, no network, no clock.
@MainActor
@Suite struct UpdateTests {
    /// A screen that stands still; the zoom has `lines` lines per pane.
    final class StillWorld: ScreenWorld {
        var lines = 100

        var size = Size(columns: 80, rows: 24)
        var gridColumns: Int { 2 }
        var isPaused = false
        var keyMap = KeyMap.standard
        func shownEventCount(_ model: DashboardModel) -> Int { 10 }
        func zoomLineCount(_ pane: PaneID, _ view: ZoomView, width: Int, model: DashboardModel) -> Int { lines }
        func searchRows(_ pane: PaneID, _ view: ZoomView, width: Int, model: DashboardModel) -> [String] {
            (0..<lines).map { $0 == 42 ? "needle here" : "row \($0)" }
        }
        func tableColumnCount(_ pane: PaneID, model: DashboardModel) -> Int { 3 }
        func tableColumn(_ pane: PaneID, atX x: Int, y: Int, model: DashboardModel) -> Int? { y == 2 ? x / 10 : nil }
        func curlCommand(for pane: PaneState) -> String { "curl -sS '\(pane.displayURL)'" }
    }

    let world = StillWorld()
    /// Four panes, as a config lists them.
    let spec: DashboardSpec
    final class Token {}
    let tokens = (0..<4).map { _ in Token() }
    var ids: [PaneID] { tokens.map(ObjectIdentifier.init) }

    init() throws {
        spec = try ConfigLoader.parse(
            """
            service: { baseURL: "https://shop.test/" }
            panes:
              - { title: Health, resource: /health }
              - { title: Payments, resource: /payments }
              - { title: Orders, resource: /orders, show: table }
              - { title: Search, resource: /search }
            """, file: "shop.yaml", environment: [:])
    }

    /// A model that has been told of the four panes, and of what their probes say: Payments
    /// fails and Search misses an expectation.
    func model(healths: [Probe.Health] = [.ok, .failing, .ok, .unmet]) -> DashboardModel {
        var model = DashboardModel()
        let panes = spec.panes.enumerated().map { index, pane in
            PaneState(id: ids[index], spec: pane, displayURL: "https://shop.test/\(pane.title.lowercased())", request: PaneRequest(url: URL(string: "https://shop.test/")!))
        }
        _ = model.update(.panes(panes), world: world)
        for (index, health) in healths.enumerated() {
            _ = model.update(.probed([(ids[index], ProbeReport(health: health, verdict: health))]), world: world)
        }
        return model
    }

    func names(_ effects: [DashboardEffect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .reload(let id): "reload \(ids.firstIndex(of: id) ?? -1)"
            case .retry(let id): "retry \(ids.firstIndex(of: id) ?? -1)"
            case .reloadAll: "reload all"
            case .setPaused(let paused): paused ? "pause" : "resume"
            case .mute(let id, let seconds): "mute \(ids.firstIndex(of: id) ?? -1) \(seconds.map { "\(Int($0))s" } ?? "until recovered")"
            case .unmute(let id): "unmute \(ids.firstIndex(of: id) ?? -1)"
            case .setRawValues(let raw): raw ? "raw" : "formatted"
            case .copyToClipboard(let text): "copy \(text)"
            case .page(let id): "page \(ids.firstIndex(of: id) ?? -1)"
            case .editConfig: "edit config"
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
        var model = model()
        #expect(press(&model, .character("r")) == ["reload 0", "frame now"])
        #expect(press(&model, .tab, .character("t")) == ["frame now", "retry 1", "frame now"])
        #expect(press(&model, .character("R")) == ["reload all", "frame now"])
        #expect(press(&model, .character("p")) == ["pause", "frame now"])
        world.isPaused = true
        #expect(press(&model, .character("p")) == ["resume", "frame now"])
        #expect(press(&model, .character("v"), .character("v")) == ["raw", "frame now", "formatted", "frame now"])
        #expect(press(&model, .character("o")) == ["page 1", "frame now"])
        #expect(press(&model, .ctrl("z")) == ["suspend", "frame now"])
        #expect(press(&model, .character("q")) == ["quit 0", "frame now"])
        #expect(press(&model, .ctrl("c")) == ["quit 130", "frame now"])
    }

    @Test func movingFollowsTheGridAndTheFilterAndSortKeepTheChosenPane() {
        var model = model()
        _ = press(&model, .character("j"))
        #expect(model.selected(in: ids) == ids[2], "down one row of two columns")
        _ = press(&model, .character("l"), .character("k"))
        #expect(model.selected(in: ids) == ids[1])
        // Failing first: Payments (failing) and Search (unmet) lead; the choice stays on Payments.
        _ = press(&model, .character("s"))
        let order = model.visiblePanes.map(\.title)
        #expect(order == ["Payments", "Search", "Health", "Orders"])
        #expect(model.selectedPane?.id == ids[1])
        // Sorting off again: the file's order, the choice still on Payments.
        _ = press(&model, .character("s"))
        #expect(model.visiblePanes.map(\.title) == ["Health", "Payments", "Orders", "Search"])
        #expect(model.selected(in: ids) == ids[1])
        _ = press(&model, .character("s"))
        // A filter that hides it falls back to what is there.
        _ = press(&model, .character("/"), .character("o"), .character("r"), .enter)
        #expect(model.filter == "or" && model.mode == .normal)
        #expect(model.visiblePanes.map(\.title) == ["Orders"])
        _ = press(&model, .escape)
        #expect(model.filter.isEmpty)
    }

    /// In the grid a key moves to the pane beside; where the panes are too short and show as a
    /// list (a line each), down and up move one row, as in less and k9s, never two.
    @Test func movingFollowsWhatIsOnScreenGridOrList() {
        var model = model()
        _ = press(&model, .character("G"))
        #expect(model.selected(in: ids) == ids[3], "G: the last pane")
        _ = press(&model, .character("g"))
        #expect(model.selected(in: ids) == ids[0], "g: the first")
        _ = press(&model, .character("l"), .pageDown)
        #expect(model.selected(in: ids) == ids[3], "PgDn: the last row, same column")
        _ = press(&model, .pageUp)
        #expect(model.selected(in: ids) == ids[1], "PgUp: the first row, same column")

        world.size = Size(columns: 80, rows: 8)  // two rows of panes would be 3 lines high: a list
        _ = press(&model, .character("g"), .character("j"))
        #expect(model.selected(in: ids) == ids[1], "down one row of the list")
        _ = press(&model, .down, .character("k"))
        #expect(model.selected(in: ids) == ids[1])
        _ = press(&model, .character("l"))
        #expect(model.selected(in: ids) == ids[1], "nothing is beside it in a list")
        _ = press(&model, .end)
        #expect(model.selected(in: ids) == ids[3])
        _ = press(&model, .home, .pageDown)
        #expect(model.selected(in: ids) == ids[3], "a page of six rows holds them all")
    }

    /// `:` as in k9s: a command completed with Tab and run with Enter, each what its keys do or a
    /// choice they do not offer; what is not a command is said, with what was meant.
    @Test func theCommandLineCompletesAndRuns() {
        var model = model()
        func type(_ text: String) -> [String] { text.flatMap { press(&model, .character($0)) } }
        _ = press(&model, .character(":"))
        #expect(model.mode == .command)
        _ = type("pa")
        _ = press(&model, .tab)
        #expect(model.commandLine == "pane ", "a command completes, with its space")
        _ = type("pay")
        _ = press(&model, .tab)
        #expect(model.commandLine == "pane Payments")
        #expect(press(&model, .enter) == ["frame now"])
        #expect(model.selected(in: ids) == ids[1] && model.mode == .normal)

        _ = press(&model, .character(":"))
        _ = type("theme l")
        _ = press(&model, .tab)
        #expect(model.commandLine == "theme light")
        #expect(press(&model, .enter) == ["frame now"])
        #expect(model.themeOverride == .light, "the model's choice, which the runtime draws with")

        _ = press(&model, .character(":"))
        _ = type("filter or")
        _ = press(&model, .enter)
        #expect(model.filter == "or" && model.visiblePanes.map(\.title) == ["Orders"])
        _ = press(&model, .escape)

        _ = press(&model, .character(":"))
        _ = type("relaod")
        _ = press(&model, .enter)
        #expect(model.flash?.hasPrefix("unknown command :relaod; did you mean :reload?") == true, "\(model.flash ?? "")")
        _ = press(&model, .character(":"))
        _ = type("pane nothing")
        _ = press(&model, .enter)
        #expect(model.flash == "no pane is called \"nothing\"")
        _ = press(&model, .character(":"))
        _ = type("reload all")
        #expect(press(&model, .enter) == ["reload all", "frame now"])
        _ = press(&model, .character(":"))
        _ = type("quit")
        #expect(press(&model, .enter) == ["quit 0", "frame now"])
    }

    @Test func qClosesAViewAndQuitsOnlyFromTheGrid() {
        var model = model()
        #expect(press(&model, .enter) == ["frame now"])
        #expect(model.isZoomed)
        #expect(press(&model, .character("q")) == ["frame now"], "q closes the zoom")
        #expect(!model.isZoomed)
        for open in [KeyEvent.character("?"), .character("e"), .character("c")] {
            _ = press(&model, open)
            #expect(model.mode != .normal)
            _ = press(&model, .character("q"))
            #expect(model.mode == .normal, "q closes \(open)")
        }
        #expect(press(&model, .character("q")) == ["quit 0", "frame now"])
    }

    @Test func theZoomScrollsSearchesAndSortsWithinItsLines() {
        var model = model()
        _ = press(&model, .character("l"), .character("l"), .enter)
        let orders = ids[2]
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
        var model = model()
        #expect(press(&model, .character("c")) == ["copy curl -sS 'https://shop.test/health'", "frame now"])
        #expect(model.mode == .curl && model.curlCommand == "curl -sS 'https://shop.test/health'")
        _ = press(&model, .character("q"))
        #expect(model.mode == .normal, "q closes the command, it does not quit")
    }

    @Test func aProbesReportIsWhatTheModelSaysOfItsPane() {
        var model = model(healths: [.ok, .ok, .ok, .ok])
        _ = press(&model, .character("s"))
        #expect(model.visiblePanes.map(\.title) == ["Health", "Payments", "Orders", "Search"])
        // Search fails: failing first puts it first, and the report's reason is the pane's.
        let failing = ProbeReport(health: .failing, verdict: .failing, failure: "503 Service Unavailable")
        #expect(names(model.update(.probesChanged, world: world)) == ["tick soon", "frame"])
        #expect(model.update(.probed([(ids[3], failing)]), world: world).isEmpty, "the news asked for the frame")
        #expect(model.visiblePanes.map(\.title) == ["Search", "Health", "Payments", "Orders"])
        #expect(model.pane(ids[3])?.probe.failure == "503 Service Unavailable")
        // A report for a pane the model no longer has (a reload replaced it) changes nothing.
        _ = model.update(.probed([(ObjectIdentifier(Token()), ProbeReport(health: .failing, verdict: .failing))]), world: world)
        #expect(model.panes.map(\.health) == [.ok, .ok, .ok, .failing])
        // A key's load in flight shows the overlay's spinner; the same count again is no news.
        #expect(model.pane(ids[0])?.overlayState == .success)
        #expect(names(model.update(.manualLoads(ids[0], 1), world: world)) == ["tick soon", "frame"])
        #expect(model.pane(ids[0])?.overlayState == .loading)
        #expect(model.update(.manualLoads(ids[0], 1), world: world).isEmpty)
    }

    @Test func messagesFromTheWorldAskForFramesAndTicks() {
        var model = model()
        #expect(names(model.update(.probesChanged, world: world)) == ["tick soon", "frame"])
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
