import Dispatch

/// The real scheduler: one timer on the main queue for every action, run in batches.
///
/// A dashboard schedules an action per pane per refresh; with 1,000 panes, one dispatch timer per
/// action meant 1,000 timer registrations and main-thread wake-ups a second. Here actions wait in
/// a heap and a single timer fires for the earliest; each firing runs everything due within
/// `batchWindow` of it, in time order, so nearby actions share one wake-up.
public final class DispatchScheduler: DashboardScheduler {
    private struct Entry {
        let action: @MainActor () -> Void
        let handle: ScheduledAction
    }

    private var heap = TimerHeap<Entry>()
    private var spare: [Entry] = []
    private var counter = 0
    private var armedFor: UInt64?
    private var isFiring = false
    private let window: UInt64
    private let timer: any DispatchSourceTimer

    /// How far ahead of a wake-up actions due then run in it, unless told otherwise.
    public static let defaultBatchWindow = 0.05

    /// Actions due within `batchWindow` seconds of each other run in the same wake-up.
    public init(batchWindow: Double = defaultBatchWindow) {
        window = UInt64(max(0, batchWindow) * 1e9)
        timer = DispatchSource.makeTimerSource(queue: .main)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.fire() }
        }
        timer.resume()
    }

    isolated deinit {
        timer.cancel()
    }

    public func schedule(after seconds: Double, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
        counter += 1
        let handle = ScheduledAction()
        // Clamped: no delay, however it was computed, can overflow the nanosecond clock (a year at most).
        let delay = seconds.isFinite ? min(max(0, seconds), 31_536_000) : 31_536_000
        let due = DispatchTime.now().uptimeNanoseconds + UInt64(delay * 1e9)
        heap.push(Entry(action: action, handle: handle), due: due, order: counter)
        if !isFiring, due < armedFor ?? .max { arm(due) }
        return handle
    }

    /// Actions waiting to run (cancelled ones included until their time comes).
    public var pendingCount: Int { heap.count }

    private func arm(_ due: UInt64) {
        armedFor = due
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: due), repeating: .never, leeway: .nanoseconds(Int(window / 2)))
    }

    private func fire() {
        armedFor = nil
        let horizon = DispatchTime.now().uptimeNanoseconds + window
        // Actions scheduled while these run wait for the next firing, even if already due. The
        // list's storage is kept from one firing to the next.
        var due = spare
        spare = []
        while let first = heap.firstDue, first <= horizon { due.append(heap.pop()) }
        isFiring = true
        for entry in due where !entry.handle.isCancelled { entry.action() }
        isFiring = false
        due.removeAll(keepingCapacity: true)
        spare = due
        if let next = heap.firstDue { arm(next) }
    }
}
