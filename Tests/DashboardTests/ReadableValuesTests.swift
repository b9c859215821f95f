import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// Labels, formats, widths from content, colours and thresholds, as the screen shows them.
@MainActor
@Suite struct ReadableValuesTests {
    /// The harness clock's start (2026-05-09 06:13:20 UTC) in epoch milliseconds.
    static let nowEpochMilliseconds = (800_000_000 + 978_307_200) * 1000

    static let tsdb = """
        {"data":{"headStats":{"numSeries":1234567,"chunkCount":8,"minTime":\(nowEpochMilliseconds - 300_000)},
         "size":123456789,"scrape":0.0193,"ratio":0.19360859939327266,"started":"2026-05-09T06:00:00Z","name":"prom-0"}}
        """

    func tsdbHarness() throws -> DashboardHarness {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: TSDB
                resource: /tsdb
                every: 1h
                show: fields
                fields:
                  - { path: data.headStats.numSeries, label: Series, format: number }
                  - data.headStats.chunkCount
                  - { path: data.headStats.minTime, label: Since, format: age }
                  - { path: data.size, format: bytes }
                  - { path: data.scrape, format: duration }
                  - { path: data.ratio, format: percent }
                  - { path: data.started, format: time }
                  - { path: data.name, format: number, colors: { prom-0: cyan } }
            """, columns: 60, rows: 14)
        h.stub("tsdb", .json(Self.tsdb))
        return h
    }

    /// `format: number` keeps the digits a value has (grouped), `decimals:` rounds where the
    /// config says, and a time written without a zone (Python's naive `isoformat()`) is read as UTC.
    @Test func numbersKeepTheirDigitsAndZonelessTimesAreRead() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: Trades
                resource: /trades
                fields:
                  - { path: avg, format: number }
                  - { path: volume, format: number }
                  - { path: price, decimals: 2 }
                  - { path: seen, format: age }
              - { title: Total, resource: /trades, show: value, select: volume, format: number, decimals: 1 }
            layout: { columns: 1 }
            """, columns: 60, rows: 16)
        h.stub("trades", .json(#"{"avg":455.68,"volume":"10243.55","price":40,"seen":"2026-05-09T06:08:20.5"}"#))
        h.app.start()
        try await h.settle()
        #expect(Array(h.screen[2...5]) == [
            "│ avg     455.68                                           │",
            "│ volume  10,243.55                                        │",
            "│ price   40.00                                            │",
            "│ seen    4m ago                                           │",
        ])
        #expect(h.screen.contains { $0.contains("10,243.6") }, "the value pane's decimals: 1")
        do {
            _ = try ConfigLoader.parse("service: { baseURL: https://x.test/ }\npanes:\n  - { title: A, resource: /a, columns: [ { path: t, format: duration, decimals: 2 } ] }\n", file: "t.yaml")
            Issue.record("decimals on a duration is a problem")
        } catch {
            #expect(error.problems.map(\.message) == ["decimals apply to format: number or percent, not duration"])
        }
    }

    @Test func fieldsShowLabelsAndFormattedValues() async throws {
        let h = try tsdbHarness()
        h.app.start()
        try await h.settle()
        #expect(Array(h.screen[2...9]) == [
            "│ Series      1,234,567                                    │",
            "│ chunkCount  8                                            │",
            "│ Since       5m ago                                       │",
            "│ size        118 MiB                                      │",
            "│ scrape      19 ms                                        │",
            "│ ratio       19.4%                                        │",
            "│ started     2026-05-09 06:00:00                          │",
            "│ name        prom-0                                       │",
        ], "a label defaults to the path's last segment; a value a format cannot read is shown as it came")
        #expect(h.backend.buffer[14, 9].symbol == "p" && h.backend.buffer[14, 9].style.foreground == .cyan, "a field's colour")
        #expect(h.backend.buffer[14, 8].style.foreground != .cyan, "only that field's")
    }

    @Test func anAgeKeepsTellingTheTruthAsTheClockMoves() async throws {
        let h = try tsdbHarness()
        h.app.start()
        try await h.settle()
        #expect(h.screen[4].contains("Since       5m ago"))
        try await h.advance(61)
        #expect(h.screen[4].contains("Since       6m ago"), "no new data, yet the age moved on")
        #expect(h.network.requestCount(for: h.url("tsdb")) == 1)
    }

    @Test func vShowsTheRawValuesAndBack() async throws {
        let h = try tsdbHarness()
        h.app.start()
        try await h.settle()
        var screen = try await h.press(.character("v"))
        #expect(screen[0].contains("raw values"))
        #expect(screen.last?.contains("v formatted") == true, "the way back")
        #expect(screen[2].contains("Series      1234567 "))
        #expect(screen[4].contains("Since       \(Self.nowEpochMilliseconds - 300_000)"))
        #expect(screen[7].contains("ratio       0.19360859939327266"))
        screen = try await h.press(.character("v"))
        #expect(!screen[0].contains("raw values"))
        #expect(screen[2].contains("Series      1,234,567"))
    }

    @Test func tableColumnsTakeLabelsFormatsColoursAndAFillColumn() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: Targets
                resource: /targets
                select: data.activeTargets
                show: table
                columns:
                  - { path: labels.job, label: Job }
                  - { path: health, label: Health, colors: { up: green, down: red } }
                  - { path: lastScrapeDuration, label: Scrape, format: duration }
                  - { path: lastError, label: Error, width: fill }
                  - scrapeUrl
            """, columns: 100, rows: 8)
        h.stub("targets", .json("""
            {"data":{"activeTargets":[
              {"labels":{"job":"prometheus"},"health":"up","lastScrapeDuration":0.0041,"lastError":"","scrapeUrl":"http://localhost:9090/metrics"},
              {"labels":{"job":"node"},"health":"down","lastScrapeDuration":10.0,"lastError":"Get \\"http://localhost:9100/metrics\\": dial tcp 127.0.0.1:9100: connect: connection refused","scrapeUrl":"http://localhost:9100/metrics"}
            ]}}
            """))
        h.app.start()
        try await h.settle()
        #expect(Array(h.screen[2...4]) == [
            "│ Job         Health  Scrape  Error                                  scrapeUrl                     │",
            "│ prometheus  up      4 ms                                           http://localhost:9090/metrics │",
            "│ node        down    10 s    Get \"http://localhost:9100/metrics\":…  http://localhost:9100/metrics │",
        ], "the fill column takes what the others leave; the others keep their natural widths")
        let up = h.backend.buffer[14, 3]
        let down = h.backend.buffer[14, 4]
        #expect(up.symbol == "u" && up.style.foreground == .green)
        #expect(down.symbol == "d" && down.style.foreground == .red)
        #expect(h.backend.buffer[2, 3].symbol == "p" && h.backend.buffer[2, 3].style.foreground != .green, "only the coloured column")
    }

    @Test func aNarrowTableCutsTheNaturalColumnsBeforeTheFillColumn() {
        var table = Table(header: ["Job", "Error", "Url"], rows: [["prometheus", "connection refused by the far end", "http://localhost:9090/metrics"]])
        table.widthRules = [.natural, .fill, .natural]
        #expect(table.columnWidths(for: 60) == [10, 17, 29], "the fill column gets what is left")
        #expect(table.columnWidths(for: 40) == [10, 5, 21], "too narrow: the widest natural column gives way first")
        table.widthRules = [.fixed(4), .natural, .natural]
        #expect(table.columnWidths(for: 100) == [4, 33, 29])
        table.widthRules = [.share(50), .natural, .fill]
        #expect(table.columnWidths(for: 100) == [48, 33, 15], "half of the 96 columns left by the gaps; the fill takes the rest")
    }

    @Test func aValuePaneFormatsAndItsThresholdsColourAndFail() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - title: Disk
                resource: /disk
                every: 1s
                show: value
                select: used
                format: percent
                thresholds: { warn: "> 0.8", fail: "> 0.95" }
            """, columns: 40, rows: 9)
        h.stub("disk", .json(#"{"used":0.5}"#))
        h.app.start()
        try await h.settle()
        let row = h.screen.firstIndex { $0.contains("50%") }
        #expect(row != nil)
        #expect(h.app.panes[0].probe.health == .ok)

        h.stub("disk", .json(#"{"used":0.85}"#))
        try await h.advance(1)
        let warnRow = try #require(h.screen.firstIndex { $0.contains("85%") })
        let warnX = try #require(h.screen[warnRow].firstIndex(of: "8")).utf16Offset(in: h.screen[warnRow])
        #expect(h.backend.buffer[warnX, warnRow].style.foreground == .yellow)
        #expect(h.app.panes[0].probe.health == .degraded, "warn colours and degrades, it does not fail")
        #expect(h.app.panes[0].probe.degradedReason == "0.85 meets the warn threshold > 0.8")

        h.stub("disk", .json(#"{"used":0.97}"#))
        try await h.advance(1)
        let failRow = try #require(h.screen.firstIndex { $0.contains("97%") })
        let failX = try #require(h.screen[failRow].firstIndex(of: "9")).utf16Offset(in: h.screen[failRow])
        #expect(h.backend.buffer[failX, failRow].style.foreground == .red)
        #expect(h.app.panes[0].probe.health == .failing)
        #expect(h.app.panes[0].probe.failure == "0.97 meets the fail threshold > 0.95")
        #expect(h.app.eventLog.entries.last?.event == "ContentFailed")
        #expect(h.screen[0].contains("✓0 ✗1"))
    }

    @Test func labelsThatWouldCollideShowTheirWholePaths() throws {
        let spec = try ConfigLoader.parse("""
            service: { baseURL: https://api.test/ }
            panes:
              - title: A
                resource: /a
                fields: [a.name, b.name, labels.job, { path: c.name, label: name }, "items[0]"]
            """, file: "hammock.yaml", environment: [:])
        #expect(spec.panes[0].fields?.map(\.label) == ["a.name", "b.name", "job", "name", "items[0]"])
    }
}
