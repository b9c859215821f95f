/// The outcome of a request: new or confirmed data, or an error.
public typealias Response = Result<Entity, RequestError>

extension Result where Success == Entity, Failure == RequestError {
    /// True if this response only says the request was cancelled.
    public var isCancellation: Bool {
        if case .failure(let error) = self { error.isCancellation } else { false }
    }
}

/// A response plus whether it carries new data (false for a 304 that confirmed existing data).
public struct ResponseInfo: Sendable {
    /// The entity or the error.
    public var response: Response
    /// False for a 304 that confirmed the data the resource had (`notModified`).
    public var isNew: Bool
    /// Status, latency and size of the network exchange behind this response, if there was one.
    public var metrics: TransferMetrics?

    /// A response; new data unless `isNew` says it confirmed the old.
    public init(response: Response, isNew: Bool = true, metrics: TransferMetrics? = nil) {
        self.response = response
        self.isNew = isNew
        self.metrics = metrics
    }

    /// The response a cancelled request completes with.
    static let cancellation = ResponseInfo(
        response: .failure(
            RequestError(userMessage: "Request cancelled", cause: RequestError.Cause.RequestCancelled(networkError: nil))
        )
    )
}
