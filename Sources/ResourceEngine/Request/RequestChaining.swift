/// What a chain does once the request it wraps has completed.
@MainActor
public enum RequestChainAction {
    /// Start `request` (if needed) and complete the chain with its outcome.
    case passTo(Request)
    /// Complete the chain with this outcome instead.
    case useResponse(ResponseInfo)
    /// Complete the chain with the wrapped request's own outcome.
    case useThisResponse
}

extension Request {
    /// A request that waits for this one, then lets `whenCompleted` decide the outcome.
    ///
    /// The building block for retries and token refresh: on a 401, pass to a token request chained
    /// to `repeated()`. Cancelling the chain cancels this request and never calls the closure.
    public func chained(
        whenCompleted callback: @escaping @MainActor (ResponseInfo) -> RequestChainAction
    ) -> Request {
        let chain = Request(delegate: ChainDelegate(wrapped: self, whenCompleted: callback))
        if state != .notStarted { chain.start() }
        return chain
    }
}

/// Waits for a wrapped request, then applies the chain's decision.
@MainActor
final class ChainDelegate: RequestDelegate {
    let wrapped: Request
    let whenCompleted: @MainActor (ResponseInfo) -> RequestChainAction

    init(wrapped: Request, whenCompleted: @escaping @MainActor (ResponseInfo) -> RequestChainAction) {
        self.wrapped = wrapped
        self.whenCompleted = whenCompleted
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: any RequestCompletionHandler) {
        wrapped.onCompletion { [whenCompleted] info in
            guard !completionHandler.willIgnore(info) else { return }
            switch whenCompleted(info) {
            case .useThisResponse:
                completionHandler.broadcastResponse(info)
            case .useResponse(let other):
                completionHandler.broadcastResponse(other)
            case .passTo(let next):
                next.start()
                next.onCompletion { completionHandler.broadcastResponse($0) }
            }
        }
        wrapped.start()
    }

    func cancelUnderlyingOperation() {
        wrapped.cancel()
    }

    func repeated() -> any RequestDelegate {
        ChainDelegate(wrapped: wrapped.repeated(), whenCompleted: whenCompleted)
    }

    var requestDescription: String { "chain(\(wrapped.requestDescription))" }
}
