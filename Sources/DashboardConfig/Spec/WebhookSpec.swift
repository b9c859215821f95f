import FoundationEssentials
import ResourceEngine
import TextBasics

/// `webhook: { url, headers, body }`: a POST through the engine, its JSON body a template whose
/// strings may name `{{pane}}`, `{{state}}`, `{{message}}`….
public struct WebhookSpec: Sendable {
    public var url: ConfigString
    public var headers: [HeaderSpec]
    /// The body with placeholders; nil sends `WebhookSpec.defaultBody`.
    public var body: JSON?

    public init(url: ConfigString, headers: [HeaderSpec] = [], body: JSON? = nil) {
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// What a template may name.
    public static let placeholders = ["pane", "state", "event", "message", "url", "service", "status", "since", "time", "dashboard"]

    /// Sent when the config gives no body: every placeholder under its own name.
    public static var defaultBody: JSON {
        .object(JSONObject(placeholders.map { ($0, JSON.string("{{\($0)}}")) }))
    }

    /// `{{name}}`s in `text` that are not placeholders.
    public static func unknownPlaceholders(in text: String) -> [String] {
        names(in: text).filter { !placeholders.contains($0) }
    }

    /// Fills every `{{name}}` in the strings of `template` (keys stay as written); unknown names
    /// stay as written. Values go into JSON strings, so nothing a message says can change the
    /// shape of the body.
    public static func fill(_ template: JSON, with values: [String: String]) -> JSON {
        switch template {
        case .string(let text): .string(fill(text, with: values))
        case .array(let items): .array(items.map { fill($0, with: values) })
        case .object(let object): .object(JSONObject(object.members.map { ($0.key, fill($0.value, with: values)) }))
        default: template
        }
    }

    static func fill(_ text: String, with values: [String: String]) -> String {
        guard text.contains("{{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingWhitespace()
            result += values[name] ?? String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    static func names(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            names.append(rest[open.upperBound..<close.lowerBound].trimmingWhitespace())
            rest = rest[close.upperBound...]
        }
        return names
    }
}
