import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import FoundationNetworking
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

let shopConfig = """
    title: Shop API
    service:
      baseURL: https://api.test/
    panes:
      - title: Health
        resource: /health
        show: fields
        fields: [status, version]
      - title: Open orders
        resource: /orders
        show: table
        columns: [id, customer, total]
      - title: Payments
        resource: /payments
        show: fields
      - title: Users
        resource: /users
        show: value
        select: count
    """

@MainActor
@Suite struct DashboardAppTests {
    let h: DashboardHarness

    init() throws {
        h = try DashboardHarness(shopConfig, columns: 90, rows: 14)
        h.stub("health", .json(#"{"status":"UP","version":"1.4.2"}"#))
        h.stub("orders", .json(#"[{"id":1021,"customer":"Ada Lovelace","total":"40.00"},{"id":1022,"customer":"Alan Turing","total":"12.50"}]"#))
        h.stub("payments", .json(#"{"message":"Payment gateway unavailable"}"#, status: 503))
        h.stub("users", .json(#"{"count":42}"#))
    }

    @Test func firstLoadShowsEveryPane() async throws {
        h.app.start()
        try await h.settle()
        #expect(h.screen == [
            " Shop API · hammock.yaml · 4 panes  ✓3 ✗1 ⟳0                               06:13   ? help ",
            "┌ ▸ Health ─────────────── 200 · 0 ms · now ┐┌ Open orders ──────────── 200 · 0 ms · now ┐",
            "│ status   UP                               ││ id    customer      total                 │",
            "│ version  1.4.2                            ││ 1021  Ada Lovelace  40.00                 │",
            "│                                           ││ 1022  Alan Turing   12.50                 │",
            "│                                           ││                                           │",
            "└───────────────────────────────────────────┘└───────────────────────────────────────────┘",
            "┌ Payments ───────────── 503 · 0 ms · error ┐┌ Users ────────────────── 200 · 0 ms · now ┐",
            "│ Unable to load data.                      ││                                           │",
            "│ 503 · Payment gateway unavailable         ││                    42                     │",
            "│ [t] Try again      no data yet            ││                                           │",
            "│                                           ││                                           │",
            "└───────────────────────────────────────────┘└───────────────────────────────────────────┘",
            " r reload  ⏎ zoom  c curl  o pager  e events  / filter  s sort  : command  v raw  q quit  ",
        ])
        #expect(h.network.receivedRequests.count == 4)
    }

    @Test func beforeDataArrivesPanesShowLoading() async throws {
        h.network.holdsResponses = true
        h.app.start()
        try await drainMainQueue(turns: 2)
        #expect(h.screen[0].contains("⟳4"))
        #expect(h.screen[1].hasSuffix("loading ⠋ ┐"))
        #expect(h.screen[3] == "│                ⠋ Loading…                 ││                ⠋ Loading…                 │")
        try await h.release()
        #expect(h.screen[2].contains("status   UP"))
    }

    @Test func dataAgesAndTheClockTick() async throws {
        h.app.start()
        try await h.settle()
        try await h.advance(3)
        #expect(h.screen[0].contains("06:13   ? help"))
        #expect(h.screen[1].contains("200 · 0 ms · 3s ago"))
        try await h.advance(37)
        #expect(h.screen[0].contains("06:14   ? help"))
    }

    @Test func backgroundRefreshNeverBlanksAPaneButAKeyReloadShowsItsSpinner() async throws {
        h.app.start()
        try await h.settle()
        h.network.holdsResponses = true
        try await h.advance(36)  // fresh until 30 s inclusive; the 5 s cadence loads at 35 s
        #expect(h.network.heldRequests.map { $0.url!.lastPathComponent }.sorted() == ["health", "orders", "payments", "users"])
        #expect(h.screen[2].contains("status   UP"), "a background refresh keeps the data on screen")
        #expect(hasSpinner(h.screen[1]), "…while the title bar shows the spinner")
        try await h.release()
        h.network.holdsResponses = true
        try await h.press(.character("r"))
        #expect(h.screen[3].contains("Loading…") && hasSpinner(h.screen[3]), "a key-initiated load shows the overlay")
        try await h.release()
        #expect(h.screen[2].contains("status   UP"))
    }

    @Test func retryAfterAnError() async throws {
        h.app.start()
        try await h.settle()
        try await h.press(.character("l"), .character("j"))
        #expect(h.app.selectedPane?.probe.spec.title == "Users")
        try await h.press(.character("h"))
        #expect(h.app.selectedPane?.probe.spec.title == "Payments")
        #expect(h.screen[13].contains("t retry"), "the footer offers retry on a failing pane")
        let before = h.network.requestCount(for: h.url("payments"))
        try await h.press(.character("t"))
        #expect(h.network.requestCount(for: h.url("payments")) == before + 1, "a key retries at once, whatever the retry time")
        h.stub("payments", .json(#"{"status":"OK"}"#))
        h.network.holdsResponses = true
        try await h.press(.character("t"))
        #expect(h.screen[9].contains("Loading…"))
        try await h.release()
        #expect(h.screen[8].contains("status  OK"))
        #expect(h.screen[0].contains("✓4 ✗0"))
    }

    /// With failing panes first (`s`), a probe that re-sorts the grid does not move the cursor:
    /// the keys act on the pane the user chose.
    @Test func theCursorStaysOnTheChosenPaneWhenProbesReSortTheGrid() async throws {
        h.app.start()
        try await h.settle()
        try await h.press(.character("s"))
        #expect(h.app.visiblePanes.map(\.probe.spec.title) == ["Payments", "Health", "Open orders", "Users"])
        #expect(h.app.selectedPane?.probe.spec.title == "Health", "s keeps the pane that was selected")
        try await h.press(.character("j"))
        #expect(h.app.selectedPane?.probe.spec.title == "Users")
        // Health and Users start failing, Payments recovers: the order changes under the cursor.
        h.stub("health", .json(#"{"message":"down"}"#, status: 503))
        h.stub("users", .json(#"{"message":"down"}"#, status: 503))
        h.stub("payments", .json(#"{"status":"OK"}"#))
        h.clock.advance(by: 10)
        try await h.press(.character("R"))
        #expect(h.app.visiblePanes.map(\.probe.spec.title) == ["Health", "Users", "Open orders", "Payments"])
        #expect(h.app.selectedPane?.probe.spec.title == "Users", "still the pane the user chose")
        #expect(h.screen.contains { $0.contains("▸ Users") })
        let before = h.network.requestCount(for: h.url("users"))
        try await h.press(.character("r"))
        #expect(h.network.requestCount(for: h.url("users")) == before + 1, "r reloads the chosen pane")
    }

    @Test func reloadAllLoadsEveryPane() async throws {
        h.app.start()
        try await h.settle()
        try await h.press(.character("R"))
        #expect(h.network.receivedRequests.count == 8)
    }

    @Test func zoomAndScroll() async throws {
        let items = (1...30).map { #"{"id":\#($0),"customer":"Customer \#($0)","total":"\#($0).00"}"# }.joined(separator: ",")
        h.stub("orders", .json("[\(items)]"))
        h.app.start()
        try await h.settle()
        var screen = try await h.press(.tab, .enter)
        #expect(screen[1].hasPrefix("┌ Open orders ─"))
        #expect(screen[2].hasPrefix("│ id  customer     total"))
        #expect(screen[3].hasPrefix("│ 1   Customer 1   1.00"))
        #expect(screen[13].hasPrefix(" [1 data] 2 response 3 request 4 timing 5 error 6 changes  s < > sort  / search"))
        #expect(screen[13].contains("q back"), "the way back stays")
        screen = try await h.press(.character("j"), .character("j"))
        #expect(screen[2].hasPrefix("│ id  customer     total"), "the header stays while rows scroll")
        #expect(screen[3].hasPrefix("│ 3   Customer 3   3.00"))
        screen = try await h.press(.pageDown)
        #expect(screen[3].hasPrefix("│ 13  Customer 13  13.00"))
        screen = try await h.press(.end)
        #expect(screen[11].hasPrefix("│ 30  Customer 30  30.00"), "scrolling stops at the last line")
        screen = try await h.press(.escape)
        #expect(screen[1].hasPrefix("┌ Health"))
    }

    @Test func newDataReplacesWhatAPaneShowsWhateverItsSource() async throws {
        h.app.start()
        try await h.settle()
        #expect(h.screen[9].contains("42"))
        let users = h.app.panes[3].probe.resource
        h.stub("users", .json(#"{"count":43}"#))
        var screen = try await h.press(.character("R"))
        #expect(screen[9].contains("43"), "from the network")
        users.overrideLocalContent(with: JSON.object(["count": 44]))
        try await h.settle()
        #expect(h.screen[9].contains("44"), "from a local override")
        h.stub("users", .init(status: 304))
        screen = try await h.press(.character("R"))
        #expect(screen[9].contains("44"), "a 304 keeps what is shown")
        users.wipe()
        try await h.settle()
        #expect(!h.screen[9].contains("44"), "a wipe clears it")
    }

    @Test func aZoomedTextPaneScrollsThroughWrappedLinesToTheEnd() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Log, resource: /log, show: text }
            """, columns: 40, rows: 10)
        let text = (1...200).map { "line \($0) of the log, long enough to wrap once" }.joined(separator: "\n")
        h.stub("log", .init(status: 200, headers: ["Content-Type": "text/plain"], body: Data(text.utf8)))
        h.app.start()
        try await h.settle()
        var screen = try await h.press(.enter)
        #expect(screen[2] == "│ line 1 of the log, long enough to    │")
        #expect(screen[3] == "│ wrap once                            │", "long lines wrap")
        screen = try await h.press(.end)
        #expect(screen[6] == "│ line 200 of the log, long enough to  │")
        #expect(screen[7] == "│ wrap once                            │", "the end is the last wrapped line")
        screen = try await h.press(.pageUp)
        #expect(screen[2] == "│ line 195 of the log, long enough to  │", "paging up moves back a screenful")
    }

    @Test func filterNarrowsThePanes() async throws {
        h.app.start()
        try await h.settle()
        var screen = try await h.press(.character("/"), .character("p"), .character("a"), .character("y"))
        #expect(screen[0].contains("/pay"))
        #expect(screen[13].hasPrefix(" filter: pay"))
        #expect(h.app.visiblePanes.map(\.probe.spec.title) == ["Payments"])
        screen = try await h.press(.enter)
        #expect(screen[1].hasPrefix("┌ ▸ Payments"))
        screen = try await h.press(.character("/"), .character("z"), .character("z"), .enter)
        #expect(screen.contains { $0.contains(#"No pane matches "payzz""#) })
        screen = try await h.press(.escape)
        #expect(h.app.visiblePanes.count == 4)
    }

    @Test func sortPutsFailingPanesFirstAndKeepsTheSelection() async throws {
        h.app.start()
        try await h.settle()
        let screen = try await h.press(.character("s"))
        #expect(h.app.visiblePanes.map(\.probe.spec.title) == ["Payments", "Health", "Open orders", "Users"])
        #expect(screen[0].contains("failing first"))
        #expect(h.app.selectedPane?.probe.spec.title == "Health")
        #expect(screen[1].hasPrefix("┌ Payments"))
    }

    @Test func pauseStopsAutomaticRefreshButNotKeys() async throws {
        h.app.start()
        try await h.settle()
        let screen = try await h.press(.character("p"))
        #expect(screen[0].contains("⏸ paused"))
        #expect(screen[13].contains("p resume"))
        let before = h.network.receivedRequests.count
        try await h.advance(120)
        #expect(h.network.receivedRequests.count == before)
        try await h.press(.character("r"))
        #expect(h.network.receivedRequests.count == before + 1)
        try await h.press(.character("p"))
        try await h.advance(5)
        #expect(h.network.receivedRequests.count > before + 1)
    }

    @Test func eventsViewListsExternalNames() async throws {
        h.app.start()
        try await h.settle()
        let screen = try await h.press(.character("e"))
        #expect(screen.contains { $0.contains("Health       loaded 200 in 0 ms") && $0.contains("NewData(Network)") }, "\(screen)")
        #expect(screen.contains { $0.contains("Payments     failed: 503 Payment gateway unavailable") && $0.contains("Error") })
        #expect(!screen.contains { $0.contains("Requested") }, "requests are hidden until r")
        try await h.press(.escape)
        #expect(h.app.mode == .normal)
    }

    @Test func helpAndQuit() async throws {
        h.app.start()
        try await h.settle()
        let screen = try await h.press(.character("?"))
        #expect(screen.contains { $0.contains("r             reload the selected pane") }, "\(screen)")
        try await h.press(.character("?"))
        #expect(h.app.mode == .normal)
        try await h.press(.character("q"))
        #expect(h.quitStatus == 0)
        try await h.press(.ctrl("c"))
        #expect(h.quitStatus == 130)
    }

    @Test func backgroundFramesAreRateLimitedButKeysDrawAtOnce() async throws {
        let h = try DashboardHarness(shopConfig, columns: 90, rows: 14, minimumFrameInterval: 60)
        h.stub("health", .json(#"{"status":"UP"}"#))
        h.stub("orders", .json("[]"))
        h.stub("payments", .json("{}"))
        h.stub("users", .json(#"{"count":1}"#))
        h.app.start()
        try await drainMainQueue(turns: 2)
        #expect(h.app.framesDrawn == 1, "the first frame is not delayed")
        try await h.settle()
        #expect(h.app.framesDrawn == 1, "answers arriving within the interval wait for it")
        try await h.press(.tab)
        #expect(h.app.framesDrawn == 2, "a key draws at once, taking the waiting background frame with it")
        #expect(h.screen[0].contains("✓4"))
    }

    @Test func manyEventsInOneTurnDrawOneFrameAndAnUnchangedFrameSendsNothing() async throws {
        h.app.start()
        try await h.settle()
        let frames = h.app.framesDrawn
        for _ in 0..<50 { h.app.send(.reminded) }
        try await drainMainQueue(turns: 2)
        #expect(h.app.framesDrawn == frames + 1)
        #expect(h.backend.cellsPerFrame.last == 0)
    }
}
