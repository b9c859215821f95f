import FoundationEssentials
import ResourceEngine

/// How a pane's request is made, read from its resource's configuration when the pane is built:
/// what the request view and the title bar say about it.
public struct PaneRequest: Sendable {
    /// The method of the resource's load request.
    public let method: RequestMethod
    /// The URL as sent.
    public let url: URL
    /// The configuration's headers, then headers worked out at each send (a login's token, a
    /// value read from a file), then the load request's own.
    public let headers: [String: String]
    public let computedHeaders: [String: @MainActor @Sendable () -> String?]
    public let requestHeaders: [String: String]
    /// Headers the load request leaves out (lowercased).
    public let omittedHeaders: Set<String>
    /// The load request body's content type.
    public let contentType: String?
    /// Seconds before a request gives up (not finite or 0: never).
    public let timeout: TimeInterval
    /// The request is sent without checking the server's certificate.
    public let tlsInsecure: Bool
    /// Cookies are kept between requests.
    public let keepsCookies: Bool

    /// A request described field by field (a test's).
    public init(
        method: RequestMethod = .get, url: URL, headers: [String: String] = [:], requestHeaders: [String: String] = [:],
        omittedHeaders: Set<String> = [], contentType: String? = nil, timeout: TimeInterval = 0, tlsInsecure: Bool = false,
        keepsCookies: Bool = false
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        computedHeaders = [:]
        self.requestHeaders = requestHeaders
        self.omittedHeaders = omittedHeaders
        self.contentType = contentType
        self.timeout = timeout
        self.tlsInsecure = tlsInsecure
        self.keepsCookies = keepsCookies
    }

    /// The request of `resource`, as its configuration for its load request's method says.
    @MainActor
    public init(of resource: Resource) {
        let method = resource.loadRequest?.method ?? .get
        let configuration = resource.configuration(for: method)
        self.method = method
        url = resource.url
        headers = configuration.headers
        computedHeaders = configuration.computedHeaders.mapValues { value in { @MainActor @Sendable in value() } }
        requestHeaders = resource.loadRequest?.headers ?? [:]
        omittedHeaders = Set((resource.loadRequest?.omittedHeaders ?? []).map { $0.lowercased() })
        contentType = resource.loadRequest?.contentType
        timeout = configuration.timeout
        tlsInsecure = configuration.transport.tls.insecure
        keepsCookies = configuration.transport.cookieJar != nil
    }

    /// The headers as sent now: the configuration's, those worked out now, the request's own,
    /// less those it leaves out, and its body's content type.
    @MainActor
    public var headersNow: [String: String] {
        var headers = self.headers
        for (name, value) in computedHeaders { headers[name] = value() ?? headers[name] }
        for (name, value) in requestHeaders { headers[name] = value }
        headers = headers.filter { !omittedHeaders.contains($0.key.lowercased()) }
        if let contentType { headers["Content-Type"] = contentType }
        return headers
    }
}
