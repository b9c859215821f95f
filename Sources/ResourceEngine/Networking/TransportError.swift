import FoundationEssentials

/// A request that got no answer: what the transport says went wrong, as a code the engine
/// turns into a screen message, with the transport's own words and a more precise message when
/// it has one ("127.0.0.1:29080: connection refused").
///
/// The engine's own type, so that no transport's error type (Foundation's `URLError`) needs to
/// be linked; `URLSessionNetworking` converts `URLError` into it.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Code: String, Sendable {
        /// The host refused the connection, or none could be made.
        case cannotConnectToHost
        /// The host's name has no address.
        case cannotFindHost
        /// No answer within the timeout.
        case timedOut
        /// The connection broke while the request was sent.
        case networkConnectionLost
        /// No network to send it on.
        case notConnectedToInternet
        /// More redirects than allowed.
        case tooManyRedirects
        /// An answer that is not HTTP.
        case badServerResponse
        /// TLS could not be set up.
        case secureConnectionFailed
        /// The server's certificate was refused.
        case serverCertificateUntrusted
        /// The request was cancelled.
        case cancelled
        /// A URL the transport cannot send.
        case badURL
        /// A scheme the transport does not speak.
        case unsupportedURL
        /// An answer larger than the limit.
        case responseTooLarge
        /// Anything else: `detail` says what.
        case unknown
    }

    /// What kind of failure it was.
    public let code: Code
    /// The transport's own explanation ("transfer closed with 993 bytes remaining").
    public let detail: String?
    /// A message for the screen that says more than the code's own.
    public let screenMessage: String?
    /// The URL the request was for, when the transport says.
    public let failingURL: URL?

    /// A failure of kind `code`, with the transport's words and a screen message if it has them.
    public init(_ code: Code, detail: String? = nil, screenMessage: String? = nil, failingURL: URL? = nil) {
        self.code = code
        self.detail = detail
        self.screenMessage = screenMessage
        self.failingURL = failingURL
    }

    /// The code and the transport's words, for logs.
    public var description: String {
        "TransportError(\(code.rawValue)\(detail.map { ": \($0)" } ?? ""))"
    }

    /// The message a terminal shows for it.
    public var message: String {
        if let screenMessage { return screenMessage }
        // Where, when the error says which URL: "127.0.0.1:29080: could not connect".
        let place = failingURL.flatMap { url in
            url.host.map { host in (host.contains(":") ? "[\(host)]" : host) + ":\(url.port ?? (url.scheme == "https" ? 443 : 80))" }
        }
        switch code {
        case .cannotConnectToHost: return place.map { "\($0): could not connect" } ?? "Could not connect to the server"
        case .timedOut: return "The request timed out"
        case .cannotFindHost: return "Could not find the server"
        case .networkConnectionLost: return "The network connection was lost"
        case .notConnectedToInternet: return "Not connected to the network"
        case .tooManyRedirects: return "Too many redirects"
        case .badServerResponse: return "The server sent an invalid response"
        case .secureConnectionFailed: return "Secure connection failed"
        case .serverCertificateUntrusted: return "The server's certificate is not trusted"
        case .cancelled: return "Request cancelled"
        case .unsupportedURL, .badURL: return "Unsupported URL"
        case .responseTooLarge: return "Response too large"
        case .unknown:
            // libcurl failures without a code of their own carry libcurl's text.
            let detail = detail ?? ""
            if detail.contains("transfer closed") || detail.contains("Recv failure") || detail.contains("Connection reset") {
                return "The server closed the connection before the response was complete"
            }
            return detail.isEmpty ? "Network error" : "Network error: \(detail)"
        }
    }
}
