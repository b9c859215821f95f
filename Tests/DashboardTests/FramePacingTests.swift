@testable import Dashboard
import DashboardTesting
import Foundation
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// When background frames are drawn: paced, and held briefly for loads that have just started, so a
/// burst of quick probes is drawn once, with its answers, instead of as spinners and then answers.
@MainActor
@Suite struct FramePacingTests {
    @Test func framesComeNoSoonerThanTheIntervalAfterTheLast() {
        var pacing = FramePacing(minimumInterval: 0.2)
        #expect(pacing.settle == 0.05, "a quarter of the interval")
        #expect(pacing.wait(now: 100) == 0, "the first frame waits for nothing")
        pacing.drew(at: 100)
        #expect(abs(pacing.wait(now: 100.05) - 0.15) < 1e-9)
        #expect(pacing.wait(now: 100.3) == 0)
    }

    @Test func aFrameWaitsOnceAndBrieflyForLoadsThatHaveJustStarted() {
        var pacing = FramePacing(minimumInterval: 0.2, settle: 0.05)
        pacing.drew(at: 10)
        pacing.loadStarted(at: 10.5)
        #expect(pacing.hold(now: 10.5, loading: false) == nil, "nothing loads: nothing to wait for")
        let hold = pacing.hold(now: 10.51, loading: true)
        #expect(hold.map { abs($0 - 0.04) < 1e-9 } == true, "until 50 ms after the load started")
        #expect(pacing.releases(loading: true) == false)
        #expect(pacing.releases(loading: false), "the loads answered: draw now")
        pacing.loadStarted(at: 10.55)
        #expect(pacing.hold(now: 10.55, loading: true) == nil, "held once only, however many loads start meanwhile")
        pacing.drew(at: 10.55)
        #expect(pacing.releases(loading: false) == false, "a drawn frame is not held")

        pacing.loadStarted(at: 11)
        #expect(pacing.hold(now: 11.06, loading: true) == nil, "a load running longer than the settle time holds nothing")
    }

    @Test func noSettleTimeHoldsNothing() {
        var pacing = FramePacing(minimumInterval: 0)
        pacing.loadStarted(at: 5)
        #expect(pacing.hold(now: 5, loading: true) == nil)
    }
}

/// The same, through the whole dashboard: fake networking holding responses, a manual clock.
@MainActor
@Suite struct FramePacingDashboardTests {
    private static let config = """
        title: Paced
        service:
          baseURL: https://api.test/
        panes:
          - { title: Health, resource: /health, every: 1s, show: value, select: status }
          - { title: Users, resource: /users, every: 1s, show: value, select: count }
        """

    @Test func aFrameWaitsForLoadsThatJustStartedAndShowsTheirAnswers() async throws {
        // A settle time no test run reaches: the frame is drawn when the loads answer, or by a key.
        let h = try DashboardHarness(Self.config, columns: 60, rows: 8, loadSettleTime: 3_600)
        h.stub("health", .json(#"{"status":"UP"}"#))
        h.stub("users", .json(#"{"count":1}"#))
        h.app.start()
        try await h.settle()
        let before = h.screen
        let frames = h.app.framesDrawn
        #expect(before.joined().contains("UP"))

        h.network.holdsResponses = true
        h.stub("users", .json(#"{"count":2}"#))
        h.scheduler.advance(by: 1.05)
        try await drainMainQueue(turns: 5)
        #expect(h.app.panes.allSatisfy { $0.probe.resource.isLoading })
        #expect(h.app.framesDrawn == frames, "no frame of spinners for loads that may answer at once")
        #expect(h.screen == before)

        try await h.release()
        #expect(h.app.framesDrawn == frames + 1, "drawn as soon as the loads answered")
        #expect(h.screen.joined().contains("2"), "\(h.screen)")
        #expect(!h.screen.joined().contains("loading"))

        // With nothing loading, the next tick is for the ages ("now" → "1s ago"), not a spinner's.
        let settled = h.app.framesDrawn
        h.scheduler.advance(by: 0.5)
        try await drainMainQueue(turns: 3)
        #expect(h.app.framesDrawn == settled, "no spinner tick after the loads ended")

        // A key is never held.
        h.network.holdsResponses = true
        h.scheduler.advance(by: 0.6)
        try await drainMainQueue(turns: 3)
        #expect(h.app.panes.contains { $0.probe.resource.isLoading })
        let held = h.app.framesDrawn
        h.app.send(.key(.tab))
        try await drainMainQueue(turns: 3)
        #expect(h.app.framesDrawn == held + 1)
        try await h.release()
    }
}
