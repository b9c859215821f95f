import Foundation
import ResourceEngine
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real networking provider, built on Foundation's `URLSession` (libcurl on Linux).
///
/// Adds what a monitor needs on top of URLSession: a response-size cap (a huge body becomes a
/// `ResponseTooLarge` error instead of filling memory) and a hard total deadline from
/// `URLRequest.timeoutInterval` (so a server that drips one byte a second still times out).
/// Proxy settings from the environment apply, as they do for any libcurl client.
@MainActor
public final class URLSessionProvider: NetworkingProvider {
    /// The default cap on response bodies: 8 MiB.
    public nonisolated static let defaultMaxResponseBytes = CurlProvider.defaultMaxResponseBytes

    private let session: URLSession
    private let registry: TransferRegistry

    /// Creates a provider with its own session.
    ///
    /// - Parameters:
    ///   - configuration: session settings; ephemeral (no disk cache, no cookies kept) by default.
    ///   - maxResponseBytes: bodies larger than this fail with `ResponseTooLarge`.
    public init(configuration: URLSessionConfiguration = .ephemeral, maxResponseBytes: Int = defaultMaxResponseBytes) {
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let registry = TransferRegistry(maxResponseBytes: maxResponseBytes)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        self.registry = registry
        self.session = URLSession(configuration: configuration, delegate: SessionDelegate(registry: registry), delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func startRequest(
        _ request: OutgoingRequest,
        transport: TransportOptions,
        progress: @escaping @Sendable (Double) -> Void,
        completion: @escaping @Sendable (NetworkResult) -> Void
    ) -> any RequestNetworking {
        let timeout = request.timeoutInterval
        // swift-corelibs-foundation hands libcurl whole seconds (0.3 s becomes "time out now"), so
        // URLSession gets a rounded-up limit and our own deadline below decides.
        var sessionRequest = URLRequest(url: request.url ?? URL(string: "invalid:")!)
        sessionRequest.httpMethod = request.httpMethod ?? "GET"
        sessionRequest.httpBody = request.httpBody
        for field in request.headerFields { sessionRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        sessionRequest.timeoutInterval = timeout
        if timeout > 0, timeout.isFinite { sessionRequest.timeoutInterval = timeout.rounded(.up) + 1 }
        let task = session.dataTask(with: sessionRequest)
        let id = task.taskIdentifier
        registry.begin(id, maxRedirects: transport.maxRedirects ?? 10, progress: progress, completion: completion)
        if timeout > 0, timeout.isFinite {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [registry] in
                if registry.fail(id, with: TransportError(.timedOut)) { task.cancel() }
            }
        }
        task.resume()
        return Transfer(task: task, id: id, registry: registry)
    }

    private struct Transfer: RequestNetworking {
        let task: URLSessionDataTask
        let id: Int
        let registry: TransferRegistry

        func cancel() {
            if registry.fail(id, with: TransportError(.cancelled)) { task.cancel() }
        }
    }
}

/// Per-transfer state shared between the session's delegate queue and the deadline timers.
final class TransferRegistry: Sendable {
    struct Transfer {
        var response: HTTPURLResponse?
        var data = Data()
        var expected: Int64 = -1
        let maxRedirects: Int
        var redirects = 0
        var head: HTTPResponseHead? {
            response.map { HTTPResponseHead(statusCode: $0.statusCode, anyHeaders: $0.allHeaderFields, url: $0.url) }
        }
        let progress: @Sendable (Double) -> Void
        let completion: @Sendable (NetworkResult) -> Void
    }

    let maxResponseBytes: Int
    private let transfers = Mutex<[Int: Transfer]>([:])

    init(maxResponseBytes: Int) {
        self.maxResponseBytes = maxResponseBytes
    }

    func begin(
        _ id: Int,
        maxRedirects: Int,
        progress: @escaping @Sendable (Double) -> Void,
        completion: @escaping @Sendable (NetworkResult) -> Void
    ) {
        transfers.withLock { $0[id] = Transfer(maxRedirects: max(0, maxRedirects), progress: progress, completion: completion) }
    }

    enum RedirectDecision { case follow, answer, tooMany }

    /// Counts a redirect: follow it, answer with it (no redirects wanted), or fail.
    func redirect(_ id: Int) -> RedirectDecision {
        transfers.withLock { transfers in
            guard var transfer = transfers[id] else { return .answer }
            if transfer.maxRedirects == 0 { return .answer }
            guard transfer.redirects < transfer.maxRedirects else { return .tooMany }
            transfer.redirects += 1
            transfers[id] = transfer
            return .follow
        }
    }

    /// Records the response head; false if the declared length is already over the cap.
    func received(_ id: Int, response: HTTPURLResponse) -> Bool {
        let tooLarge = transfers.withLock { transfers -> Bool in
            transfers[id]?.response = response
            transfers[id]?.expected = response.expectedContentLength
            return response.expectedContentLength > Int64(maxResponseBytes)
        }
        if tooLarge { return !fail(id, with: tooLargeError) }
        return true
    }

    /// Appends body bytes; false if the body is now over the cap.
    func received(_ id: Int, data: Data) -> Bool {
        let outcome = transfers.withLock { transfers -> (over: Bool, progress: (@Sendable (Double) -> Void)?, fraction: Double) in
            guard var transfer = transfers[id] else { return (false, nil, 0) }
            transfer.data.append(data)
            let over = transfer.data.count > maxResponseBytes
            let fraction = transfer.expected > 0 ? Double(transfer.data.count) / Double(transfer.expected) : 0
            transfers[id] = transfer
            return (over, transfer.progress, fraction)
        }
        if outcome.over { return !fail(id, with: tooLargeError) }
        if outcome.fraction > 0 { outcome.progress?(min(outcome.fraction, 0.99)) }
        return true
    }

    /// Completes with whatever arrived and `error`; false if it had already completed.
    @discardableResult
    func finish(_ id: Int, error: (any Error)?) -> Bool {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: id) }) else { return false }
        transfer.completion(NetworkResult(response: transfer.head, body: transfer.data, error: error))
        return true
    }

    /// Completes with `error` alone; false if it had already completed.
    @discardableResult
    func fail(_ id: Int, with error: any Error) -> Bool {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: id) }) else { return false }
        transfer.completion(NetworkResult(response: error is RequestError.Cause.ResponseTooLarge ? transfer.head : nil, error: error))
        return true
    }

    private var tooLargeError: RequestError.Cause.ResponseTooLarge {
        RequestError.Cause.ResponseTooLarge(limit: maxResponseBytes)
    }
}

