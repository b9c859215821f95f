import Monitor

/// A scheduler for tests: nothing runs until `advance(by:)` moves its clock past the action's time.
public final class ManualScheduler: DashboardScheduler {
    private struct Entry {
        let due: Double
        let order: Int
        let action: @MainActor () -> Void
        let handle: ScheduledAction
    }

    private let now: @MainActor () -> Double
    private let setNow: @MainActor (Double) -> Void
    private var entries: [Entry] = []
    private var counter = 0

    private let batchWindow: Double

    /// Reads and moves time through the given closures (e.g. a `ManualClock`'s `now` and `set`).
    /// With a `batchWindow`, actions due within it of a firing run in that firing, early, as
    /// `DispatchScheduler`'s do.
    public init(now: @escaping @MainActor () -> Double, setNow: @escaping @MainActor (Double) -> Void, batchWindow: Double = 0) {
        self.now = now
        self.setNow = setNow
        self.batchWindow = batchWindow
    }

    public func schedule(after seconds: Double, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
        counter += 1
        let handle = ScheduledAction()
        entries.append(Entry(due: now() + max(0, seconds), order: counter, action: action, handle: handle))
        return handle
    }

    /// Moves time forward, running every action that falls due, in time order.
    public func advance(by seconds: Double) {
        let target = now() + seconds
        while let next = entries.filter({ !$0.handle.isCancelled && $0.due <= target }).min(by: { ($0.due, $0.order) < ($1.due, $1.order) }) {
            if next.due > now() { setNow(next.due) }
            let horizon = now() + batchWindow
            // Actions scheduled while these run wait for the next firing, even if already due.
            let firing = entries.filter { $0.due <= horizon }.sorted { ($0.due, $0.order) < ($1.due, $1.order) }
            let fired = Set(firing.map(\.order))
            entries.removeAll { fired.contains($0.order) }
            for entry in firing where !entry.handle.isCancelled { entry.action() }
        }
        entries.removeAll { $0.handle.isCancelled }
        setNow(target)
    }

    /// Actions waiting to run.
    public var pendingCount: Int { entries.filter { !$0.handle.isCancelled }.count }
}
