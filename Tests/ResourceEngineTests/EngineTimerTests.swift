import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

/// A program's own timers on the service's clock (`schedule(after:)`, `schedule(every:)`): run on
/// the main actor, stopped by `cancel()`, driven by a manual clock in tests.
@MainActor
@Suite struct EngineTimerTests {
    @Test func aRepeatingTimerRunsEachIntervalUntilCancelled() {
        let clock = ManualClock()
        var runs: [TimeInterval] = []
        let timer = clock.schedule(every: 10) { runs.append(clock.now) }
        clock.advance(by: 9.9)
        #expect(runs.isEmpty)
        clock.advance(by: 25.1)
        #expect(runs == [1_010, 1_020, 1_030], "each run at its own time, not all at the end")
        timer.cancel()
        clock.advance(by: 60)
        #expect(runs.count == 3)
        #expect(clock.pendingTimerCount == 0, "a cancelled timer leaves nothing behind once due")
    }

    @Test func cancellingFromInsideTheActionStopsIt() {
        let clock = ManualClock()
        var runs = 0
        var timer: EngineTimer?
        timer = clock.schedule(every: 1) {
            runs += 1
            if runs == 2 { timer?.cancel() }
        }
        clock.advance(by: 10)
        #expect(runs == 2)
        #expect(clock.pendingTimerCount == 0)
    }

    @Test func aOneShotTimerRunsOnceAndNotWhenCancelled() {
        let clock = ManualClock()
        var fired: [String] = []
        _ = clock.schedule(after: 5) { fired.append("kept") }
        clock.schedule(after: 5) { fired.append("cancelled") }.cancel()
        clock.advance(by: 20)
        #expect(fired == ["kept"])
    }

    /// On the system clock the timers wait on the main queue, as a program's `dispatchMain()` runs it.
    @Test func onTheSystemClockTheMainQueueRunsThem() async throws {
        let clock = SystemClock()
        var runs = 0
        let timer = clock.schedule(every: 0.01) { runs += 1 }
        defer { timer.cancel() }
        try await waitUntil("three runs") { runs >= 3 }
        #expect(runs >= 3)
    }
}
