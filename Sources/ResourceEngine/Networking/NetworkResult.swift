import FoundationEssentials

/// The head of an HTTP response as a transport received it: status, headers, final URL.
///
/// The engine's own shape, so a transport builds it straight from what it read (libcurl's header
/// lines) without a Foundation `HTTPURLResponse` per request.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The HTTP status code.
    public var statusCode: Int
    /// Header fields with lower-cased names; a repeated header's values joined with ", ".
    public var headers: [String: String]
    /// The URL that answered (after redirects), if the transport knows it.
    public var url: URL?

    /// A head with `headers` (names are lower-cased here).
    public init(statusCode: Int, headers: [String: String] = [:], url: URL? = nil) {
        self.statusCode = statusCode
        var lowered: [String: String] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            lowered[key] = lowered[key].map { "\($0), \(value)" } ?? value
        }
        self.headers = lowered
        self.url = url
    }

    /// The headers of an `HTTPURLResponse` (what URLSession hands back).
    public init(statusCode: Int, anyHeaders: [AnyHashable: Any], url: URL?) {
        var headers: [String: String] = [:]
        for (key, value) in anyHeaders { headers[String(describing: key)] = String(describing: value) }
        self.init(statusCode: statusCode, headers: headers, url: url)
    }
}

/// Where the time of one exchange went, in seconds from its start, as libcurl measures it: each
/// phase ends at the given offset (DNS, TCP connect, TLS handshake, first response byte, done).
///
/// Time a request spent waiting before the transport started it is not in here; `total` is the
/// exchange's own time, which is what a monitor reports as its latency.
public struct TransferTiming: Sendable, Equatable {
    /// When the name was resolved; nil when the transport does not say.
    public var nameLookup: TimeInterval?
    /// When the TCP connection was made (about the name lookup's time on a reused connection).
    public var connect: TimeInterval?
    /// When the TLS handshake ended; nil for plain HTTP.
    public var tlsHandshake: TimeInterval?
    /// When the first byte of the response arrived.
    public var firstByte: TimeInterval?
    /// When the exchange ended: its latency.
    public var total: TimeInterval
    /// Redirects followed on the way.
    public var redirects: Int

    /// A timing of phases ending at the given offsets.
    public init(
        nameLookup: TimeInterval? = nil, connect: TimeInterval? = nil, tlsHandshake: TimeInterval? = nil,
        firstByte: TimeInterval? = nil, total: TimeInterval, redirects: Int = 0
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
        self.total = total
        self.redirects = redirects
    }
}

/// Everything a transport reports for one request: the response head and body (when a response
/// arrived), the error (when it failed), and the timing (when the transport measures it).
public struct NetworkResult: Sendable {
    /// The response's status and headers, when one arrived.
    public var response: HTTPResponseHead?
    /// The response's body, when one arrived.
    public var body: Data?
    /// Why the exchange failed, when it did (an HTTP error status is not a failure here).
    public var error: (any Error)?
    /// Where the time went, when the transport measures it.
    public var timing: TransferTiming?
    /// The https server's certificate, when the transport read one (a new connection).
    public var certificate: PeerCertificate?

    /// What a transport reports: a response (head and body), or an error, or both.
    public init(
        response: HTTPResponseHead? = nil, body: Data? = nil, error: (any Error)? = nil, timing: TransferTiming? = nil,
        certificate: PeerCertificate? = nil
    ) {
        self.response = response
        self.body = body
        self.error = error
        self.timing = timing
        self.certificate = certificate
    }

    /// A failure with no response.
    public static func failure(_ error: any Error) -> NetworkResult {
        NetworkResult(error: error)
    }
}
