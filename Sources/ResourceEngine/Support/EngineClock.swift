import Dispatch
import FoundationEssentials

/// The source of "now" for every timestamp the engine makes.
///
/// Staleness (`expirationTime`, `retryTime`), entity and error timestamps all read this clock, so a
/// test can inject a manual one and move time forward without sleeping.
public protocol EngineClock: Sendable {
    /// Seconds since an arbitrary fixed origin; only differences between readings matter.
    var now: TimeInterval { get }

    /// Runs `action` on the main actor once `seconds` have passed on this clock, unless the
    /// returned timer is cancelled first. The default waits on the main queue, by the wall
    /// clock (right for `SystemClock`); a clock that moves otherwise runs its own timers, so a
    /// test drives them by moving it.
    @MainActor
    func schedule(after seconds: TimeInterval, _ action: @escaping @MainActor @Sendable () -> Void) -> EngineTimer
}

extension EngineClock {
    @MainActor
    public func schedule(after seconds: TimeInterval, _ action: @escaping @MainActor @Sendable () -> Void) -> EngineTimer {
        let timer = EngineTimer()
        DispatchQueue.main.asyncAfter(deadline: .now() + max(0, seconds)) {
            MainActor.assumeIsolated { if !timer.isCancelled { action() } }
        }
        return timer
    }
}

extension EngineClock {
    /// Runs `action` on the main actor every `seconds` on this clock, the first time `seconds`
    /// from now, until the returned timer is cancelled. Each run is timed from the one before,
    /// so a slow action delays the next rather than letting runs pile up.
    ///
    /// - Precondition: `seconds` is greater than zero.
    @MainActor
    public func schedule(every seconds: TimeInterval, _ action: @escaping @MainActor @Sendable () -> Void) -> EngineTimer {
        precondition(seconds > 0, "a repeating timer needs an interval greater than zero")
        let timer = EngineTimer()
        runRepeatedly(every: seconds, until: timer, action)
        return timer
    }

    @MainActor
    private func runRepeatedly(every seconds: TimeInterval, until timer: EngineTimer, _ action: @escaping @MainActor @Sendable () -> Void) {
        _ = schedule(after: seconds) {
            guard !timer.isCancelled else { return }
            action()
            guard !timer.isCancelled else { return }
            runRepeatedly(every: seconds, until: timer, action)
        }
    }
}

/// An action an `EngineClock` will run; `cancel()` keeps it from running.
@MainActor
public final class EngineTimer {
    /// True once `cancel()` was called: the action will not run.
    public private(set) var isCancelled = false

    /// A timer not yet cancelled (a clock of one's own makes one for each action it schedules).
    public init() {}

    /// Keeps the action from running, if it has not run yet.
    public func cancel() {
        isCancelled = true
    }
}

/// The wall clock: `Date().timeIntervalSinceReferenceDate`.
public struct SystemClock: EngineClock {
    /// The wall clock.
    public init() {}
    public var now: TimeInterval { Date().timeIntervalSinceReferenceDate }
}
