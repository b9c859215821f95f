import Foundation

/// The source of "now" for every timestamp the engine makes.
///
/// Staleness (`expirationTime`, `retryTime`), entity and error timestamps all read this clock, so a
/// test can inject a manual one and move time forward without sleeping.
public protocol EngineClock: Sendable {
    /// Seconds since an arbitrary fixed origin; only differences between readings matter.
    var now: TimeInterval { get }
}

/// The wall clock: `Date().timeIntervalSinceReferenceDate`.
public struct SystemClock: EngineClock {
    public init() {}
    public var now: TimeInterval { Date().timeIntervalSinceReferenceDate }
}
