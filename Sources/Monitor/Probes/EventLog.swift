import FoundationEssentials
import ResourceEngine

/// The last resource events, newest last, for the `e` view and the `events` command.
public struct EventLog: Sendable {
    public struct Entry: Sendable, Equatable {
        public let time: TimeInterval
        public let url: String
        /// The method the resource is loaded with (GET, or its load request's).
        public let method: String
        /// The titles of the panes showing this resource.
        public let panes: [String]
        public let event: String
        public let statusCode: Int?
        public let latency: TimeInterval?
        public let message: String?
        /// The pane's state after an alert event (failing, unmet, ok).
        public var state: String? = nil
    }

    public let capacity: Int
    /// Up to twice the capacity: trimming in halves makes an append O(1) amortised (dropping one
    /// from the front of 500 on every event moved the whole array, once per probe).
    private var storage: [Entry] = []

    /// The newest `capacity` entries, oldest first.
    public var entries: ArraySlice<Entry> { storage.suffix(capacity) }

    public init(capacity: Int = 500) {
        self.capacity = max(1, capacity)
    }

    public mutating func append(_ entry: Entry) {
        storage.append(entry)
        if storage.count >= 2 * capacity { storage.removeFirst(storage.count - capacity) }
    }
}
