import Dispatch

/// Runs actions later on the main actor; injected so tests control time.
@MainActor
public protocol DashboardScheduler: AnyObject {
    func schedule(after seconds: Double, _ action: @escaping @MainActor () -> Void) -> ScheduledAction
}

/// A scheduled action that can be cancelled.
@MainActor
public final class ScheduledAction {
    /// True once `cancel()` ran.
    public private(set) var isCancelled = false
    private let onCancel: @MainActor () -> Void

    /// `onCancel` runs once, at the first `cancel()`.
    public init(onCancel: @escaping @MainActor () -> Void = {}) {
        self.onCancel = onCancel
    }

    /// Keeps the action from running (if it has not yet).
    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        onCancel()
    }
}
