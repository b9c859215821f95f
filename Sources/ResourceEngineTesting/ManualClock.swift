import Foundation
import ResourceEngine
import Synchronization

/// A clock that moves only when told to, so staleness tests never sleep. Its timers run when it
/// is moved past them, in time order, each at its own time.
public final class ManualClock: EngineClock {
    private struct Pending: Sendable {
        let due: TimeInterval
        let order: Int
        let action: @MainActor @Sendable () -> Void
        let timer: EngineTimer
    }

    private let time: Mutex<TimeInterval>
    private let pending = Mutex<(timers: [Pending], count: Int)>(([], 0))

    /// Starts at `start` seconds (an arbitrary origin well away from zero by default).
    public init(start: TimeInterval = 1_000) {
        time = Mutex(start)
    }

    public var now: TimeInterval { time.withLock { $0 } }

    /// Moves the clock forward, running the timers that fall due.
    @MainActor
    public func advance(by seconds: TimeInterval) {
        set(now + seconds)
    }

    /// Sets the clock to an absolute reading, running the timers that fall due on the way (each
    /// at its own time).
    @MainActor
    public func set(_ seconds: TimeInterval) {
        while let next = nextDue(by: seconds) {
            time.withLock { $0 = max($0, next.due) }
            if !next.timer.isCancelled { next.action() }
        }
        time.withLock { $0 = seconds }
    }

    @MainActor
    public func schedule(after seconds: TimeInterval, _ action: @escaping @MainActor @Sendable () -> Void) -> EngineTimer {
        let timer = EngineTimer()
        let due = now + max(0, seconds)
        pending.withLock { pending in
            pending.count += 1
            pending.timers.append(Pending(due: due, order: pending.count, action: action, timer: timer))
        }
        return timer
    }

    /// Timers not yet run.
    public var pendingTimerCount: Int { pending.withLock { $0.timers.count } }

    /// Takes out the earliest timer due by `limit`.
    private func nextDue(by limit: TimeInterval) -> Pending? {
        pending.withLock { pending in
            guard let index = pending.timers.indices.filter({ pending.timers[$0].due <= limit })
                .min(by: { (pending.timers[$0].due, pending.timers[$0].order) < (pending.timers[$1].due, pending.timers[$1].order) })
            else { return nil }
            return pending.timers.remove(at: index)
        }
    }
}
