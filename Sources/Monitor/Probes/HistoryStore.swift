import FoundationEssentials
import PrivateFiles
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

    /// The saved histories of the given resources, each kept to the capacity the config gives it
    /// now (a lowered `history:` applies at once; a capacity in the file is never trusted), with
    /// every probe checked (finite times and latencies, real status codes); empty if none or
    /// unreadable.
    public func load(namespace: String, capacities: [String: Int]) -> [String: ProbeHistory] {
        guard let directory = try? CacheDirectory(location: location, owner: .hammock),
            let data = FileManager.default.contents(atPath: file(namespace: namespace, in: directory).path),
            let object = (try? JSONParser.parse(data))?.objectValue
        else { return [:] }
        var histories: [String: ProbeHistory] = [:]
        for (identity, capacity) in capacities {
            guard let probes = object[SHA256.hex(identity)]?["probes"]?.arrayValue else { continue }
            var history = ProbeHistory(capacity: capacity)
            for probe in probes.suffix(capacity) {
                guard let time = probe[0]?.doubleValue, time.isFinite, let latency = probe[1]?.doubleValue,
                    latency.isFinite, (0...86_400).contains(latency), let ok = probe[3]?.boolValue
                else { continue }
                let status = probe[2]?.intValue
                if let status, !(100...999).contains(status) { continue }
                // Older files have no fifth field: a probe that worked was answered.
                history.append(.init(time: time, latency: latency, statusCode: status, ok: ok, answered: probe[4]?.boolValue, value: probe[5]?.doubleValue))
            }
            histories[identity] = history
        }
        return histories
    }

    public func save(_ histories: [String: ProbeHistory], namespace: String) {
        var object = JSONObject()
        for (url, history) in histories {
            object[SHA256.hex(url)] = .object([
                "capacity": .int(history.capacity),
                "probes": .array(history.probes.map { probe -> JSON in
                    let fields: [JSON] = [.double(probe.time), .double(probe.latency), probe.statusCode.map(JSON.int) ?? .null, .bool(probe.ok), .bool(probe.answered)]
                    return .array(fields + (probe.value.map { [JSON.double($0)] } ?? []))
                }),
            ])
        }
        guard let data = try? JSON.object(object).serialized(), let directory = try? CacheDirectory(location: location, owner: .hammock) else { return }
        try? PrivateFiles.writeAtomically(data, to: file(namespace: namespace, in: directory))
    }
}
