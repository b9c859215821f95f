import Dispatch

/// The real scheduler: one timer on the main queue for every action, run in batches.
///
/// A dashboard schedules an action per pane per refresh; with 1,000 panes, one dispatch timer per
/// action meant 1,000 timer registrations and main-thread wake-ups a second. Here actions wait in
/// a heap and a single timer fires for the earliest; each firing runs everything due within
/// `batchWindow` of it, in time order, so nearby actions share one wake-up.
public final class DispatchScheduler: DashboardScheduler {
    private struct Entry {
        let due: UInt64
        let order: Int
        let action: @MainActor () -> Void
        let handle: ScheduledAction

        static func precedes(_ heap: UnsafeMutableBufferPointer<Entry>, _ i: Int, _ j: Int) -> Bool {
            (heap[i].due, heap[i].order) < (heap[j].due, heap[j].order)
        }
    }

    private var heap: [Entry] = []
    private var spare: [Entry] = []
    private var counter = 0
    private var armedFor: UInt64?
    private var isFiring = false
    private let window: UInt64
    private let timer: any DispatchSourceTimer

    /// Actions due within `batchWindow` seconds of each other run in the same wake-up.
    public init(batchWindow: Double = 0.05) {
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
        push(Entry(due: due, order: counter, action: action, handle: handle))
        if !isFiring, armedFor.map({ due < $0 }) ?? true { arm(due) }
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
        while let first = heap.first, first.due <= horizon { due.append(pop()) }
        isFiring = true
        for entry in due where !entry.handle.isCancelled { entry.action() }
        isFiring = false
        due.removeAll(keepingCapacity: true)
        spare = due
        if let next = heap.first { arm(next.due) }
    }

    // MARK: Binary heap by (due, order)

    // The sifting loops work on the heap's buffer and compare keys in place: reading an entry out
    // of the array for a comparison retained and released its action and handle.
    private func push(_ entry: Entry) {
        heap.append(entry)
        heap.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Entry.precedes(heap, child, parent) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
    }

    private func pop() -> Entry {
        let first = heap[0]
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        heap.withUnsafeMutableBufferPointer { heap in
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, Entry.precedes(heap, left, smallest) { smallest = left }
                if right < heap.count, Entry.precedes(heap, right, smallest) { smallest = right }
                guard smallest != parent else { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }
}
