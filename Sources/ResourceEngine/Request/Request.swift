/// One HTTP request (or something that behaves like one), with hooks for its outcome.
///
/// Every hook fires at most once, always asynchronously on the main actor — even when added after
/// the request completed — and hooks fire in the order they were added. `onSuccess` covers new data
/// and 304s; `onFailure` covers errors and cancellation; `onCompletion` covers everything.
/// Progress always ends at 1, reported before the completion hooks run.
@MainActor
public final class Request {
    /// Where a request is in its life.
    public enum State: Sendable {
        /// Made, not started (`start()` starts it).
        case notStarted
        /// Started, no outcome yet.
        case inProgress
        /// It has its outcome (`responseInfo`); hooks added now run with it.
        case completed
    }

    /// Where this request is in its life.
    public var state: State { storedState }
    private var storedState: State = State.notStarted

    /// The outcome, once completed.
    public var responseInfo: ResponseInfo? { storedResponseInfo }
    private var storedResponseInfo: ResponseInfo?

    /// Progress in 0...1; exactly 1 once completed.
    public var progress: Double { storedProgress }
    private var storedProgress: Double = 0

    let delegate: any RequestDelegate
    private var responseCallbacks: [@MainActor (ResponseInfo) -> Void] = []
    private var progressCallbacks: [@MainActor (Double) -> Void] = []

    /// The resource this request is a load of, and where among the hooks it is told of the
    /// outcome and the progress: the place `Resource.load(using:)` would have added its two hooks
    /// (a resource is loaded every refresh, and two closures a load showed in every probe).
    private var load: LoadSlot?

    /// Where a resource's load hooks stand among the request's hooks.
    private struct LoadSlot {
        weak var resource: Resource?
        let response: Int
        let progress: Int
        let isOwnLoad: Bool
    }

    /// Wraps a delegate in a request that has not started yet.
    public init(delegate: any RequestDelegate) {
        self.delegate = delegate
    }

    /// True once the request has an outcome.
    public var isCompleted: Bool { state == .completed }

    /// A description of the underlying operation, for logs.
    public var requestDescription: String { delegate.requestDescription }

    /// Starts a request that has not started; does nothing otherwise.
    @discardableResult
    public func start() -> Request {
        guard state == .notStarted else { return self }
        storedState = .inProgress
        EngineLog.log(.network, delegate.requestDescription)
        delegate.startUnderlyingOperation(passingResponseTo: self)
        return self
    }

    /// Cancels the request if it has not completed: it completes at once with a cancellation error,
    /// and any later response is ignored. No effect on a completed request.
    public func cancel() {
        guard state != .completed else { return }
        EngineLog.log(.network, "cancelled \(delegate.requestDescription)")
        delegate.cancelUnderlyingOperation()
        broadcastResponse(.cancellation)
    }

    /// A new, unstarted request that performs the same work again. Hooks are not copied.
    ///
    /// A network request rebuilds its `OutgoingRequest`, so it picks up configuration changes made since.
    public func repeated() -> Request {
        if delegate is HardWiredRequestDelegate { return self }
        return Request(delegate: delegate.repeated())
    }

    // MARK: Hooks

    /// Calls `callback` with the outcome, whatever it is.
    @discardableResult
    public func onCompletion(_ callback: @escaping @MainActor (ResponseInfo) -> Void) -> Request {
        addResponseCallback(callback)
    }

    /// Calls `callback` with the entity on success: new data or a 304 that kept the old data.
    @discardableResult
    public func onSuccess(_ callback: @escaping @MainActor (Entity) -> Void) -> Request {
        addResponseCallback { info in
            if case .success(let entity) = info.response { callback(entity) }
        }
    }

    /// Calls `callback` on success with new data (not on a 304).
    @discardableResult
    public func onNewData(_ callback: @escaping @MainActor (Entity) -> Void) -> Request {
        addResponseCallback { info in
            if info.isNew, case .success(let entity) = info.response { callback(entity) }
        }
    }

    /// Calls `callback` when the server confirmed the existing data (304).
    @discardableResult
    public func onNotModified(_ callback: @escaping @MainActor () -> Void) -> Request {
        addResponseCallback { info in
            if !info.isNew, case .success = info.response { callback() }
        }
    }

