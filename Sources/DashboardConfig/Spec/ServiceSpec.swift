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
    /// Whom to trust and who to be over TLS (`tls:`); paths are resolved against the file's folder.
    public var tls: TLSOptions?
    /// Redirects to follow (`redirects:`); 0 answers with the redirect itself.
    public var redirects: Int?
    /// The `Authorization` header `auth:` makes (basic or bearer); sent only to the service's origin.
    public var auth: HeaderSpec?
    /// `auth:` as it may be shown: `basic ops:${PASSWORD}`, `bearer ${TOKEN}`.
    public var authDisplay: String?

    public init(
        baseURL: ConfigString? = nil, headers: [HeaderSpec] = [], expiration: TimeInterval? = nil, retry: TimeInterval? = nil,
        timeout: TimeInterval? = nil, transformers: [String] = ["json", "text"]
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.expiration = expiration
        self.retry = retry
        self.timeout = timeout
        self.transformers = transformers
    }

    /// The headers sent under the base URL: `headers:`, then the one `auth:` makes.
    public var allHeaders: [HeaderSpec] { headers + (auth.map { [$0] } ?? []) }

    /// True when TLS verification is off: every pane of the service says so.
    public var isInsecure: Bool { tls?.insecure == true }

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
