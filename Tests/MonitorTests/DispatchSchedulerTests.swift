import Dispatch
@testable import Monitor
import ResourceEngineTesting
import Testing

/// The real scheduler, on the main queue. Each wait is for the actions themselves, bounded.
@MainActor
@Suite struct DispatchSchedulerTests {
    @Test func runsActionsInTimeOrderSkippingCancelledOnes() async throws {
        let scheduler = DispatchScheduler(batchWindow: 0)
        var ran: [String] = []
        _ = try await awaitCallback("the last action") { (done: @escaping @MainActor (Bool) -> Void) in
            _ = scheduler.schedule(after: 0.03) { ran.append("c"); done(true) }
            _ = scheduler.schedule(after: 0.01) { ran.append("a") }
            let cancelled = scheduler.schedule(after: 0.02) { ran.append("never") }
            _ = scheduler.schedule(after: 0.02) { ran.append("b") }
            cancelled.cancel()
        }
        #expect(ran == ["a", "b", "c"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func actionsDueCloseTogetherShareOneWakeUp() async throws {
        let scheduler = DispatchScheduler(batchWindow: 10)
        var turns: [Int] = []
        var turn = 0
        _ = try await awaitCallback("the batch") { (done: @escaping @MainActor (Bool) -> Void) in
            for i in 0..<100 {
                _ = scheduler.schedule(after: 0.001 * Double(i)) {
                    turns.append(turn)
                    // Runs before any later wake-up, which would then see a larger number.
                    DispatchQueue.main.async { turn += 1 }
                    if turns.count == 100 { done(true) }
                }
            }
        }
        #expect(Set(turns).count == 1, "a hundred actions within the window ran in one firing")
    }

    @Test func anActionCanScheduleTheNextOneAsACadenceDoes() async throws {
        let scheduler = DispatchScheduler(batchWindow: 0)
        var count = 0
        _ = try await awaitCallback("three beats") { (done: @escaping @MainActor (Bool) -> Void) in
            @MainActor func beat() {
                count += 1
                if count == 3 { done(true) } else { _ = scheduler.schedule(after: 0.005) { beat() } }
            }
            _ = scheduler.schedule(after: 0) { beat() }
            _ = scheduler.schedule(after: 600) { Issue.record("a far action must not run") }
        }
        #expect(count == 3)
        #expect(scheduler.pendingCount == 1, "the far action still waits")
    }
}