    /// Calls `callback` on failure, including cancellation.
    @discardableResult
    public func onFailure(_ callback: @escaping @MainActor (RequestError) -> Void) -> Request {
        addResponseCallback { info in
            if case .failure(let error) = info.response { callback(error) }
        }
    }

    /// Calls `callback` as progress increases; the last call reports 1.
    @discardableResult
    public func onProgress(_ callback: @escaping @MainActor (Double) -> Void) -> Request {
        if state == .completed {
            MainQueue.async { callback(1) }
        } else {
            progressCallbacks.append(callback)
        }
        return self
    }

    /// Tells `resource` of this request's outcome and progress where hooks added now would run;
    /// false (nothing done) when the request is already some resource's load or has completed,
    /// and hooks must do it.
    func track(asLoadOf resource: Resource, isOwnLoad: Bool) -> Bool {
        guard load == nil, state != .completed else { return false }
        load = LoadSlot(resource: resource, response: responseCallbacks.count, progress: progressCallbacks.count, isOwnLoad: isOwnLoad)
        return true
    }

    private func addResponseCallback(_ callback: @escaping @MainActor (ResponseInfo) -> Void) -> Request {
        if let responseInfo, state == .completed {
            MainQueue.async { callback(responseInfo) }
        } else {
            responseCallbacks.append(callback)
        }
        return self
    }
}

extension Request: RequestCompletionHandler {
    public func broadcastResponse(_ responseInfo: ResponseInfo) {
        broadcastResponse(responseInfo, inOwnTurn: false)
    }

    /// Completes the request. `inOwnTurn`: the caller runs in a main-queue turn of its own that
    /// nothing but the answer started (the network's delivery), so the hooks run in it, still
    /// asynchronously to whoever started or cancelled the request; otherwise in the next turn.
    func broadcastResponse(_ responseInfo: ResponseInfo, inOwnTurn: Bool) {
        guard !willIgnore(responseInfo) else {
            if !responseInfo.response.isCancellation {
                EngineLog.log(.network, "ignoring late response to \(delegate.requestDescription)")
            }
            return
        }
        storedState = .completed
        storedResponseInfo = responseInfo
        // Progress ends at 1 for those not yet told 1.
        let progressEnds = progress < 1
        let finalProgress = progressEnds ? progressCallbacks : []
        storedProgress = 1
        progressCallbacks = []
        let callbacks = responseCallbacks
        responseCallbacks = []
        let load = self.load
        self.load = nil
        guard inOwnTurn else {
            MainQueue.async { Request.deliver(responseInfo, to: callbacks, progressEnds: progressEnds, finalProgress, load: load) }
            return
        }
        Request.deliver(responseInfo, to: callbacks, progressEnds: progressEnds, finalProgress, load: load)
    }

    /// The final progress, then the outcome, to each hook in order, and to the resource whose
    /// load this is in the places its hooks would have had.
    private static func deliver(
        _ info: ResponseInfo, to callbacks: [@MainActor (ResponseInfo) -> Void], progressEnds: Bool, _ finalProgress: [@MainActor (Double) -> Void],
        load: LoadSlot?
    ) {
        let resource = load?.resource
        if progressEnds {
            run(finalProgress, with: 1, at: load?.progress) { resource?.notifyObserversOfProgress(1) }
        }
        run(callbacks, with: info, at: load?.response) { resource?.loadFinished(with: info, isOwnLoad: load?.isOwnLoad ?? true) }
    }

    /// Runs each of `callbacks` with `value` in order, and `own` where a hook at `position` would
    /// have run (after them all when `position` is past the end; never when it is nil).
    private static func run<Value>(_ callbacks: [@MainActor (Value) -> Void], with value: Value, at position: Int?, _ own: () -> Void) {
        for (index, callback) in callbacks.enumerated() {
            if index == position { own() }
            callback(value)
        }
        if let position, position >= callbacks.count { own() }
    }

    public func willIgnore(_ responseInfo: ResponseInfo) -> Bool {
        state == .completed
    }

    public func reportProgress(_ progress: Double) {
        guard state != .completed, progress.isFinite, progress > self.progress else { return }
        storedProgress = min(progress, 1)
        let resource = load?.resource
        let progress = storedProgress
        Request.run(progressCallbacks, with: progress, at: load?.progress) { resource?.notifyObserversOfProgress(progress) }
    }
}

