import FoundationEssentials

/// What one completed network exchange looked like: status, time taken, body size.
///
/// Kept per resource so an observer can show "200 · 41 ms" even while the overlay shows an error.
public struct TransferMetrics: Sendable, Equatable {
    /// The HTTP status, or nil when no response arrived.
    public var statusCode: Int?
    /// Seconds the exchange itself took: the transport's own measure when it has one (time queued
    /// before it started does not count), else from sending the request to having the response.
    public var latency: TimeInterval
    /// The size of the response body in bytes.
    public var bodyBytes: Int
    /// When the exchange finished, on the service's clock.
    public var finishedAt: TimeInterval
    /// The phases of the exchange, when the transport measures them.
    public var timing: TransferTiming?
    /// The https server's certificate as of this exchange's connection, when known.
    public var certificate: PeerCertificate?

    /// Metrics as measured.
    public init(
        statusCode: Int?, latency: TimeInterval, bodyBytes: Int, finishedAt: TimeInterval, timing: TransferTiming? = nil,
        certificate: PeerCertificate? = nil
    ) {
        self.statusCode = statusCode
        self.latency = latency
        self.bodyBytes = bodyBytes
        self.finishedAt = finishedAt
        self.timing = timing
        self.certificate = certificate
    }
}
