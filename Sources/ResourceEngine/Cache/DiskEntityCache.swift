import Dispatch
import FoundationEssentials
import Glibc
import PrivateFiles
import Synchronization

/// An `EntityCache` in a directory: one small JSON file per entry.
///
/// File names are SHA-256 hashes of the keys, so URLs (which may carry tokens) never appear on
/// disk as names, and only content plus content type, charset and ETag are stored — never request
/// or response headers such as cookies. A file that does not decode is ignored and deleted.
///
/// Writes are behind and coalesced: a change is noted under a lock on the caller's thread and
/// waits up to `writeDelay` for one drain on a private queue, and only the latest change per
/// entry reaches the disk, so a program polling 1,000 endpoints a second writes each file at
/// most once per delay instead of once per response, and a response costs no thread hop. A change
/// that only moves the timestamp (a 304, or the same body again) rewrites no entry: it goes into
/// one table of confirmations (`CacheConfirmations`), written at most every `timestampRefresh`,
/// so endpoints that do not change cost one small file write a minute between them all;
/// `flush()` writes everything. Reads see pending changes. What a write's `prepare` makes of an
/// entity (redaction) is computed only when the entry is written to disk. Writes are atomic
/// (temporary file, then rename). The directory
/// is kept under `maxBytes` by removing the least recently written files, from an in-memory index
/// of sizes (the directory is listed once, not on every write).
public final class DiskEntityCache: EntityCache, @unchecked Sendable {
    /// The location as given (`--cache-dir`, or the default).
    public let location: URL
    /// Where the entries are: the owner's own directory in `location` (see `CacheDirectory`).
    public let directory: URL
    /// Why the cache is off (its directory is not its owner's or cannot be made), or nil.
    public let problem: String?
    /// The most bytes the entries may take; beyond it the least recently written go first.
    public let maxBytes: Int
    /// How long a change may wait before it is written.
    public let writeDelay: TimeInterval
    /// How long a change that only moves an entry's timestamp may wait before it is written (to
    /// the table of confirmations).
    public let timestampRefresh: TimeInterval
    static let formatVersion = 1

    private let queue = DispatchQueue(label: "resource-engine.disk-cache")
    private enum Change {
        case write(Entity, prepare: (@Sendable (Entity) -> Entity)?)
        case touch(TimeInterval)
        case remove
    }
    /// Changes not yet drained, by key, noted on the callers' threads.
    private struct Incoming {
        var changes: [String: Change] = [:]
        var drainScheduled = false
    }
    private let incoming = Mutex(Incoming())
    // Everything below is touched only on `queue`.
    /// File names already worked out, by key (a SHA-256 per response was a tenth of a probe).
    private var names: [String: String] = [:]
    /// What each file holds: a hash of everything but the timestamp, and the timestamp.
    private var written: [String: (digest: Int, timestamp: TimeInterval)] = [:]
    /// When entries' unchanged content was last confirmed, as the table in memory has it.
    private var confirmations = CacheConfirmations()
    /// The oldest time the disk shows for an entry confirmed since the table was last written:
    /// the table is due when a confirmation is `timestampRefresh` past it. Nil: nothing to write.
    private var confirmationsStaleSince: TimeInterval?
    /// The latest confirmation since the table was last written.
    private var confirmationsLatest = -TimeInterval.infinity
    private var index: [String: (size: Int, order: Double)]?
    private var indexedBytes = 0
    private var lastOrder = 0.0
    private var statistics = Statistics()

    /// What the cache has done on disk, for tests and logs.
    public struct Statistics: Sendable, Equatable {
        /// Files written (each one a whole entry, atomically).
        public var filesWritten = 0
        /// Files removed, by `removeEntity` or to stay within `maxBytes`.
        public var filesRemoved = 0
        /// Times the table of confirmations was written (not counted in `filesWritten`).
        public var confirmationsWritten = 0
    }

    /// A cache in `directory` (created if needed), at most `maxBytes` large, writing changes at
    /// most `writeDelay` seconds after they happen, timestamp-only changes after
    /// `timestampRefresh`, and everything at once on `flush()`.
    public init(
        directory: URL, owner: CacheDirectory.Owner = .resourceEngine, maxBytes: Int = 64 << 20, writeDelay: TimeInterval = 5,
        timestampRefresh: TimeInterval = 60
    ) {
        self.location = directory
        self.maxBytes = maxBytes
        self.writeDelay = writeDelay
        self.timestampRefresh = timestampRefresh
        do {
            self.directory = try CacheDirectory(location: directory, owner: owner).url
            self.problem = nil
        } catch {
            self.directory = directory.appendingPathComponent(owner.name)
            self.problem = "\(error)"
            EngineLog.log(.cache, "cache off: \(error)")
        }
    }

