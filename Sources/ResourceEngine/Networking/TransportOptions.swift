import FoundationEssentials
import Synchronization

/// How a request travels, beyond what an `OutgoingRequest` says: TLS trust and identity, redirects,
/// credentials the transport negotiates itself, a cookie jar.
///
/// Set per URL pattern like everything else (`Configuration.transport`) and handed to the
/// networking provider with each request. `CurlProvider` honours all of it; `URLSessionProvider`
/// only the redirect limit (Foundation on Linux offers no TLS settings).
public struct TransportOptions: Sendable, Hashable {
    /// TLS settings for https URLs.
    public var tls = TLSOptions()
    /// Redirects to follow before "Too many redirects"; 0 answers with the redirect itself; nil:
    /// the provider's default.
    public var maxRedirects: Int?
    /// A user and password the transport answers an authentication challenge with (digest), sent
    /// only to the request's own origin, never after a redirect to another.
    public var credentials: HTTPCredentials?
    /// Where cookies the server sets are kept and sent back from; nil: no cookies.
    public var cookieJar: CookieJar?

    /// Options as given; by default the system's TLS trust, the provider's redirect limit, no
    /// credentials and no cookies.
    public init(tls: TLSOptions = TLSOptions(), maxRedirects: Int? = nil, credentials: HTTPCredentials? = nil, cookieJar: CookieJar? = nil) {
        self.tls = tls
        self.maxRedirects = maxRedirects
        self.credentials = credentials
        self.cookieJar = cookieJar
    }
}

/// A user and password, and the scheme they are offered with.
public struct HTTPCredentials: Sendable, Hashable {
    /// How the transport proves who it is.
    public enum Scheme: String, Sendable, Hashable {
        /// HTTP Digest (RFC 7616): the server's challenge is answered; the password never travels.
        case digest
    }

    /// The user name.
    public var user: String
    /// The password (masked in every output; sent only as the scheme allows).
    public var password: String
    /// How they are offered to the server.
    public var scheme: Scheme

    /// Credentials for `user`, offered by `scheme`.
    public init(user: String, password: String, scheme: Scheme) {
        self.user = user
        self.password = password
        self.scheme = scheme
    }
}

/// An in-memory cookie jar, shared by every request configured with it (one per service): cookies
/// a response sets are sent with later requests to the hosts and paths they are for. Never
/// written to disk; gone when the process ends.
///
/// The jar is an identity: the networking provider keeps the cookies, one store per jar.
public final class CookieJar: Sendable, Hashable, CustomStringConvertible {
    /// A name for logs, e.g. the service's.
    public let name: String
    /// The most cookies the jar keeps, as browsers bound theirs: a server setting new cookies on
    /// every answer must not make every request slower and larger.
    public let limit: Int
    /// Told when cookies are dropped to keep within `limit`, with what to say.
    public let onDrop: (@Sendable (String) -> Void)?
    private let store = Mutex<(any AnyObject & Sendable)?>(nil)

    /// An empty jar named `name` for logs, keeping at most `limit` cookies (at least 1).
    public init(name: String, limit: Int = 150, onDrop: (@Sendable (String) -> Void)? = nil) {
        self.name = name
        self.limit = max(1, limit)
        self.onDrop = onDrop
    }

    /// The networking provider's cookie store for this jar: made by `make` the first time, the
    /// same one after; it lives as long as the jar.
    public func providerStore<Store: AnyObject & Sendable>(_ make: () -> Store?) -> Store? {
        store.withLock { current in
            if let existing = current as? Store { return existing }
            let made = make()
            if let made { current = made }
            return made
        }
    }

    public static func == (a: CookieJar, b: CookieJar) -> Bool { a === b }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String { "cookie jar \(name)" }
}

/// Whom to trust and who to be over TLS.
public struct TLSOptions: Sendable, Hashable {
    /// A PEM file (or a directory of hashed PEM files) of CA certificates to trust instead of the
    /// system's; nil: the environment's `SSL_CERT_FILE`, `SSL_CERT_DIR` or `CURL_CA_BUNDLE`, else
    /// the system's roots.
    public var caFile: String?
    /// A client certificate (PEM) for servers that ask for one, and its key.
    public var clientCertificate: String?
    /// The private key (PEM) of `clientCertificate`; nil when the certificate file holds it.
    public var clientKey: String?
    /// The passphrase of an encrypted `clientKey`. Nothing ever asks for one on the terminal:
    /// without it an encrypted key fails the request, saying so.
    public var clientKeyPassword: String?
    /// Skips verifying the server's certificate and name. Never the default.
    public var insecure = false

    /// Options as given; by default the system's trust, no client identity, verification on.
    public init(
        caFile: String? = nil, clientCertificate: String? = nil, clientKey: String? = nil, clientKeyPassword: String? = nil, insecure: Bool = false
    ) {
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.clientKeyPassword = clientKeyPassword
        self.insecure = insecure
    }

    /// The largest certificate, key or CA bundle read (the system's bundle is about 200 KiB).
    public static let largestFile = 8 << 20
}
