import Foundation

/// What one completed network exchange looked like: status, time taken, body size.
///
/// Kept per resource so a pane's title can show "200 · 41 ms" even while the overlay shows an error.
public struct TransferMetrics: Sendable, Equatable {
    /// The HTTP status, or nil when no response arrived.
    public var statusCode: Int?
    /// Seconds from sending the request to having the whole response.
    public var latency: TimeInterval
    /// The size of the response body in bytes.
    public var bodyBytes: Int
    /// When the exchange finished, on the service's clock.
    public var finishedAt: TimeInterval

    public init(statusCode: Int?, latency: TimeInterval, bodyBytes: Int, finishedAt: TimeInterval) {
        self.statusCode = statusCode
        self.latency = latency
        self.bodyBytes = bodyBytes
        self.finishedAt = finishedAt
    }
}
