@testable import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// An idle dashboard wakes only when its text would change: the header's minute, a data age.
@MainActor
@Suite struct IdleTickTests {
    @Test func ageTextChangesAtItsUnitBoundaries() {
        #expect(Formatting.untilAgeChanges(0) == 1)
        #expect(abs(Formatting.untilAgeChanges(0.4) - 0.6) < 1e-9)
        #expect(abs(Formatting.untilAgeChanges(59.5) - 0.5) < 1e-9)
        #expect(Formatting.untilAgeChanges(60) == 60)
        #expect(Formatting.untilAgeChanges(61) == 59)
        #expect(Formatting.untilAgeChanges(3599) == 1)
        #expect(Formatting.untilAgeChanges(3600) == 3600)
        #expect(Formatting.untilAgeChanges(86_400 + 5) == 86_400 - 5)
        // Each boundary really is where the text changes.
        for age in [0.5, 1.5, 59.2, 60.5, 119.0, 3599.5, 7000.0] {
            let next = Formatting.untilAgeChanges(age)
            #expect(Formatting.age(age + next - 0.001) == Formatting.age(age))
            #expect(Formatting.age(age + next + 0.001) != Formatting.age(age))
        }
    }

    @Test func theHeaderClockChangesOnTheMinute() {
        let now: TimeInterval = 800_000_000  // 2026-05-09 06:13:20 UTC
        #expect(Formatting.untilClockChanges(now) == 40)
        #expect(Formatting.clock(now, timeZone: ZoneInfo.utc, seconds: false) == "06:13")
        #expect(Formatting.clock(now + 40, timeZone: ZoneInfo.utc, seconds: false) == "06:14")
        #expect(Formatting.untilClockChanges(-10) == 10)
    }

    @Test func anIdleDashboardSleepsUntilItsTextWouldChangeAndWakesForEvents() async throws {
        let h = try DashboardHarness("""
            title: Idle
            service:
              baseURL: https://api.test/
            panes:
              - title: Health
                resource: /health
                every: 1h
                show: value
                select: status
            """, columns: 60, rows: 8)
        h.stub("health", .json(#"{"status":"UP"}"#))
        h.app.start()
        try await h.settle()
        #expect(h.screen[1].contains("now"))
        #expect(h.app.secondsUntilTheScreenChanges() <= 1.01, "under a minute old, the age changes every second")

        try await h.advance(61)
        #expect(h.screen[1].contains("1m ago"))
        let wait = h.app.secondsUntilTheScreenChanges()
        #expect(wait > 30 && wait < 40, "next change: the header's minute (06:15, 39 s away), got \(wait)")

        // A reload while the next tick is half a minute away: its age must still count from 1s.
        try await h.press(.character("r"))
        #expect(h.screen[1].contains("now"))
        try await h.advance(1.05)
        #expect(h.screen[1].contains("1s ago"))
    }
}

/// Only what is on screen sets the tick: a thousand panes cost a tick what the ones in view cost.
@MainActor
@Suite struct OnScreenTickTests {
    @Test func panesOffScreenSetNoTickUntilTheyComeIntoView() async throws {
        let panes = (0..<20).map { "  - { title: P\($0), resource: /p/\($0), every: 1h, show: value, select: status }" }
        let h = try DashboardHarness("title: Many\nservice:\n  baseURL: https://api.test/\npanes:\n" + panes.joined(separator: "\n"), columns: 60, rows: 8)
        for index in 0..<20 { h.stub("p/\(index)", .json(#"{"status":"UP"}"#)) }
        h.app.start()
        try await h.settle()
        #expect(h.app.panesOnScreen.count == 6, "collapsed: six rows in view")
        try await h.advance(61)
        #expect(h.screen[1].contains("1m ago"))

        // A pane out of view loads again: its age changes in a second, but nothing on screen does.
        let last = h.app.panes[18]
        _ = try await last.probe.resource.load().awaitResult()
        try await h.settle()
        #expect(!h.app.panesOnScreen.contains(last.id))
        try await h.advance(0.3)  // the tick the load pulled in has run: the next is far off
        let wait = h.app.secondsUntilTheScreenChanges()
        #expect(wait > 30 && wait < 40, "next change on screen: the header's minute, got \(wait)")

        // In view, it ticks with its age.
        for _ in 0..<18 { h.app.send(.key(.down)) }  // a list: one row per key
        try await h.settle()
        #expect(h.app.panesOnScreen.contains(last.id))
        #expect(h.screen.contains { $0.contains("P18") && $0.contains("now") }, "\(h.screen)")
        try await h.advance(0.75)
        #expect(h.screen.contains { $0.contains("P18") && $0.contains("1s ago") }, "\(h.screen)")
    }
}
