import Foundation
import ResourceEngine
import Synchronization

/// A clock that moves only when told to, so staleness tests never sleep.
public final class ManualClock: EngineClock {
    private let time: Mutex<TimeInterval>

    /// Starts at `start` seconds (an arbitrary origin well away from zero by default).
    public init(start: TimeInterval = 1_000) {
        time = Mutex(start)
    }

    public var now: TimeInterval { time.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        time.withLock { $0 += seconds }
    }

    /// Sets the clock to an absolute reading.
    public func set(_ seconds: TimeInterval) {
        time.withLock { $0 = seconds }
    }
}
