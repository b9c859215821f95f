import FoundationEssentials

/// A pane's probes in a row, good and bad, and whether its alert is firing: a pane fails after
/// `failAfter` failed probes in a row (degraded before) and is ok again after `recoverAfter`
/// good ones (degraded, recovering, before).
public struct AlertTracker: Sendable, Equatable {
    public enum Transition: Sendable, Equatable {
        case none, fired, resolved
    }

    public private(set) var badInARow = 0
    public private(set) var goodInARow = 0
    public private(set) var firing = false
    /// When the first failed probe of the current trouble came (kept while recovering).
    public private(set) var troubleSince: TimeInterval?
    /// When the alert fired, while it fires.
    public private(set) var firedAt: TimeInterval?
    /// How many failed probes the trouble has had, while it lasts.
    public private(set) var failedProbes = 0

    public init() {}

    /// Counts one finished probe; says whether the alert fired or resolved with it.
    public mutating func record(good: Bool, at time: TimeInterval, failAfter: Int, recoverAfter: Int) -> Transition {
        if good {
            goodInARow += 1
            badInARow = 0
            if firing, goodInARow >= max(1, recoverAfter) {
                firing = false
                firedAt = nil
                troubleSince = nil
                failedProbes = 0
                return .resolved
            }
            if !firing {
                troubleSince = nil
                failedProbes = 0
            }
            return .none
        }
        if troubleSince == nil { troubleSince = time }
        badInARow += 1
        goodInARow = 0
        failedProbes += 1
        if !firing, badInARow >= max(1, failAfter) {
            firing = true
            firedAt = time
            return .fired
        }
        return .none
    }
}
