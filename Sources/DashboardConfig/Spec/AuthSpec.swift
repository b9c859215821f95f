import FoundationEssentials
import ResourceEngine

/// How a service proves who it is (`auth:`); every kind is sent only to the service's own origin.
public enum AuthSpec: Sendable {
    /// A header the service sends (`basic`, `bearer`); read again for each request when it comes
    /// from a file (`bearer: { file: … }`, `${file:…}`).
    case header(HeaderSpec)
    /// HTTP Digest: the transport answers the server's challenge.
    case digest(user: ConfigString, password: ConfigString)
    /// A token from a login request (`login:`) or an OAuth2 token endpoint (`oauth2:`).
    case session(LoginSpec)

    /// The header `auth:` adds to every request, when it is a fixed one.
    public var header: HeaderSpec? {
        if case .header(let header) = self { header } else { nil }
    }
}

/// A login that yields a token for a service's requests: its request, where the token is in the
/// answer, and how it is sent.
public struct LoginSpec: Sendable {
    /// `login` (a request the config describes) or `oauth2` (client credentials).
    public var kind: String
    /// The login request's URL: a path under the service's base URL, or absolute.
    public var url: ConfigString
    public var method: RequestMethod
    public var body: RequestBodySpec?
    /// Headers of the login request only (OAuth2's client authentication).
    public var headers: [HeaderSpec]
    /// Where the token is in the login's JSON answer.
    public var tokenPath: String
    /// The response header the token comes in instead (`token: header.X-Subject-Token`), taken
    /// from any answer that carries it: Transmission's RPC answers 409 with
    /// `X-Transmission-Session-Id`, which every request must then send.
    public var tokenHeader: String?
    /// The header the token is sent in, and the word before it (`Bearer`; empty for none).
    public var header: String
    public var scheme: String
    /// Statuses that mean the token is no longer good: it is renewed once and the request retried.
    public var refreshOn: [Int]
    /// Where the answer says for how many seconds the token is good (OAuth2's `expires_in`); the
    /// token is renewed before it runs out.
    public var expiresInPath: String?
    /// Where the block starts in the file, for messages.
    public var line: Int

    public init(
        kind: String, url: ConfigString, method: RequestMethod = .post, body: RequestBodySpec? = nil, headers: [HeaderSpec] = [],
        tokenPath: String = "access_token", header: String = "Authorization", scheme: String = "Bearer", refreshOn: [Int] = [401],
        expiresInPath: String? = nil, line: Int = 1
    ) {
        self.kind = kind
        self.url = url
        self.method = method
        self.body = body
        self.headers = headers
        self.tokenPath = tokenPath
        self.header = header
        self.scheme = scheme
        self.refreshOn = refreshOn
        self.expiresInPath = expiresInPath
        self.line = line
    }

    /// The login's own request: its method, body and headers. The session's token header is left
    /// off (a stale token must not ride along), unless the login sets that header itself.
    public var loadRequest: LoadRequest {
        let data = body?.data
        var own: [String: String] = [:]
        for header in headers { own[header.name] = header.value.value }
        let omitted = own.keys.contains { $0.lowercased() == header.lowercased() } ? [] : [header]
        return LoadRequest(
            method: method, body: data, contentType: data == nil ? nil : body?.effectiveContentType, headers: own, omittedHeaders: omitted)
    }
}
