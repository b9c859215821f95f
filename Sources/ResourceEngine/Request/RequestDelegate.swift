/// The work behind a `Request`: what starts, cancels and repeats it.
///
/// `Request` owns the state machine and the hooks; a delegate owns the operation. The engine's
/// delegates are network requests, chains and hard-wired responses; a custom delegate (passed to
/// `Resource.prepareRequest(using:)`) can make anything look like a request.
@MainActor
public protocol RequestDelegate: AnyObject, Sendable {
    /// Starts the work; it must eventually call `completionHandler.broadcastResponse` once.
    func startUnderlyingOperation(passingResponseTo completionHandler: any RequestCompletionHandler)

    /// Stops the work. The request has already completed as cancelled.
    func cancelUnderlyingOperation()

    /// A fresh, unstarted delegate that performs the same work again.
    func repeated() -> any RequestDelegate

    /// A short description for logs ("GET http://…/health").
    var requestDescription: String { get }
}

/// Where a delegate delivers its outcome.
@MainActor
public protocol RequestCompletionHandler: AnyObject, Sendable {
    /// Completes the request. Only the first call has an effect.
    func broadcastResponse(_ responseInfo: ResponseInfo)

    /// True when a response would be ignored (the request already completed or was cancelled),
    /// so a delegate can skip expensive work such as parsing.
    func willIgnore(_ responseInfo: ResponseInfo) -> Bool

    /// Reports progress in 0...1; values that do not increase are ignored.
    func reportProgress(_ progress: Double)
}
