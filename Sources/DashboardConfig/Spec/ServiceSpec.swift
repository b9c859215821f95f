import Foundation
import ResourceEngine

/// The `service:` section: where the API is and how to talk to it by default.
public struct ServiceSpec: Sendable {
    public var baseURL: ConfigString?
    public var headers: [HeaderSpec]
    public var expiration: TimeInterval?
    public var retry: TimeInterval?
    public var timeout: TimeInterval?
    /// The standard parsers to register, by name (`json`, `text`); both unless the file says otherwise.
    public var transformers: [String]

    /// The standard transformers the names stand for.
    public var standardTransformers: [StandardTransformer] {
        transformers.compactMap { $0 == "json" ? .json : $0 == "text" ? .text : nil }
    }
}

/// One header to send, with its value's origin kept for redaction.
public struct HeaderSpec: Sendable, Hashable {
    public var name: String
    public var value: ConfigString

    /// Header names whose values are credentials even when written literally.
    public static func looksSensitive(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(lowered)
            || ["token", "key", "secret", "password", "auth", "session"].contains { lowered.contains($0) }
    }

    /// True when the value must never be shown: it came from the environment or names a credential.
    public var isSensitive: Bool { value.fromEnvironment || HeaderSpec.looksSensitive(name) }

    /// The value as it may be displayed or logged.
    public var displayValue: String {
        if value.fromEnvironment { return value.template }
        return HeaderSpec.looksSensitive(name) ? "‹redacted›" : value.value
    }
}
