import FoundationEssentials

/// How requests for a resource are made and their responses processed.
///
/// Built fresh per resource and method by applying, in the order they were added, every
/// `Service.configure` block whose pattern and methods match. Cached until the next
/// `configure` or `invalidateConfiguration()`.
public struct Configuration {
    /// How long data stays fresh for `loadIfNeeded()`. Only the GET configuration's value is used.
    public var expirationTime: TimeInterval {
        get { storage.value.expirationTime }
        _modify { yield &storage.value.expirationTime }
    }

    /// How long after a failure `loadIfNeeded()` waits before trying again. GET configuration only.
    public var retryTime: TimeInterval {
        get { storage.value.retryTime }
        _modify { yield &storage.value.retryTime }
    }

    /// Keeps a resource fresh while it has observers: loaded when the first observer arrives
    /// (or, when its data is younger than this, once the data is this old), then again this long
    /// after each load started; after a failure, again after `retryTime`, twice as long after
    /// each failure in a row, at most this long (or `retryTime`, if longer; never sooner than
    /// half a second). `refreshSchedule` is the rule as a value.
    /// Nil, the default: nothing loads unless asked.
    public var refreshInterval: TimeInterval? {
        get { storage.value.refreshInterval }
        _modify { yield &storage.value.refreshInterval }
    }

    /// The schedule `refreshInterval` keeps a resource fresh by; nil when it is not set (or not
    /// positive).
    public var refreshSchedule: RefreshSchedule? {
        guard let interval = refreshInterval, interval > 0 else { return nil }
        // Never back to back: a refused connection fails at once.
        return RefreshSchedule(interval: interval, retry: max(0.5, retryTime))
    }

    /// How often a load in flight reports its estimated progress (`Request.onProgress`,
    /// `resourceRequestProgress`), on the service's clock; 0: only the bytes the transport counts,
    /// and the final 1.
    public var progressReportingInterval: TimeInterval {
        get { storage.value.progressReportingInterval }
        _modify { yield &storage.value.progressReportingInterval }
    }

    /// Seconds a request may take in all before it fails (60 by default).
    public var timeout: TimeInterval {
        get { storage.value.timeout }
        _modify { yield &storage.value.timeout }
    }

    /// Headers added to every request.
    public var headers: [String: String] {
        get { storage.value.headers }
        _modify { yield &storage.value.headers }
    }

    /// Headers whose values are worked out as each request is built (a token read from a file
    /// that may change, a login session's current token). Set after `headers`, so they win for
    /// the same name; a nil value sends no such header.
    public var computedHeaders: [String: @MainActor () -> String?] {
        get { storage.value.computedHeaders }
        _modify { yield &storage.value.computedHeaders }
    }

    /// TLS settings and the redirect limit, handed to the networking provider with each request.
    public var transport: TransportOptions {
        get { storage.value.transport }
        _modify { yield &storage.value.transport }
    }

    /// How responses are transformed before they reach the resource.
    public var pipeline: Pipeline {
        get { storage.value.pipeline }
        _modify { yield &storage.value.pipeline }
    }

    /// Where successful responses are kept across runs; nil for none. GET configuration only.
    public var cache: (any EntityCache)? {
        get { storage.value.cache }
        _modify { yield &storage.value.cache }
    }

    /// Part of every cache key: set it to something that changes when the pipeline that shapes
    /// the content changes, so a cache never serves data shaped by an older configuration.
    public var cacheNamespace: String {
        get { storage.value.cacheNamespace }
        _modify { yield &storage.value.cacheNamespace }
    }

    /// The mutation closures, in the order added.
    public var requestMutations: [@MainActor (inout OutgoingRequest) -> Void] { storage.value.requestMutations }

    /// The decorators, in the order added.
    public var requestDecorators: [@MainActor (Resource, Request) -> Request] { storage.value.requestDecorators }

    /// The fields, shared between copies until one changes: a configuration is copied out of the
    /// resource's cache several times per request, and a copy of a struct of this many arrays,
    /// dictionaries and strings retained each of them.
    private struct Fields {
        var expirationTime: TimeInterval = 30
        var retryTime: TimeInterval = 1
        var refreshInterval: TimeInterval?
        var progressReportingInterval: TimeInterval = 0.05
        var timeout: TimeInterval = 60
        var headers: [String: String] = [:]
        var computedHeaders: [String: @MainActor () -> String?] = [:]
        var transport = TransportOptions()
        var pipeline = Pipeline()
        var cache: (any EntityCache)?
        var cacheNamespace = ""
        var requestMutations: [@MainActor (inout OutgoingRequest) -> Void] = []
        var requestDecorators: [@MainActor (Resource, Request) -> Request] = []
    }

    private var storage = CopyOnWrite(Fields())

    /// The defaults: data stale after 30 s, a failure retried after 1 s, requests time out after
    /// 60 s, no headers, an empty pipeline (a `Service` adds its standard parsers to it).
    public init() {}

    /// Adds a closure that may alter each `OutgoingRequest` before it is sent.
    ///
    /// Runs after the caller's own mutation (so it can override `Content-Type`), in the order added.
    public mutating func mutateRequests(with mutation: @escaping @MainActor (inout OutgoingRequest) -> Void) {
        storage.value.requestMutations.append(mutation)
    }

    /// Adds a closure that may wrap or replace each request before it starts, e.g. with a chain.
    ///
    /// Decorators run in the order added, each receiving the previous one's result; the last
    /// result is the request that is started, tracked and returned.
    public mutating func decorateRequests(with decorator: @escaping @MainActor (Resource, Request) -> Request) {
        storage.value.requestDecorators.append(decorator)
    }
}
