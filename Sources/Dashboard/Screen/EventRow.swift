import DashboardConfig
import FoundationEssentials
import Monitor
import TerminalUI

/// One line of the event log as a log reads: when, which pane, what happened in words ("loaded
/// 200 in 3 ms", "failed: 503 Payment gateway unavailable"), and the event's own name.
struct EventRow: Equatable {
    let time: String
    let pane: String
    let words: String
    let event: String
    /// A failure of some kind: drawn in red.
    let isError: Bool

    init(_ entry: EventLog.Entry, timeZone: ZoneInfo?) {
        time = Formatting.clock(entry.time, timeZone: timeZone)
        pane = entry.panes.first ?? "\(entry.method) \(entry.url)"
        event = entry.event
        (words, isError) = Self.describe(entry)
    }

    /// The cells, in the log's column order.
    var cells: [String] { [time, pane, words, event] }

    /// Whether a filter's text is in the row (any column, any case).
    func matches(_ needle: String) -> Bool {
        needle.isEmpty || cells.contains { $0.lowercased().contains(needle) }
    }

    static let header = ["time", "pane", "what happened", "event"]

    /// The room the words keep before the event's name gives up its column.
    static let wordsWidth = 30

    /// What an entry says, in words, and whether it is a failure.
    static func describe(_ entry: EventLog.Entry) -> (String, Bool) {
        let status = entry.statusCode.map(String.init)
        let latency = entry.latency.map(Formatting.latency)
        let message = entry.message
        func joined(_ parts: String?...) -> String { parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ") }
        switch entry.event {
        case "Requested": return ("requested", false)
        case "RequestCancelled": return ("cancelled", false)
        case "ObserverAdded": return ("watched", false)
        case "NewData(Network)": return (joined("loaded", status, latency.map { "in " + $0 }), false)
        case "NewData(Cache)": return ("shown from the cache", false)
        case "NewData(LocalOverride)": return ("changed here", false)
        case "NewData(Wipe)": return ("wiped", false)
        case "NotModified": return (joined("unchanged", status.map { "(\($0))" }, latency.map { "in " + $0 }), false)
        case "Error": return ("failed: " + joined(status, message ?? "no message"), true)
        case "AlertFiring": return ("alert fires: " + (message ?? entry.state ?? ""), true)
        case "AlertReminder": return ("alert still firing: " + (message ?? entry.state ?? ""), true)
        case "AlertResolved": return (joined("alert resolved", message.map { "· " + $0 }), false)
        case "AlertActionFailed": return ("alert action failed: " + (message ?? ""), true)
        case "ContentFailed": return ("content check failed: " + (message ?? ""), true)
        case "ContentRecovered": return ("content check passes again", false)
        default: return (joined(entry.event, status, message), false)
        }
    }
}
