import Foundation

/// How a request travels, beyond what a `URLRequest` says: TLS trust and identity, redirects.
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

    public init(tls: TLSOptions = TLSOptions(), maxRedirects: Int? = nil) {
        self.tls = tls
        self.maxRedirects = maxRedirects
    }
}

/// Whom to trust and who to be over TLS.
public struct TLSOptions: Sendable, Hashable {
    /// A PEM file (or a directory of hashed PEM files) of CA certificates to trust instead of the
    /// system's; nil: the environment's `SSL_CERT_FILE`, `SSL_CERT_DIR` or `CURL_CA_BUNDLE`, else
    /// the system's roots.
    public var caFile: String?
    /// A client certificate (PEM) for servers that ask for one, and its key.
    public var clientCertificate: String?
    public var clientKey: String?
    /// Skips verifying the server's certificate and name. Never the default.
    public var insecure = false

    public init(caFile: String? = nil, clientCertificate: String? = nil, clientKey: String? = nil, insecure: Bool = false) {
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.insecure = insecure
    }
}
