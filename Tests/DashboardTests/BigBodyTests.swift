@testable import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// What a pane keeps for display is bounded, whatever the body: a frame draws from bounded lines
/// and values, and a huge error message or title cannot reach every frame whole.
@MainActor
@Suite struct BigBodyTests {
    @Test func aSevenMegabyteLineIsKeptToABoundedLineThatSaysWhatWasLeftOut() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Log, resource: /log, show: text }
            """, columns: 60, rows: 12)
        h.stub("log", .text(String(repeating: "x", count: 7_000_000)))
        h.app.start()
        try await h.settle()
        #expect(h.screen[2] == "│ " + String(repeating: "x", count: 56) + " │")
        let screen = try await h.press(.enter, .end)
        let text = screen.map { $0.replacingOccurrences(of: "│", with: "").trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("… (6998000 more characters)"), "the end of the kept line says how much was left out: \(text)")
    }

    @Test func hugeJSONIsShownAsABoundedNumberOfLines() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Items, resource: /items, show: json }
              - { title: Rows, resource: /items, show: table, columns: [id] }
            """, columns: 80, rows: 12)
        let items = (0..<20_000).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        h.stub("items", .json("[" + items + "]"))
        h.app.start()
        try await h.settle()
        #expect(h.app.content(of: h.app.panes[0])?.lineCount(width: 76) == PaneContentLimits.lines + 1, "5,000 lines and a line saying how many more")
        #expect(h.app.content(of: h.app.panes[1])?.lineCount(width: 76) == PaneContentLimits.lines + 1, "5,000 rows and the header")
        let end = try await h.press(.enter, .end)
        #expect(end.joined().contains("more lines"))
    }

    @Test func aRegexThatWouldBacktrackForeverEndsAtOnceAndTheOtherPanesGoOn() async throws {
        let h = try DashboardHarness(#"""
            service:
              baseURL: https://api.test/
            configure:
              - pattern: /hostile
                pipeline:
                  model: [ { regex: "(a|a)*!x" } ]
            panes:
              - { title: Hostile, resource: /hostile, show: value }
              - { title: Health, resource: /health, show: value }
            """#, columns: 60, rows: 10)
        h.stub("hostile", .text(String(repeating: "a", count: 45)))
        h.stub("health", .json(#"{"status":"UP"}"#))
        h.app.start()
        try await h.settle()
        #expect(h.app.panes[0].probe.failure == #"regex "(a|a)*!x" did not match"#)
        #expect(h.app.panes[1].probe.health == .ok)
    }

    @Test func aFiveMegabyteErrorMessageIsShownAndLoggedBounded() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            configure:
              - pattern: /fail
                pipeline:
                  cleanup: [ { errorMessage: [message] } ]
            panes:
              - { title: Fail, resource: /fail }
            """, columns: 60, rows: 10)
        h.stub("fail", .json(#"{"message":"\#(String(repeating: "E", count: 5_000_000))"}"#, status: 500))
        h.app.start()
        try await h.settle()
        let failure = try #require(h.app.panes[0].probe.failure)
        #expect(failure.count < 2_100 && failure.hasSuffix("more characters)"))
        let logged = try #require(h.app.eventLog.entries.last { $0.event == "Error" }?.message)
        #expect(logged.count < 2_100)
        #expect(h.screen.joined().contains("EEEE"))
    }
}
