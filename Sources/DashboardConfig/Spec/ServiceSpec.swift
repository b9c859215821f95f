import FoundationEssentials
import Redaction
import ResourceEngine
import TextBasics

/// The `service:` section (where the API is and how to talk to it by default), or one named entry
/// of `services:`.
public struct ServiceSpec: Sendable {
    /// The name under `services:`; nil for the `service:` section.
    public var name: String?
    /// Where the section starts in the file, for messages.
    public var line = 1
    public var baseURL: ConfigString?
    public var headers: [HeaderSpec]
    public var expiration: TimeInterval?
    public var retry: TimeInterval?
    public var timeout: TimeInterval?
    /// The standard parsers to register, by name (`json`, `text`); both unless the file says otherwise.
    public var transformers: [String]
    /// Whom to trust and who to be over TLS (`tls:`); paths are resolved against the file's folder.
    public var tls: TLSOptions?
    /// `tls.clientKeyPassword` as written (`${KEY_PASSPHRASE}`), for the curl command.
    public var clientKeyPassword: ConfigString?
    /// Redirects to follow (`redirects:`); 0 answers with the redirect itself.
    public var redirects: Int?
    /// How the service authenticates (`auth:`); sent only to the service's origin.
    public var auth: AuthSpec?
    /// `auth:` as it may be shown: `basic ops:${PASSWORD}`, `bearer ${TOKEN}`, `login POST /auth`.
    public var authDisplay: String?
    /// `cookies: true`: a cookie jar of the service's own, in memory.
    public var cookies = false
    /// Panes every pane of the service waits on (`dependsOn:`).
    public var dependsOn: [PaneDependency] = []

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
    public var allHeaders: [HeaderSpec] { headers + (auth?.header.map { [$0] } ?? []) }

    /// How the section is named in messages: `service` or `services.shop`.
    public var path: String { name.map { "services.\($0)" } ?? "service" }

    /// The base URL with a trailing `/` on its path, as the engine keeps it.
    public var normalizedBaseURL: String? {
        guard let base = baseURL?.value else { return nil }
        guard var components = URLComponents(string: WrittenURL.encodingWhatCannotTravel(base)) else { return nil }
        if !components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath += "/" }
        return components.string
    }

    /// True when TLS verification is off: every pane of the service says so.
    public var isInsecure: Bool { tls?.insecure == true }

    /// The standard transformers the names stand for (`json` covers newline-delimited JSON too).
    public var standardTransformers: [StandardTransformer] {
        transformers.flatMap { name -> [StandardTransformer] in
            name == "json" ? [.json, .ndjson] : name == "text" ? [.text] : []
        }
    }
}

/// One header to send, with its value's origin kept for redaction.
public struct HeaderSpec: Sendable, Hashable {
    public var name: String
    public var value: ConfigString
    /// For a value read from files: a running service reads them again when they change.
    public var live: LiveValueSource?

    public init(name: String, value: ConfigString, live: LiveValueSource? = nil) {
        self.name = name
        self.value = value
        self.live = live
    }

    public static func == (a: HeaderSpec, b: HeaderSpec) -> Bool { a.name == b.name && a.value == b.value }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
    }

    /// Header names whose values are credentials even when written literally.
    public static func looksSensitive(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(lowered)
            || ["token", "key", "secret", "password", "auth", "session"].contains { lowered.contains($0) }
    }

    /// A response header's value as Hammock shows it: what a server hands out as a credential is
    /// masked — a session cookie's value (`Set-Cookie` keeps its name and attributes), a token
    /// header (`X-Subject-Token`, `X-Session-Id`) whole. Challenges (`WWW-Authenticate`) stay.
    public static func shownResponseValue(name: String, value: String) -> String {
        let lowered = name.lowercased()
        if ["www-authenticate", "proxy-authenticate", "authentication-info", "proxy-authentication-info"].contains(lowered) { return value }
        if lowered == "set-cookie" || lowered == "cookie" { return maskingCookieValues(value) }
        return looksSensitive(name) ? Redactor.mask : value
    }

    static let cookieAttributes: Set<String> = ["path", "domain", "expires", "max-age", "samesite", "secure", "httponly", "priority", "partitioned"]

    /// `a=1; Path=/, b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT` → `a=•••; Path=/, b=•••; Expires=…`:
    /// every `name=value` that is not a cookie attribute has its value masked.
    static func maskingCookieValues(_ value: String) -> String {
        var out = ""
        var pair = ""
        func flush() {
            if let equals = pair.firstIndex(of: "=") {
                let key = pair[..<equals].trimmingWhitespace().lowercased()
                out += cookieAttributes.contains(key) ? pair : String(pair[...equals]) + Redactor.mask
            } else {
                out += pair
            }
            pair = ""
        }
        for character in value {
            if character == ";" || character == "," {
                flush()
                out.append(character)
            } else {
                pair.append(character)
            }
        }
        flush()
        return out
    }

    /// True when the value must never be shown: it came from the environment or names a credential.
    public var isSensitive: Bool { value.fromEnvironment || HeaderSpec.looksSensitive(name) }

    /// The value as it may be displayed or logged.
    public var displayValue: String {
        if value.fromEnvironment { return value.template }
        return HeaderSpec.looksSensitive(name) ? "‹redacted›" : value.value
    }
}
