import Foundation
import ResourceEngine

/// Keeps probe histories across runs, next to the entity cache.
///
/// One file per config fingerprint, its name a hash; inside, each history is keyed by the hash of
/// its URL, so no URL (or token in one) is written out. Written atomically when the dashboard stops.
public struct HistoryStore: Sendable {
    /// The cache location; files go to Hammock's own directory in it (`CacheDirectory`).
    public let location: URL

    public init(directory: URL) {
        self.location = directory
    }

    private func file(namespace: String, in directory: CacheDirectory) -> URL {
        directory.url.appendingPathComponent("history-" + SHA256.hex("history\n" + namespace).prefix(32) + ".json")
    }

    /// The saved histories of `urls` for `namespace`'s config; empty if none or unreadable.
    public func load(namespace: String, urls: [String]) -> [String: ProbeHistory] {
        guard let directory = try? CacheDirectory(location: location),
            let data = FileManager.default.contents(atPath: file(namespace: namespace, in: directory).path),
            let object = (try? JSONParser.parse(data))?.objectValue
        else { return [:] }
        var histories: [String: ProbeHistory] = [:]
        for url in urls {
            guard let value = object[SHA256.hex(url)], let capacity = value["capacity"]?.intValue,
                let probes = value["probes"]?.arrayValue
            else { continue }
            var history = ProbeHistory(capacity: capacity)
            for probe in probes {
                guard let time = probe[0]?.doubleValue, let latency = probe[1]?.doubleValue, let ok = probe[3]?.boolValue else { continue }
                history.append(.init(time: time, latency: latency, statusCode: probe[2]?.intValue, ok: ok))
            }
            histories[url] = history
        }
        return histories
    }

    public func save(_ histories: [String: ProbeHistory], namespace: String) {
        var object = JSONObject()
        for (url, history) in histories {
            object[SHA256.hex(url)] = .object([
                "capacity": .int(history.capacity),
                "probes": .array(history.probes.map { [.double($0.time), .double($0.latency), $0.statusCode.map(JSON.int) ?? .null, .bool($0.ok)] }),
            ])
        }
        guard let data = try? JSON.object(object).serialized(), let directory = try? CacheDirectory(location: location) else { return }
        try? PrivateFiles.writeAtomically(data, to: file(namespace: namespace, in: directory))
    }
}
