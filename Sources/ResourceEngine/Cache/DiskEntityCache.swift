import Dispatch
import Foundation

/// An `EntityCache` in a directory: one small JSON file per entry.
///
/// File names are SHA-256 hashes of the keys, so URLs (which may carry tokens) never appear on
/// disk as names, and only content plus content type, charset and ETag are stored — never request
/// or response headers such as cookies. Writes are atomic (temporary file, then rename) and happen
/// on a private queue. A file that does not decode is ignored and deleted. The directory is kept
/// under `maxBytes` by removing the least recently written files.
public final class DiskEntityCache: EntityCache {
    public let directory: URL
    public let maxBytes: Int
    private let queue = DispatchQueue(label: "hammock.disk-cache")
    static let formatVersion = 1

    /// A cache in `directory` (created if needed), at most `maxBytes` large.
    public init(directory: URL, maxBytes: Int = 64 << 20) {
        self.directory = directory
        self.maxBytes = maxBytes
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// `$XDG_CACHE_HOME/hammock`, or `~/.cache/hammock`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("hammock")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/hammock")
    }

    func fileURL(forKey key: String) -> URL {
        directory.appendingPathComponent(SHA256.hex(key) + ".json")
    }

    public func readEntity(forKey key: String) -> Entity? {
        queue.sync { read(fileURL(forKey: key)) }
    }

    public func writeEntity(_ entity: Entity, forKey key: String) {
        guard let data = DiskEntityCache.encode(entity) else { return }
        let url = fileURL(forKey: key)
        queue.async { [self] in
            write(data, to: url)
            trim()
        }
    }

    public func updateTimestamp(_ timestamp: TimeInterval, forKey key: String) {
        let url = fileURL(forKey: key)
        queue.async { [self] in
            guard var entity = read(url) else { return }
            entity.timestamp = timestamp
            if let data = DiskEntityCache.encode(entity) { write(data, to: url) }
        }
    }

    public func removeEntity(forKey key: String) {
        let url = fileURL(forKey: key)
        queue.async { try? FileManager.default.removeItem(at: url) }
    }

    /// Waits for pending writes (for tests and orderly shutdown).
    public func flush() {
        queue.sync {}
    }

    // MARK: Files

    private func read(_ url: URL) -> Entity? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard let entity = DiskEntityCache.decode(data) else {
            EngineLog.log(.cache, "ignoring unreadable cache file \(url.lastPathComponent)")
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return entity
    }

    private func write(_ data: Data, to url: URL) {
        do {
            try AtomicFile.write(data, to: url)
        } catch {
            EngineLog.log(.cache, "cannot write cache file \(url.lastPathComponent): \(error.localizedDescription)")
        }
    }

    /// Removes the least recently written files until the directory fits in `maxBytes`.
    private func trim() {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return }
        var entries = files.filter { $0.pathExtension == "json" }.compactMap { url -> (URL, Int, Date)? in
            guard let values = try? url.resourceValues(forKeys: Set(keys)) else { return nil }
            return (url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }
        var total = entries.reduce(0) { $0 + $1.1 }
        guard total > maxBytes else { return }
        entries.sort { $0.2 < $1.2 }
        for (url, size, _) in entries where total > maxBytes {
            try? FileManager.default.removeItem(at: url)
            total -= size
        }
    }

    // MARK: Format

    static func encode(_ entity: Entity) -> Data? {
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
            "hammockCache": .int(formatVersion), "kind": .string(kind), "timestamp": .double(entity.timestamp),
            "contentType": .string(entity.contentType), "content": content,
        ]
        if let etag = entity.etag { object["etag"] = .string(etag) }
        if let charset = entity.charset { object["charset"] = .string(charset) }
        return try? JSON.object(object).serialized()
    }

    static func decode(_ data: Data) -> Entity? {
        guard let object = (try? JSONParser.parse(data))?.objectValue,
            object["hammockCache"]?.intValue == formatVersion,
            let kind = object["kind"]?.stringValue,
            let timestamp = object["timestamp"]?.doubleValue,
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
        return Entity(content: content, charset: object["charset"]?.stringValue, headers: headers, timestamp: timestamp)
    }
}
