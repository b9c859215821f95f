import FoundationEssentials
import TextBasics

extension Resource {
    // MARK: Freshness

    /// True when the data (or, after a failure, the error) is recent enough that
    /// `loadIfNeeded()` would not load: within `expirationTime` of data, `retryTime` of an error,
    /// and not invalidated.
    public var isUpToDate: Bool {
        guard latestData != nil || latestError != nil else { return false }
        let configuration = configuration(for: .get)
        let maxAge = latestError != nil ? configuration.retryTime : configuration.expirationTime
        let age = service.clock.now - timestamp
        let upToDate = !isInvalidated && age <= maxAge
        EngineLog.log(
            .staleness,
            "\(self) " + (isInvalidated ? "is invalidated"
                : upToDate ? "\(latestError != nil ? "error" : "data") is valid for another \(String(printf: "%.1f", maxAge - age)) s"
                : "\(latestError != nil ? "error" : "data") expired \(String(printf: "%.1f", age - maxAge)) s ago"))
        return upToDate
    }

    // MARK: Loading

    /// Loads unless a load is in flight (returns that one) or the state is fresh (returns nil).
    ///
    /// The call to make on every timer tick and every screen that appears: it never piles up
    /// requests and never hammers a failing server faster than `retryTime`.
    @discardableResult
    public func loadIfNeeded() -> Request? {
        if let inFlight = loadRequests.first { return inFlight }
        checkCacheIfNeeded()
        if isUpToDate { return nil }
        return load()
    }