/// Feeds URLSession's delegate callbacks into the registry.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let registry: TransferRegistry

    init(registry: TransferRegistry) {
        self.registry = registry
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.allow)
            return
        }
        if registry.received(dataTask.taskIdentifier, response: http) {
            completionHandler(.allow)
        } else {
            completionHandler(.cancel)
        }
    }

    /// Redirects follow `RedirectPolicy`: headers stay with their origin, https never goes to http.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let id = task.taskIdentifier
        guard let from = task.currentRequest?.url ?? response.url, let to = request.url else { return completionHandler(nil) }
        switch registry.redirect(id) {
        case .answer:
            completionHandler(nil)
        case .tooMany:
            // The completion is claimed with the error; the redirect answer that follows is ignored.
            // (Cancelling the task here makes Foundation trap on the completion handler.)
            registry.fail(id, with: TransportError(.tooManyRedirects))
            completionHandler(nil)
        case .follow:
            let current = task.currentRequest
            let hasBody = (current?.httpBody ?? task.originalRequest?.httpBody).map { !$0.isEmpty } ?? false
            if let refusal = RedirectPolicy.refusal(
                from: from, to: to, status: response.statusCode, method: (current?.httpMethod ?? "GET").uppercased(), hasBody: hasBody)
            {
                registry.fail(id, with: refusal)
                return completionHandler(nil)
            }
            // Method and body by the status (Foundation drops a 307's body), headers by origin.
            var next = request
            let after = RedirectPolicy.method(after: response.statusCode, was: (current?.httpMethod ?? "GET").uppercased())
            next.httpMethod = after.method
            next.httpBody = after.keepsBody ? (current?.httpBody ?? task.originalRequest?.httpBody) : nil
            let original = (current?.allHTTPHeaderFields ?? [:]).map { (name: $0.key, value: $0.value) }
            let kept = RedirectPolicy.headers(original, from: from, to: to, keepsBody: next.httpBody != nil)
            next.allHTTPHeaderFields = Dictionary(kept.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
            completionHandler(next)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if !registry.received(dataTask.taskIdentifier, data: data) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        registry.finish(task.taskIdentifier, error: error.map(TransportError.init(converting:)))
    }
}