    /// False when the cache is off (`problem`): it then reads nothing and writes nothing.
    public var isUsable: Bool { problem == nil }

    /// `$XDG_CACHE_HOME/APPLICATION`, or `~/.cache/APPLICATION`: an application's default location.
    public static func defaultDirectory(for application: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent(application)
        }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/" + application)
    }

    static func fileName(forKey key: String) -> String {
        SHA256.hex(key) + ".json"
    }

    public func readEntity(forKey key: String) -> Entity? {
        guard isUsable else { return nil }
        return queue.sync {
            loadIndexIfNeeded()
            let name = name(forKey: key)
            switch incoming.withLock({ $0.changes[key] }) {
            case .write(let entity, let prepare): return prepare?(entity) ?? entity
            case .remove: return nil
            case .touch(let timestamp):
                guard var entity = read(name) else { return nil }
                entity.timestamp = timestamp
                return entity
            case nil: return read(name)
            }
        }
    }

    public func writeEntity(_ entity: Entity, forKey key: String) {
        note(.write(entity, prepare: nil), forKey: key)
    }

    /// Stores what `prepare` makes of `entity`, computed in the drain and only if the entry is
    /// written (not for a response whose content the file already holds).
    public func writeEntity(_ entity: Entity, forKey key: String, preparedBy prepare: @escaping @Sendable (Entity) -> Entity) {
        note(.write(entity, prepare: prepare), forKey: key)
    }

    public func updateTimestamp(_ timestamp: TimeInterval, forKey key: String) {
        note(.touch(timestamp), forKey: key)
    }

    public func removeEntity(forKey key: String) {
        note(.remove, forKey: key)
    }

    /// Notes `change` for the next drain, scheduling one if none is.
    private func note(_ change: Change, forKey key: String) {
        guard isUsable else { return }
        let schedule = incoming.withLock { state in
            state.changes[key] = Self.merging(change, onto: state.changes[key])
            return Self.claimDrain(&state)
        }
        if schedule { scheduleDrain() }
    }

    /// `newer` applied to what is pending: a timestamp moves a pending write's timestamp and
    /// leaves a pending removal alone; a write or a removal replaces whatever was there.
    private static func merging(_ newer: Change, onto older: Change?) -> Change {
        guard case .touch(let timestamp) = newer, let older else { return newer }
        switch older {
        case .write(var entity, let prepare):
            entity.timestamp = timestamp
            return .write(entity, prepare: prepare)
        case .remove: return .remove
        case .touch: return newer
        }
    }

    /// On `queue`.
    private func name(forKey key: String) -> String {
        if let known = names[key] { return known }
        let name = Self.fileName(forKey: key)
        // Keys are one per resource; a bound keeps config reloads over months from adding up.
        if names.count >= 65_536 { names.removeAll() }
        names[key] = name
        return name
    }

    /// True for the caller that must schedule the drain: the first change since the last one.
    private static func claimDrain(_ state: inout Incoming) -> Bool {
        guard !state.drainScheduled else { return false }
        state.drainScheduled = true
        return true
    }

    /// Writes every pending change now, timestamp-only ones included, and waits for it (orderly
    /// shutdown, tests).
    public func flush() {
        queue.sync { drain(force: true) }
    }

    /// Writes what is due now, as the delayed drain does (tests).
    func writeDue() {
        queue.sync { drain(force: false) }
    }

    /// What has been done on disk so far (pending changes not included).
    public var stats: Statistics {
        queue.sync { statistics }
    }

    // MARK: Draining (on `queue`)

    private func scheduleDrain() {
        queue.asyncAfter(deadline: .now() + writeDelay) { [self] in drain(force: false) }
    }

    /// Applies pending changes: new content is written to its file; a change that leaves the
    /// content as the file has it only confirms that content, in the table of confirmations,
    /// which is written once a confirmation is `timestampRefresh` past what the disk shows (at
    /// once if `force`).
    private func drain(force: Bool) {
        let noted = incoming.withLock { state in
            state.drainScheduled = false
            defer { state.changes = [:] }
            return state.changes
        }
        guard !noted.isEmpty || confirmationsStaleSince != nil else { return }
        var changes: [String: Change] = [:]
        for (key, change) in noted {
            let name = name(forKey: key)
            changes[name] = Self.merging(change, onto: changes[name])
        }
        loadIndexIfNeeded()
        for (name, change) in changes {
            switch change {
            case .write(let entity, let prepare):
                // The digest is of the entity as it came: comparing it costs no `prepare`.
                guard let record = DiskEntityCache.record(entity) else { continue }
                let digest = DiskEntityCache.digest(record)
                if let known = written[name], known.digest == digest {
                    confirm(name, at: entity.timestamp)
                    continue
                }
                let stored = prepare.map { DiskEntityCache.record($0(entity)) } ?? record
                guard let stored, let data = DiskEntityCache.encode(stored, timestamp: entity.timestamp) else { continue }
                if write(data, name: name) {
                    written[name] = (digest, entity.timestamp)
                    confirmations.remove(name)
                }
            case .touch(let timestamp):
                confirm(name, at: timestamp)
            case .remove:
                remove(name)
            }
        }
        trim()
        writeConfirmationsIfDue(force: force)
        if confirmationsStaleSince != nil, incoming.withLock({ Self.claimDrain(&$0) }) { scheduleDrain() }
    }

    /// Notes that the content of `name`'s file was still the latest at `timestamp`.
    private func confirm(_ name: String, at timestamp: TimeInterval) {
        if written[name] == nil { _ = read(name) }  // learns what the file holds, if there is one
        guard let file = written[name]?.timestamp else { return }
        let shown = confirmations.confirmed(name, written: file) ?? file
        guard confirmations.confirm(name, written: file, at: timestamp) else { return }
        confirmationsStaleSince = min(confirmationsStaleSince ?? shown, shown)
        confirmationsLatest = max(confirmationsLatest, timestamp)
        // A confirmed entry is a used one: trimming goes by it, as by a write.
        if let size = index?[name]?.size { record(name, size: size, order: nextOrder()) }
    }

    private func writeConfirmationsIfDue(force: Bool) {
        guard let since = confirmationsStaleSince, force || confirmationsLatest - since >= timestampRefresh else { return }
        confirmationsStaleSince = nil
        confirmationsLatest = -.infinity
        // Another process sharing the directory may have written the table since: keep what it knows.
        if let theirs = readConfirmations() { confirmations.merge(theirs) }
        guard let data = confirmations.encoded() else { return }
        do {
            try PrivateFiles.writeAtomically(data, to: url(CacheConfirmations.fileName))
            statistics.confirmationsWritten += 1
        } catch {
            EngineLog.log(.cache, "cannot write \(CacheConfirmations.fileName): \(String(describing: error))")
        }
    }

    /// The table of confirmations on disk; nil if there is none, or it is not one (then it is removed).
    private func readConfirmations() -> CacheConfirmations? {
        let path = url(CacheConfirmations.fileName).path
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= CacheConfirmations.largestFile,
            let data = FileManager.default.contents(atPath: path), let table = CacheConfirmations.decode(data)
        else {
            EngineLog.log(.cache, "ignoring unreadable \(CacheConfirmations.fileName)")
            unlink(path)
            return nil
        }
        return table
    }

    /// A hash of everything an entry stores but its timestamp: hashing the record, not its
    /// serialisation (a 1 MiB JSON body: ~5 ms instead of ~60 ms).
    static func digest(_ record: JSONObject) -> Int {
        var hasher = Hasher()
        hasher.combine(JSON.object(record))
        return hasher.finalize()
    }

    private func url(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// Reads an entry's file. The index (the directory listed once) answers for files that are
    /// not there, so starting 10,000 resources over an empty cache costs no file system calls.
    private func read(_ name: String) -> Entity? {
        if let index, index[name] == nil { return nil }
        // An entry bigger than a response may be was not written by this cache: never read it in.
        if let size = index?[name]?.size, size > DiskEntityCache.largestEntry {
            remove(name)
            return nil
        }
        guard let data = FileManager.default.contents(atPath: directory.path + "/" + name) else { return nil }
        guard var entity = DiskEntityCache.decode(data) else {
            EngineLog.log(.cache, "ignoring unreadable cache file \(name)")
            remove(name)
            return nil
        }
        if written[name] == nil, let record = DiskEntityCache.record(entity) {
            written[name] = (DiskEntityCache.digest(record), entity.timestamp)
        }
        if let confirmed = confirmations.confirmed(name, written: entity.timestamp) { entity.timestamp = confirmed }
        return entity
    }

    @discardableResult
    private func write(_ data: Data, name: String) -> Bool {
        do {
            try PrivateFiles.writeAtomically(data, to: url(name))
            statistics.filesWritten += 1
            record(name, size: data.count, order: nextOrder())
            return true
        } catch {
            EngineLog.log(.cache, "cannot write cache file \(name): \(String(describing: error))")
            return false
        }
    }

    /// A trimming order later than any given so far (wall-clock seconds, as files' times).
    private func nextOrder() -> Double {
        lastOrder = max(Date().timeIntervalSince1970, lastOrder.nextUp)
        return lastOrder
    }

    private func remove(_ name: String) {
        if (try? FileManager.default.removeItem(at: url(name))) != nil { statistics.filesRemoved += 1 }
        written[name] = nil
        confirmations.remove(name)
        record(name, size: nil, order: 0)
    }

    // MARK: Size bound

    /// Lists the directory once: what earlier runs left counts towards `maxBytes`.
    private func loadIndexIfNeeded() {
        guard index == nil else { return }
        var entries: [String: (size: Int, order: Double)] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        // Only entries: anything else here (histories, the marker, a stranger's file) is not counted or trimmed.
        for name in names where CacheDirectory.isEntryName(name) {
            var info = stat()
            guard lstat(directory.appendingPathComponent(name).path, &info) == 0 else { continue }
            entries[name] = (Int(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        }
        // Confirmations of files no longer here go; a confirmed entry counts as used when it was confirmed.
        if var table = readConfirmations() {
            table.prune { entries[$0] != nil }
            for (name, confirmation) in table.entries {
                let order = confirmation.confirmed + Date.timeIntervalBetween1970AndReferenceDate
                if let entry = entries[name], entry.order < order { entries[name] = (entry.size, order) }
            }
            confirmations.merge(table)
        }
        index = entries
        indexedBytes = entries.values.reduce(0) { $0 + $1.size }
    }

    private func record(_ name: String, size: Int?, order: Double) {
        guard index != nil else { return }
        if let old = index?[name] { indexedBytes -= old.size }
        if let size {
            index?[name] = (size, order)
            indexedBytes += size
        } else {
            index?[name] = nil
        }
    }

    /// Removes the least recently written files until the directory fits in `maxBytes`.
    private func trim() {
        guard let index, indexedBytes > maxBytes else { return }
        for (name, _) in index.sorted(by: { $0.value.order < $1.value.order }) where indexedBytes > maxBytes {
            remove(name)
        }
    }

    // MARK: Format

    /// The file's contents for `entity`; nil for content that is not ours to serialise.
    static func encode(_ entity: Entity) -> Data? {
        record(entity).flatMap { encode($0, timestamp: entity.timestamp) }
    }

    static func encode(_ record: JSONObject, timestamp: TimeInterval) -> Data? {
        var object = record
        object["timestamp"] = .double(timestamp)
        return try? JSON.object(object).serialized()
    }

    /// Everything a file stores for `entity` but its timestamp.
    static func record(_ entity: Entity) -> JSONObject? {
        let kind: String
        let content: JSON
        switch entity.content {
        case let json as JSON:
            kind = "json"
            content = json
        case let text as String:
            kind = "text"
            content = .string(text)
        case let data as Data:
            kind = "data"
            content = .string(data.base64EncodedString())
        default:
            return nil  // app models are not ours to serialise
        }
        var object: JSONObject = [
            "hammockCache": .int(formatVersion), "kind": .string(kind), "contentType": .string(entity.contentType), "content": content,
        ]
        if let etag = entity.etag { object["etag"] = .string(etag) }
        if let lastModified = entity.lastModified { object["lastModified"] = .string(lastModified) }
        if let charset = entity.charset { object["charset"] = .string(charset) }
        return object
    }

    /// The largest file read back: a response is capped at 8 MiB, and base64 and JSON escapes
    /// make its entry at most about twice that.
    static let largestEntry = 24 << 20

    /// A time on the engine's clock (seconds since 2001), not in the far past or future.
    static func isPlausible(_ timestamp: TimeInterval) -> Bool {
        timestamp.isFinite && (0...5e9).contains(timestamp)
    }

    static func decode(_ data: Data) -> Entity? {
        guard let object = (try? JSONParser.parse(data))?.objectValue,
            object["hammockCache"]?.intValue == formatVersion,
            let kind = object["kind"]?.stringValue,
            let timestamp = object["timestamp"]?.doubleValue,
            isPlausible(timestamp),
            let contentType = object["contentType"]?.stringValue,
            let stored = object["content"]
        else { return nil }
        let content: any Sendable
        switch kind {
        case "json": content = stored
        case "text":
            guard let text = stored.stringValue else { return nil }
            content = text
        case "data":
            guard let base64 = stored.stringValue, let data = Data(base64Encoded: base64) else { return nil }
            content = data
        default: return nil
        }
        var headers = ["content-type": contentType]
        if let etag = object["etag"]?.stringValue { headers["etag"] = etag }
        if let lastModified = object["lastModified"]?.stringValue { headers["last-modified"] = lastModified }
        return Entity(content: content, charset: object["charset"]?.stringValue, headers: headers, timestamp: timestamp)
    }
}
