import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import FoundationNetworking
import HammockHarness
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

@MainActor
@Suite struct DashboardLayoutTests {
    let h: DashboardHarness

    init() throws {
        h = try DashboardHarness(shopConfig, columns: 90, rows: 14)
        h.stub("health", .json(#"{"status":"UP","version":"1.4.2"}"#))
        h.stub("orders", .json(#"[{"id":1021,"customer":"Ada Lovelace","total":"40.00"}]"#))
        h.stub("payments", .json(#"{"message":"Payment gateway unavailable"}"#, status: 503))
        h.stub("users", .json(#"{"count":42}"#))
    }

    private func resize(_ columns: Int, _ rows: Int) async throws -> [String] {
        h.backend.resize(columns: columns, rows: rows)
        h.app.send(.resized)
        try await h.settle()
        return h.screen
    }

    @Test func narrowTerminalsStackPanesInOneColumn() async throws {
        h.app.start()
        try await h.settle()
        let screen = try await resize(40, 26)
        #expect(screen[1].hasPrefix("┌ ▸ Health ─"))
        #expect(screen[7].hasPrefix("┌ Open orders ─"))
        #expect(screen[13].hasPrefix("┌ Payments ─"))
        #expect(screen[19].hasPrefix("┌ Users ─"))
        #expect(screen.allSatisfy { DisplayWidth.of($0) == 40 })
    }

    @Test func shortTerminalsCollapsePanesToOneLineEach() async throws {
        h.app.start()
        try await h.settle()
        let screen = try await resize(70, 8)
        #expect(screen == [
            " Shop API · hammock.yaml · 4 panes  ✓3 ✗1 ⟳0           06:13   ? help ",
            "▸✓ Health       200 · 0 ms · now  status UP  version 1.4.2            ",
            #" ✓ Open orders  200 · 0 ms · now  [{"id":1021,"customer":"Ada Lovelac…"#,
            " ✗ Payments     503 · 0 ms · error  Payment gateway unavailable       ",
            " ✓ Users        200 · 0 ms · now  42                                  ",
            "                                                                      ",
            "                                                                      ",
            " r reload  ⏎ zoom  c curl  o pager  e events  / filter  v raw  q quit ",
        ])
    }

    @Test func collapsedListScrollsToKeepTheSelectionInView() async throws {
        let panes = (1...6).map { "  - title: Pane \($0)\n    resource: /p\($0)\n" }.joined()
        let h = try DashboardHarness("service:\n  baseURL: https://api.test/\npanes:\n" + panes, columns: 60, rows: 6)
        for i in 1...6 { h.stub("p\(i)", .json("{}")) }
        h.app.start()
        try await h.settle()
        var screen = h.screen
        #expect(screen[1...4].map { String($0.prefix(9)) } == ["▸✓ Pane 1", " ✓ Pane 2", " ✓ Pane 3", " ✓ Pane 4"])
        screen = try await h.press(.tab, .tab, .tab, .tab, .tab)
        #expect(screen[1...4].map { String($0.prefix(9)) } == [" ✓ Pane 3", " ✓ Pane 4", " ✓ Pane 5", "▸✓ Pane 6"])
    }

    @Test func collapsedRowsLineUpAfterTheWidestTitleOnOrOffScreen() async throws {
        // The widest title (12 columns in 6 characters) is the last pane's, out of view at first.
        let titles = ["A", "Bb", "Ccc", "Dddd", "E", "世界世界世界"]
        let panes = titles.enumerated().map { "  - title: \($1)\n    resource: /p\($0)\n" }.joined()
        let h = try DashboardHarness("service:\n  baseURL: https://api.test/\npanes:\n" + panes, columns: 60, rows: 6)
        for i in titles.indices { h.stub("p\(i)", .json("{}")) }
        h.app.start()
        try await h.settle()
        // Where the status starts, in columns: marker, mark, a space, the title padded, two spaces.
        func statusColumn(_ row: String) -> Int? {
            guard let range = row.range(of: "200 ·") else { return nil }
            return DisplayWidth.of(String(row[..<range.lowerBound]))
        }
        var screen = h.screen
        #expect(screen[1...4].map(statusColumn) == [17, 17, 17, 17], "\(screen)")
        screen = try await h.press(.tab, .tab, .tab, .tab, .tab)
        #expect(screen[4].hasPrefix("▸✓ 世界世界世界"))
        #expect(screen[1...4].map(statusColumn) == [17, 17, 17, 17], "\(screen)")
    }

    @Test func belowTheMinimumItSaysSo() async throws {
        h.app.start()
        try await h.settle()
        let screen = try await resize(29, 5)
        let text = screen.joined(separator: " ")
        #expect(text.contains("Terminal too small: 29x5") && text.contains("(Hammock needs 30x6)"))
        let back = try await resize(90, 14)
        #expect(back[1].hasPrefix("┌ ▸ Health"), "growing again restores the dashboard")
    }

    @Test func everyWidthFromTinyToHugeDrawsWithoutOverflow() async throws {
        h.app.start()
        try await h.settle()
        for (columns, rows) in [(1, 1), (10, 3), (30, 6), (31, 7), (45, 9), (80, 24), (200, 60), (300, 5)] {
            let screen = try await resize(columns, rows)
            #expect(screen.count == rows)
            #expect(screen.allSatisfy { DisplayWidth.of($0) == columns }, "\(columns)x\(rows)")
        }
    }
}

@MainActor
@Suite struct DashboardBehaviourTests {
    @Test func panesSharingAResourceShareItsRequests() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: Health
                resource: /health
                show: fields
              - title: DB
                resource: /health
                show: value
                select: components.db
            """)
        h.stub("health", .json(#"{"status":"UP","components":{"db":"UP"}}"#))
        h.app.start()
        try await h.settle()
        #expect(h.network.requestCount(for: h.url("health")) == 1)
        #expect(h.app.panes[0].probe.resource === h.app.panes[1].probe.resource)
        try await h.advance(5)
        #expect(h.network.requestCount(for: h.url("health")) == 2, "one refresh for both panes, every 5 s")
        #expect(h.screen.contains { $0.contains("UP") })
        // One event per change of the resource, naming both panes: not one per pane.
        let answers = h.app.eventLog.entries.filter { $0.event == "NewData(Network)" }
        #expect(answers.count == 2)
        #expect(answers.allSatisfy { $0.panes == ["Health", "DB"] })
    }

    @Test func postPanesSendTheirBody() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: Failed searches
                resource: /search
                method: POST
                body: { query: "status:failed", size: 0 }
                show: value
                select: count
            """, columns: 40, rows: 8)
        h.stub("search", .json(#"{"count":17}"#), method: .post)
        h.app.start()
        try await h.settle()
        let sent = try #require(h.network.receivedRequests.first)
        #expect(sent.httpMethod == "POST")
        #expect(sent.httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"query":"status:failed","size":0}"#)
        #expect(h.screen.contains { $0.contains("17") })
        try await h.press(.character("r"))
        #expect(h.network.receivedRequests.count == 2)
        #expect(h.network.receivedRequests[1].httpMethod == "POST")
    }

    @Test func hostileTextFromTheNetworkIsShownNotObeyed() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: Evil
                resource: /evil
                show: text
            """, columns: 50, rows: 8)
        h.network.stub(.get, h.url("evil"), .text("\u{1B}]0;pwned\u{07}\u{1B}[2Jclear\u{1B}[31mred\r\nnext\u{08}line"))
        h.app.start()
        try await h.settle()
        #expect(h.screen[2] == "│ ␛]0;pwned␇␛[2Jclear␛[31mred                    │")
        #expect(h.screen[3] == "│ next␈line                                      │")
        for cell in h.backend.buffer.cells {
            #expect(cell.symbol.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value) })
        }
    }

    @Test func observersGoAwayWithTheirPanesOnConfigReload() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: One
                resource: /one
              - title: Two
                resource: /two
            """)
        h.stub("one", .json("{}"))
        h.stub("two", .json("{}"))
        h.stub("three", .json(#"{"three":3}"#))
        h.app.start()
        try await h.settle()
        let two = h.app.panes[1].probe.resource
        #expect(two.observerCount == 2, "the pane's overlay and the event log")
        try await h.press(.tab)
        let newSpec = try ConfigLoader.parse("""
            service:
              baseURL: https://api.test/
            panes:
              - title: Two
                resource: /two
              - title: Three
                resource: /three
                show: fields
            """, file: "hammock.yaml")
        h.app.send(.configReloaded(.reloaded(newSpec)))
        try await h.settle()
        #expect(two.observerCount == 0, "the old service's resource is no longer observed")
        #expect(h.app.panes.map(\.probe.spec.title) == ["Two", "Three"])
        #expect(h.app.selectedPane?.probe.spec.title == "Two", "the selection follows its pane")
        #expect(h.screen.contains { $0.contains("three  3") })
    }

    @Test func aRejectedReloadKeepsThePanesAndSaysWhyInTheStatusLine() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: One
                resource: /one
            """, columns: 110, rows: 10)
        h.stub("one", .json(#"{"a":1}"#))
        h.app.start()
        try await h.settle()
        let errors = ConfigErrors([
            ConfigProblem(file: "hammock.yaml", line: 5, column: 5, message: #"unknown key "resourc" in a pane (did you mean "resource"?)"#),
            ConfigProblem(file: "hammock.yaml", line: 4, column: 5, message: "a pane needs a title"),
        ])
        h.app.send(.configReloaded(.rejected(errors)))
        try await h.settle()
        #expect(h.app.panes.map(\.probe.spec.title) == ["One"])
        #expect(h.screen[9] == #" ⚠ config not reloaded: hammock.yaml:5:5: unknown key "resourc" in a pane (did you mean "resource"?) (+1 more…"#)
        #expect(h.app.statusMessage?.hasSuffix("(+1 more); still running the previous config") == true)
        #expect(h.screen.contains { $0.contains(#""a": 1"#) })
    }

    @Test func reloadFromAFileOnDisk() async throws {
        let directory = URL(fileURLWithPath: ScratchDirectory.path("dash"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("hammock.yaml").path
        try "service:\n  baseURL: https://api.test/\npanes:\n  - title: One\n    resource: /one\n".write(toFile: path, atomically: true, encoding: .utf8)
        let h = try DashboardHarness(try String(contentsOfFile: path, encoding: .utf8), file: path)
        h.stub("one", .json("{}"))
        h.stub("two", .json("{}"))
        h.app.start()
        try await h.settle()
        let reloader = ConfigReloader(path: path, current: h.app.spec, environment: [:])
        try "service:\n  baseURL: https://api.test/\npanes:\n  - title: One\n    resource: /one\n  - title: Two\n    resource: /two\n".write(toFile: path, atomically: true, encoding: .utf8)
        h.app.send(.configReloaded(reloader.reload()))
        try await h.settle()
        #expect(h.app.panes.map(\.probe.spec.title) == ["One", "Two"])
        try "panes: [".write(toFile: path, atomically: true, encoding: .utf8)
        h.app.send(.configReloaded(reloader.reload()))
        try await h.settle()
        #expect(h.app.panes.map(\.probe.spec.title) == ["One", "Two"])
        #expect(h.app.statusMessage?.contains("YAML syntax") == true)
    }

    /// `?` at 60×20: every line of the help wraps inside the box (none is cut), the box scrolls
    /// to what does not fit, and it ends with what the symbols mean.
    @Test func theHelpFitsSixtyColumnsAndScrollsToTheLegend() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: Health, resource: /health }
            """, columns: 60, rows: 20)
        h.stub("health", .json("{}"))
        h.app.start()
        try await h.settle()
        h.app.send(.key(.character("?")))
        try await h.settle()
        let top = h.screen
        #expect(top.contains { $0.contains("┌ Keys ") && $0.contains("↓ j/k") }, "\(top)")
        #expect(!top.contains { $0.contains("…") }, "nothing cut: \(top)")
        #expect(top.contains { $0.contains("│ c             the pane's request as a curl command") }, "\(top)")
        #expect(top.contains { $0.contains("│               (copied via OSC 52)") }, "a wrapped line continues under the text")
        h.app.send(.key(.character("G")))
        try await h.settle()
        let bottom = h.screen
        #expect(bottom.contains { $0.contains("┌ Keys ") && $0.contains("↑ j/k") }, "\(bottom)")
        for symbol in ["✓             ok", "✗             failing", "⚠             an expectation is unmet", "◐             degraded", "⟳ ⠋           loading"] {
            #expect(bottom.contains { $0.contains(symbol) }, "\(symbol): \(bottom)")
        }
        h.app.send(.key(.character("q")))
        try await h.settle()
        #expect(!h.screen.contains { $0.contains("┌ Keys ") })
    }

    /// `size: full` takes a row of its own and `size: 2` two columns of one; up and down go to
    /// the pane under the middle of the selected one.
    @Test func panesSpanTheColumnsTheirSizeAsksFor() async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: Top, resource: /a, size: full }
              - { title: A, resource: /a }
              - { title: B, resource: /a }
              - { title: C, resource: /a }
              - { title: Wide, resource: /a, size: 2 }
              - { title: E, resource: /a }
            layout:
              columns: 3
            """, columns: 90, rows: 20)
        h.stub("a", .json("{}"))
        h.app.start()
        try await h.settle()
        let tops = h.screen.filter { $0.hasPrefix("┌") }.map { line in
            line.split(separator: "┌").map { "┌" + $0.prefix(while: { $0 != "─" }).trimmingCharacters(in: .whitespaces) + " \(DisplayWidth.of("┌" + $0))" }
        }
        #expect(tops == [["┌▸ Top 90"], ["┌A 30", "┌B 30", "┌C 30"], ["┌Wide 60", "┌E 30"]], "\(h.screen)")
        _ = try await h.press(.character("j"))
        #expect(h.app.selectedPane?.probe.spec.title == "B", "under the middle of Top")
        _ = try await h.press(.character("j"))
        #expect(h.app.selectedPane?.probe.spec.title == "Wide")
        _ = try await h.press(.character("l"), .character("k"))
        #expect(h.app.selectedPane?.probe.spec.title == "C", "above the middle of E")
        _ = try await h.press(.pageUp)
        #expect(h.app.selectedPane?.probe.spec.title == "Top")
    }

    /// `columns: auto`: as many 40-column panes as the width holds, one at the least.
    @Test(arguments: [(130, 3), (80, 2), (50, 1)])
    func autoColumnsFollowTheWidth(width: Int, columns: Int) async throws {
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: A, resource: /a }
              - { title: B, resource: /a }
              - { title: C, resource: /a }
            layout: { columns: auto }
            """, columns: width, rows: 30)
        h.stub("a", .json("{}"))
        h.app.start()
        try await h.settle()
        let first = try #require(h.screen.first { $0.hasPrefix("┌") })
        #expect(first.components(separatedBy: "┌").count - 1 == columns, "\(first)")
    }
}
