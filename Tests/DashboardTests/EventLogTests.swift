@testable import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
@testable import Monitor
import ResourceEngineTesting
import TerminalUI
import Testing

@Suite struct EventLogTests {
    private func entry(_ n: Int) -> EventLog.Entry {
        EventLog.Entry(time: TimeInterval(n), url: "http://127.0.0.1/e/\(n)", method: "GET", panes: ["E\(n)"], event: "NewData", statusCode: 200, latency: 0.01, message: nil)
    }

    @Test func keepsTheNewestEntriesInOrderAcrossManyAppends() {
        var log = EventLog(capacity: 5)
        for n in 0..<3 { log.append(entry(n)) }
        #expect(log.entries.map(\.time) == [0, 1, 2])
        for n in 3..<1_003 {
            log.append(entry(n))
            #expect(log.entries.count == min(n + 1, 5))
            #expect(log.entries.last?.time == TimeInterval(n))
        }
        #expect(log.entries.map(\.time) == [998, 999, 1000, 1001, 1002])
    }

    @Test func aCapacityOfOneKeepsTheLatest() {
        var log = EventLog(capacity: 1)
        for n in 0..<10 { log.append(entry(n)) }
        #expect(log.entries.map(\.time) == [9])
    }
}

/// The `e` view: scrolls, filters by text, shows one pane's events.
@MainActor
@Suite struct EventLogViewTests {
    @Test func theEventLogScrollsFiltersAndShowsOnePane() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Health, resource: /health, every: 1s, show: value, select: status }
              - { title: Payments, resource: /payments, every: 1s, show: value }
            """, columns: 80, rows: 12)
        h.stub("health", .json(#"{"status":"UP"}"#))
        h.stub("payments", .json(#"{"message":"down"}"#, status: 503))
        h.app.start()
        try await h.settle()
        for _ in 0..<4 { try await h.advance(1) }
        var screen = try await h.press(.character("e"))
        let all = h.app.shownEvents.count
        #expect(screen[2].contains("Events (latest last) · requests hidden") && screen[2].contains("\(all) of "), "\(screen[2])")
        /// A row as the log shows it: its columns in order, aligned.
        func shows(_ line: String, _ event: String) -> Bool {
            let columns = event.components(separatedBy: "  ")
            var rest = Substring(line)
            for column in columns {
                guard let range = rest.range(of: column) else { return false }
                rest = rest[range.upperBound...]
            }
            return true
        }
        #expect(screen[3].contains("time      pane      what happened"), "a header over aligned columns: \(screen[3])")
        let newest = try #require(h.app.shownEvents.last)
        #expect(shows(screen[8], newest), "the newest at the bottom: \(screen[8]) for \(newest)")
        #expect(h.app.shownEvents.contains { $0.contains("Payments  failed: 503 down  Error") }, "in words, with the event's name")
        #expect(h.app.shownEvents.contains { $0.contains("Health  loaded 200 in 0 ms  NewData(Network)") })
        #expect(!h.app.shownEvents.contains { $0.hasSuffix("Requested") })
        let failedRow = try #require(screen.firstIndex { $0.contains("failed: 503 down") })
        let failedColumn = try #require(screen[failedRow].range(of: "failed")).lowerBound.utf16Offset(in: screen[failedRow])
        #expect(h.backend.buffer[failedColumn, failedRow].style.foreground == .red, "a failure in red")

        screen = try await h.press(.character("k"), .character("k"))
        #expect(screen[2].contains("2 newer below"))
        #expect(shows(screen[8], h.app.shownEvents[all - 3]))

        screen = try await h.press(.character("r"))
        #expect(h.app.shownEvents.contains { $0.hasSuffix("Requested") } && h.app.shownEvents.count > all, "r shows the requests")
        #expect(!screen[2].contains("requests hidden"))
        screen = try await h.press(.character("r"))
        #expect(h.app.shownEvents.count == all)

        screen = try await h.press(.character("/"), .character("e"), .character("r"), .character("r"), .enter)
        #expect(screen[2].contains("/err"))
        #expect(h.app.shownEvents.allSatisfy { $0.lowercased().contains("err") } && !h.app.shownEvents.isEmpty)
        #expect(screen.dropFirst(3).prefix(6).allSatisfy { !$0.contains("Health") }, "Health had no errors")

        screen = try await h.press(.character("/"), .escape, .character("f"))
        #expect(h.app.selectedPane?.probe.spec.title == "Health")
        #expect(screen[2].contains("Health only"))
        #expect(h.app.shownEvents.allSatisfy { $0.contains("Health") } && !h.app.shownEvents.isEmpty)
        #expect(screen.last?.contains("f all panes") == true)

        screen = try await h.press(.character("/"), .character("z"), .character("z"), .enter)
        #expect(screen[3].contains("no event matches"))
        try await h.press(.escape)
        #expect(h.app.mode == .normal)
        // Opened again, the log shows everything: last time's filter is not applied without a word.
        screen = try await h.press(.character("e"))
        #expect(h.app.shownEvents.count == all && !screen[2].contains("/zz") && !screen[2].contains("only"))
    }

    /// At 60 columns the words keep their room and the event's own name gives up its column.
    @Test func aNarrowLogKeepsTheWordsAndLeavesOutTheEventsName() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Payments gateway, resource: /payments, every: 1s, show: value }
            """, columns: 60, rows: 12)
        h.stub("payments", .json(#"{"message":"Payment gateway unavailable"}"#, status: 503))
        h.app.start()
        try await h.settle()
        let screen = try await h.press(.character("e"))
        #expect(screen[3].contains("time      pane              what happened") && !screen[3].contains("event"), "\(screen)")
        #expect(screen.contains { $0.contains("failed: 503 Payment gat") && !$0.contains("Error") }, "the words take the room: \(screen)")
    }
}
