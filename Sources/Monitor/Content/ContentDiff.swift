import FoundationEssentials
import ResourceEngine

/// What changed between two answers of a pane: for JSON the paths whose values differ, with the
/// old and the new value (`items[3].price: 23.14 → 23.51`); for text the lines that differ. At
/// most `limit` changes are listed; `more` counts the rest.
public struct ContentDiff: Sendable, Equatable {
    /// One difference; nil where the value is absent (added or removed).
    public struct Change: Sendable, Equatable {
        public let path: String
        public let old: String?
        public let new: String?

        /// "items[3].price: 23.14 → 23.51", "tags[2]: added \"beta\"", "line 12: − old".
        public var line: String {
            switch (old, new) {
            case (let old?, let new?): "\(path): \(old) → \(new)"
            case (nil, let new?): "\(path): added \(new)"
            case (let old?, nil): "\(path): removed \(old)"
            case (nil, nil): path
            }
        }
    }

    public internal(set) var changes: [Change] = []
    /// Changes found beyond `limit`.
    public internal(set) var more = 0

    public static let limit = 50
    /// Past this many, changes are no longer counted (`more` says "at least"): an answer that
    /// changed everywhere is not walked to its end.
    static let countLimit = 10_000
    var isFull: Bool { more >= Self.countLimit }
    /// The longest value shown, in characters.
    static let valueLength = 120

    public var isEmpty: Bool { changes.isEmpty && more == 0 }

    /// "items[3].price: 23.14 → 23.51; total: 90 → 91 (+3 more)", for the event log.
    public var summary: String {
        let shown = changes.prefix(3).map(\.line).joined(separator: "; ")
        let rest = changes.count - min(3, changes.count) + more
        return shown + (rest > 0 ? " (+\(rest)\(isFull ? " or" : "") more)" : "")
    }

    mutating func add(_ change: Change) {
        if changes.count < Self.limit { changes.append(change) } else { more += 1 }
    }

    /// The differences between two answers' contents (JSON, or text).
    @MainActor
    public static func between(_ old: any Sendable, _ new: any Sendable) -> ContentDiff {
        var diff = ContentDiff()
        switch (old, new) {
        case (let old as String, let new as String): diff.lines(old, new)
        default: diff.walk(ContentCheck.json(from: old), ContentCheck.json(from: new), path: "")
        }
        return diff
    }

    @MainActor
    private mutating func walk(_ old: JSON?, _ new: JSON?, path: String) {
        guard !isFull else { return }
        switch (old, new) {
        case (.object(let a)?, .object(let b)?):
            for (key, value) in a.members { walk(value, b[key], path: Self.member(path, key)) }
            for (key, value) in b.members where a[key] == nil { walk(nil, value, path: Self.member(path, key)) }
        case (.array(let a)?, .array(let b)?):
            for index in 0..<max(a.count, b.count) {
                walk(index < a.count ? a[index] : nil, index < b.count ? b[index] : nil, path: path + "[\(index)]")
            }
        default:
            guard old != new else { return }
            add(Change(path: path.isEmpty ? "value" : path, old: old.map(Self.text), new: new.map(Self.text)))
        }
    }

    /// Lines that differ, after the lines both share at the start and the end.
    private mutating func lines(_ old: String, _ new: String) {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false)
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var endA = a.count
        var endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] {
            endA -= 1
            endB -= 1
        }
        for index in start..<max(endA, endB) where !isFull {
            let removed = index < endA ? Self.clip(String(a[index])) : nil
            let added = index < endB ? Self.clip(String(b[index])) : nil
            add(Change(path: "line \(index + 1)", old: removed, new: added))
        }
    }

    private static func member(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        return plain ? (path.isEmpty ? key : path + "." + key) : path + "[\"" + key + "\"]"
    }

    @MainActor
    private static func text(_ value: JSON) -> String {
        switch value {
        case .string(let text): clip("\"" + text + "\"")
        default: clip(ContentCheck.inline(value))
        }
    }

    private static func clip(_ text: String) -> String {
        text.count > valueLength ? String(text.prefix(valueLength - 1)) + "…" : text
    }
}
