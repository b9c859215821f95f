import FoundationEssentials

/// When each cache entry's content was last confirmed (a 304, or the same body again), kept in
/// one file beside the entries instead of rewriting every unchanged entry to move its timestamp.
///
/// A confirmation is bound to the version of the entry it confirms: it holds the timestamp that
/// entry's file was written with, and is applied only to a file still holding that timestamp. A
/// file rewritten since (new content, by this process or another sharing the directory) is not
/// confirmed by it. Losing a confirmation (a crash, another process writing the table first)
/// shows an entry older than it is, never fresher.
struct CacheConfirmations {
    struct Confirmation: Equatable {
        /// The timestamp the entry's file was written with.
        var written: TimeInterval
        /// When its content was last confirmed.
        var confirmed: TimeInterval
    }

    /// The table's file name in the cache's directory (never an entry's name, nor one its owner gives its own files).
    static let fileName = "confirmations.json"
    static let formatVersion = 1
    /// Entries kept at most; beyond it the least recently confirmed go.
    static let capacity = 65_536
    /// A table file larger than this was not written by this cache and is not read.
    static let largestFile = 16 << 20

    private(set) var entries: [String: Confirmation] = [:]

    /// When `name`'s file, written with `written`, was last confirmed; nil if not since it was written.
    func confirmed(_ name: String, written: TimeInterval) -> TimeInterval? {
        guard let entry = entries[name], entry.written == written else { return nil }
        return entry.confirmed
    }

    /// Notes that `name`'s file, written with `written`, was confirmed at `confirmed`. False when
    /// that tells nothing new.
    @discardableResult
    mutating func confirm(_ name: String, written: TimeInterval, at confirmed: TimeInterval) -> Bool {
        guard confirmed > written, confirmed > (self.confirmed(name, written: written) ?? -.infinity) else { return false }
        if entries[name] == nil, entries.count >= Self.capacity { dropOldest() }
        entries[name] = Confirmation(written: written, confirmed: confirmed)
        return true
    }

    mutating func remove(_ name: String) {
        entries[name] = nil
    }

    /// Keeps only the entries `keep` accepts (files that exist).
    mutating func prune(keeping keep: (String) -> Bool) {
        entries = entries.filter { keep($0.key) }
    }

    /// Takes what `other` (the table as another process wrote it) knows better: an entry this
    /// table lacks, one bound to a newer file, or a later confirmation of the same file.
    mutating func merge(_ other: CacheConfirmations) {
        for (name, theirs) in other.entries {
            if let ours = entries[name], ours.written > theirs.written || (ours.written == theirs.written && ours.confirmed >= theirs.confirmed) {
                continue
            }
            if entries[name] == nil, entries.count >= Self.capacity { continue }
            entries[name] = theirs
        }
    }

    private mutating func dropOldest() {
        let keep = entries.sorted { $0.value.confirmed > $1.value.confirmed }.prefix(Self.capacity * 3 / 4)
        entries = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }

    // MARK: Format

    /// The file's contents: `{"hammockConfirmations": 1, "entries": {name: [written, confirmed]}}`.
    func encoded() -> Data? {
        var table = JSONObject()
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            table[name] = .array([.double(entry.written), .double(entry.confirmed)])
        }
        let object: JSONObject = ["hammockConfirmations": .int(Self.formatVersion), "entries": .object(table)]
        return try? JSON.object(object).serialized()
    }

    /// The table a file holds; nil if it is not one. Entries with a name the cache would not give
    /// an entry, or times that are not plausible, are left out.
    static func decode(_ data: Data) -> CacheConfirmations? {
        guard data.count <= largestFile, let object = (try? JSONParser.parse(data))?.objectValue,
            object["hammockConfirmations"]?.intValue == formatVersion,
            let table = object["entries"]?.objectValue
        else { return nil }
        var decoded = CacheConfirmations()
        for (name, value) in table.members where CacheDirectory.isEntryName(name) {
            guard let pair = value.arrayValue, pair.count == 2,
                let written = pair[0].doubleValue, let confirmed = pair[1].doubleValue,
                DiskEntityCache.isPlausible(written), DiskEntityCache.isPlausible(confirmed)
            else { continue }
            decoded.confirm(name, written: written, at: confirmed)
        }
        return decoded
    }
}
