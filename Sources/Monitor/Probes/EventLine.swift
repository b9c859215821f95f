import FoundationEssentials
import ResourceEngine

/// `hammock events` output: one JSON object per resource event.
public enum EventLine {
    /// `{"time":"2026-11-21T14:02:31.123Z","resource":"…","event":"NewData(Network)","status":200,"latencyMs":41,…}`
    public static func json(_ entry: EventLog.Entry) -> String {
        var object: JSONObject = [
            "time": .string(timestamp(entry.time)),
            "resource": .string(entry.url),
            "method": .string(entry.method),
            "event": .string(entry.event),
        ]
        if let status = entry.statusCode { object["status"] = .int(status) }
        if let latency = entry.latency { object["latencyMs"] = .int(Int((latency * 1000).rounded())) }
        if !entry.panes.isEmpty { object["panes"] = .array(entry.panes.map(JSON.string)) }
        if let message = entry.message { object["message"] = .string(message) }
        if let state = entry.state { object["state"] = .string(state) }
        return (try? JSON.object(object).serialized()).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// ISO 8601 in UTC with milliseconds, for an engine clock reading.
    public static func timestamp(_ time: TimeInterval) -> String {
        DateText.utcTimestamp(time + Date.timeIntervalBetween1970AndReferenceDate)
    }
}
