/// A binary min-heap by (due, order), outside the main actor: closures in a main-actor method
/// (the buffer's) check the executor on every call, and the heap is worked twice per probe.
struct TimerHeap<Element> {
    private var entries: [(due: UInt64, order: Int, element: Element)] = []

    var count: Int { entries.count }
    var firstDue: UInt64? { entries.first?.due }

    // The sifting loops work on the buffer and compare keys in place: reading an entry out for a
    // comparison retained and released its element.
    mutating func push(_ element: Element, due: UInt64, order: Int) {
        entries.append((due, order, element))
        entries.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.precedes(heap, child, parent) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
    }

    mutating func pop() -> Element {
        let first = entries[0].element
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        entries.withUnsafeMutableBufferPointer { heap in
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, Self.precedes(heap, left, smallest) { smallest = left }
                if right < heap.count, Self.precedes(heap, right, smallest) { smallest = right }
                guard smallest != parent else { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }

    private static func precedes(_ heap: UnsafeMutableBufferPointer<(due: UInt64, order: Int, element: Element)>, _ i: Int, _ j: Int) -> Bool {
        (heap[i].due, heap[i].order) < (heap[j].due, heap[j].order)
    }
}