    /// Always starts a new load: a GET, or this resource's `loadRequest`. A GET sends
    /// `If-None-Match` when the data has an ETag and `If-Modified-Since` when it has a
    /// `Last-Modified` (a server without ETags, such as Python's `http.server`, then answers 304,
    /// `notModified`, for data that has not changed).
    ///
    /// Two calls make two concurrent loads; use `loadIfNeeded()` to share one.
    @discardableResult
    public func load() -> Request {
        let template = loadRequest
        let method = template?.method ?? .get
        let request = request(method, removedByLoad: true) { [weak self] urlRequest in
            if let template {
                for (name, value) in template.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
                if let timeout = template.timeout { urlRequest.timeoutInterval = timeout }
                if let body = template.body {
                    urlRequest.httpBody = body
                    if let contentType = template.contentType { urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type") }
                }
            }
            if method == .get || method == .head, let data = self?.latestData {
                if let etag = data.etag { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
                if let lastModified = data.lastModified { urlRequest.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
            }
        }
        return load(using: request, isOwnLoad: true)
    }

    /// Makes `request` count as a load of this resource: its outcome updates this resource's state.
    ///
    /// Any method, even a request from another resource (a POST whose response is this
    /// resource's new state). Observers get `requested` at once. Its data is not written to the
    /// persistent cache, which keeps only what this resource's own `load()` fetched.
    @discardableResult
    public func load(using request: Request) -> Request {
        load(using: request, isOwnLoad: false)
    }

    private func load(using request: Request, isOwnLoad: Bool) -> Request {
        loadRequests.append(request)
        // One hook in place of onCompletion, onNewData, onNotModified and onFailure, in that order,
        // and the progress hook: kept by the request as this resource's place among its hooks
        // (no closures), or as closures when the request is already another resource's load.
        if !request.track(asLoadOf: self, isOwnLoad: isOwnLoad) {
            request.onCompletion { [weak self] info in self?.loadFinished(with: info, isOwnLoad: isOwnLoad) }
            request.onProgress { [weak self] progress in self?.notifyObserversOfProgress(progress) }
        }
        notifyObservers(.requested)
        return request
    }

    /// A load's outcome: the resource's state, and what its observers hear.
    func loadFinished(with info: ResponseInfo, isOwnLoad: Bool) {
        removeCompletedRequests()
        if let metrics = info.metrics { latestMetrics = metrics }
        switch info.response {
        case .success(let entity) where info.isNew: receiveNewData(entity, source: .network, cacheable: isOwnLoad)
        case .success: receiveDataNotModified()
        case .failure(let error): receiveError(error)
        }
    }

    /// The lists hold a request or two: removing in place is cheaper than `removeAll(where:)`,
    /// which runs for every finished request.
    private static func removeCompleted(from requests: inout [Request]) {
        var index = requests.startIndex
        while index < requests.endIndex {
            if requests[index].isCompleted {
                requests.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    func removeCompletedRequests() {
        Resource.removeCompleted(from: &loadRequests)
        Resource.removeCompleted(from: &allRequests)
    }

    // MARK: State changes

    private func receiveNewData(_ entity: Entity, source: ResourceEvent.NewDataSource, cacheable: Bool = false) {
        latestError = nil
        latestData = entity
        isInvalidated = false
        cacheChecked = true
        if let cache = configuration.cache {
            switch source {
            case .network: if cacheable { cache.writeEntity(entity, forKey: cacheKey) }
            case .localOverride: cache.removeEntity(forKey: cacheKey)
            case .cache, .wipe: break
            }
        }
        notifyObservers(.newData(source))
    }

    private func receiveDataNotModified() {
        latestError = nil
        touchData(service.clock.now)
        isInvalidated = false
        if let timestamp = latestData?.timestamp { configuration.cache?.updateTimestamp(timestamp, forKey: cacheKey) }
        notifyObservers(.notModified)
    }

    // MARK: Persistent cache

    /// The key this resource's entry has in the persistent cache.
    var cacheKey: String { configuration.cacheNamespace + "\n" + identity }

    /// Before the first load: fills `latestData` from the persistent cache, if there is one and
    /// nothing else has filled it, and tells observers `newData(cache)`. The entity keeps the
    /// timestamp of the response it came from, so staleness (and "cached 5m ago") is honest.
    func checkCacheIfNeeded() {
        guard !cacheChecked else { return }
        cacheChecked = true
        guard !isInvalid, latestData == nil, let cache = configuration.cache else { return }
        guard let entity = cache.readEntity(forKey: cacheKey) else {
            EngineLog.log(.cache, "\(self) no cache entry")
            return
        }
        EngineLog.log(.cache, "\(self) filled from cache")
        latestData = entity
        notifyObservers(.newData(.cache))
    }

    private func receiveError(_ error: RequestError) {
        if error.isCancellation {
            notifyObservers(.requestCancelled)
            return
        }
        var error = error
        error.timestamp = service.clock.now
        latestError = error
        isInvalidated = false
        notifyObservers(.error)
    }

    // MARK: Local changes

    /// Replaces the data locally, without the network or the pipeline: clears the error and tells
    /// observers `newData(localOverride)`.
    public func overrideLocalData(with entity: Entity) {
        receiveNewData(entity, source: .localOverride)
    }

    /// Replaces only the content, keeping headers and content type; the timestamp becomes now.
    public func overrideLocalContent(with content: any Sendable) {
        var entity = latestData ?? Entity(content: content, contentType: "application/binary", timestamp: 0)
        entity.content = content
        entity.touch(service.clock.now)
        overrideLocalData(with: entity)
    }

    /// Makes the next `loadIfNeeded()` load, however fresh the data is. Data and error stay.
    public func invalidate() {
        isInvalidated = true
    }

    /// Cancels every request, clears data and error, and tells observers `newData(wipe)`.
    ///
    /// The cancelled loads later report `requestCancelled`.
    public func wipe() {
        for request in allRequests + loadRequests { request.cancel() }
        cacheChecked = false
        latestData = nil
        latestError = nil
        latestMetrics = nil
        isInvalidated = false
        notifyObservers(.newData(.wipe))
    }

    /// Cancels the loads in flight if nobody observes this resource any more.
    public func cancelLoadIfUnobserved() {
        cleanDefunctObservers()
        guard observerEntries.isEmpty else { return }
        for request in loadRequests { request.cancel() }
    }

    /// After `delay` seconds, cancels the loads in flight if nobody observes this resource, then
    /// calls `callback` either way. Lets a screen that goes away briefly keep its load.
    public func cancelLoadIfUnobserved(afterDelay delay: TimeInterval, then callback: @escaping @MainActor () -> Void = {}) {
        MainQueue.asyncAfter(seconds: delay) { [self] in
            cancelLoadIfUnobserved()
            callback()
        }
    }
}
