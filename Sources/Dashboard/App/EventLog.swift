import Foundation
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
    }

    public let capacity: Int
    public private(set) var entries: [Entry] = []

    public init(capacity: Int = 500) {
        self.capacity = capacity
    }

    public mutating func append(_ entry: Entry) {
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }
}
