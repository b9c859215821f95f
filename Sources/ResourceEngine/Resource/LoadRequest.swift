import FoundationEssentials

/// What a resource's own loads send when that is more than a plain GET: a method, a body with its
/// content type, and headers of its own.
///
/// Siesta keeps one resource per URL and loads it with a GET; a POST that reads (a search, a
/// GraphQL query, etcd's `/v3/kv/range`) is loaded with `load(using:)`, and two different bodies to
/// one URL would share one state. `Resource.withLoadRequest(_:)` gives each distinct request its
/// own resource instead: same URL, same configuration, its own data, error and requests, and
/// `load()` / `loadIfNeeded()` send this request. Identical load requests share one resource.
public struct LoadRequest: Hashable, Sendable, CustomStringConvertible {
    /// The method every load sends.
    public let method: RequestMethod
    /// The body sent with every load; nil for none.
    public let body: Data?
    /// The body's `Content-Type`; nil without a body.
    public let contentType: String?
    /// Headers set on every load, after the configured ones (so they win).
    public let headers: [String: String]
    /// Headers never sent by this resource's requests, even when configured (`Authorization` for
    /// a "401 without a token" check). Removed after every configured mutation.
    public let omittedHeaders: [String]
    /// The whole request's time limit, instead of the configured `timeout`; nil: the configured one.
    public let timeout: TimeInterval?
    /// Changes this resource's configuration after every configured block has applied (one observer's
    /// own pipeline stages), named by `adjustmentKey`, which becomes part of `key`.
    public let adjustConfiguration: (@MainActor @Sendable (inout Configuration) -> Void)?
    /// Names `adjustConfiguration` in `key`: two requests with different adjustments are two
    /// resources.
    public let adjustmentKey: String?
    /// A stable text that differs whenever the request on the wire would differ: the method, the
    /// headers (names folded to lower case, sorted) and a digest of the content type and body.
    /// Header values are hashed, so a key (which may reach a cache file's name) never holds a token.
    public let key: String

    /// A load request; a plain GET with nothing of its own by default. An `adjustConfiguration`
    /// without an `adjustmentKey` is keyed `adjusted`.
    public init(
        method: RequestMethod = .get, body: Data? = nil, contentType: String? = nil, headers: [String: String] = [:],
        omittedHeaders: [String] = [], timeout: TimeInterval? = nil,
        adjustmentKey: String? = nil, adjustConfiguration: (@MainActor @Sendable (inout Configuration) -> Void)? = nil
    ) {
        self.adjustmentKey = adjustConfiguration == nil ? nil : (adjustmentKey ?? "adjusted")
        self.adjustConfiguration = adjustConfiguration
        self.method = method
        self.body = body
        self.contentType = body == nil ? nil : contentType
        self.headers = headers
        self.omittedHeaders = Array(Set(omittedHeaders.map { $0.lowercased() })).sorted()
        self.timeout = timeout
        var key = LoadRequest.key(
            method: method, body: body, contentType: self.contentType, headers: headers,
            omitted: self.omittedHeaders, timeout: timeout)
        if let adjustment = self.adjustmentKey { key += " configured " + SHA256.hex(adjustment).prefix(16) }
        self.key = key
    }

    /// A load request whose body is `json`, sent as `application/json`.
    public static func json(_ method: RequestMethod, _ json: JSON, headers: [String: String] = [:]) throws -> LoadRequest {
        LoadRequest(method: method, body: try json.serialized(), contentType: "application/json", headers: headers)
    }

    /// True for a GET with no body and no headers of its own: the resource's plain load.
    public var isPlainGET: Bool {
        method == .get && body == nil && headers.isEmpty && omittedHeaders.isEmpty && timeout == nil && adjustConfiguration == nil
    }

    private static func key(
        method: RequestMethod, body: Data?, contentType: String?, headers: [String: String], omitted: [String], timeout: TimeInterval?
    ) -> String {
        var parts = [method.httpName]
        if !omitted.isEmpty { parts.append("without " + omitted.joined(separator: ",")) }
        if let timeout { parts.append("timeout \(timeout)") }
        if !headers.isEmpty {
            let lines = headers.map { "\($0.key.lowercased()): \($0.value)" }.sorted().joined(separator: "\n")
            parts.append("headers " + SHA256.hex(lines).prefix(16))
        }
        if let body {
            var bytes = Array((contentType ?? "").utf8)
            bytes.append(0)
            bytes.append(contentsOf: body)
            parts.append("body " + SHA256.hex(bytes).prefix(16))
        }
        return parts.joined(separator: " ")
    }

    /// `POST body 3f2a9c01…`, for logs.
    public var description: String { key }

    public static func == (a: LoadRequest, b: LoadRequest) -> Bool { a.key == b.key }

    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
