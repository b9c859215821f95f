import FoundationEssentials

/// The client-side state of one URL: its latest data, its latest error, and its requests.
///
/// Answers three questions — what is the latest data, did the latest load fail, is a load in
/// flight — and tells its observers whenever an answer changes. Only loads (`load()`,
/// `loadIfNeeded()`, `load(using:)`) change this state; `request(...)` never does. Get one from
/// `Service.resource(_:)`; there is at most one per URL.
@MainActor
public final class Resource {
    /// The service this resource belongs to.
    public let service: Service

    /// The absolute URL.
    public nonisolated let url: URL

    /// What `load()` sends, when it is more than a plain GET (see `withLoadRequest(_:)`).
    public nonisolated let loadRequest: LoadRequest?

    /// What makes this resource one of a kind in its service: the URL, and the load request's key
    /// when there is one. Persistent cache entries (and whatever a host keeps per request) are filed under it.
    public nonisolated let identity: String

    /// Set for resources made from a URL that could not be parsed: their requests fail at once.
    let invalidURLSource: String??

    // The state every probe reads several times is stored privately and read through public
    // accessors: the compiler then sees every access and needs no run-time exclusivity check
    // (one per read of a public stored property, ~70 instructions, on every event).

    /// The latest good data. Kept after an error; cleared only by `wipe()`.
    public internal(set) var latestData: Entity? {
        get { storedData }
        set {
            storedData = newValue
            storedHasData = newValue != nil
        }
    }
    private var storedData: Entity?

    /// Marks the data confirmed at `now` (a 304): changed in place, out of its storage while it
    /// changes, so the access to the storage stays one that needs no run-time check.
    func touchData(_ now: TimeInterval) {
        guard var data = storedData else { return }
        storedData = nil
        data.touch(now)
        storedData = data
    }

    /// The latest failure; cleared by any success, a 304, a local override or a wipe.
    public internal(set) var latestError: RequestError? {
        get { storedError }
        set {
            storedError = newValue
            storedHasError = newValue != nil
        }
    }
    private var storedError: RequestError?

    /// `latestData != nil`, kept as a flag: reading the optional would copy the entity out, and
    /// this is asked for every observer on every frame.
    public var hasData: Bool { storedHasData }
    private var storedHasData = false

    /// `latestError != nil`, kept as a flag for the same reason.
    public var hasError: Bool { storedHasError }
    private var storedHasError = false

    /// Load requests in flight, oldest first.
    public internal(set) var loadRequests: [Request] = [] {
        didSet { storedIsLoading = !loadRequests.isEmpty }
    }
    private var storedIsLoading = false

    /// Every request made through this resource that is in flight, loads included, oldest first.
    public internal(set) var allRequests: [Request] = []

    /// Status code, latency and size of the latest completed load.
    public internal(set) var latestMetrics: TransferMetrics? {
        get { storedMetrics }
        set { storedMetrics = newValue }
    }
    private var storedMetrics: TransferMetrics?

    /// Forces the next `loadIfNeeded()` to load; cleared by any change to data or error.
    var isInvalidated = false
    /// What the pipeline made of this resource's last remembered body (`Pipeline.process(_:reusing:)`).
    var pipelineMemo: PipelineMemo?

    /// Whether the persistent cache has been consulted (once, before the first load).
    var cacheChecked = false

    var observerEntries: [ObserverEntry] = []
    var observerIndex: [AnyHashable: ObserverEntry] = [:]
    /// A deliberate cycle: an observed resource stays alive even if the service releases it.
    var keepAliveWhileObserved: Resource?
    /// The next refresh of `Configuration.refreshInterval`, failed refreshes in a row, and when
    /// the latest refresh started.
    var refreshTimer: EngineTimer?
    var keepingFresh = false
    var failedRefreshes = 0
    var lastRefreshStarted: TimeInterval?

    /// By `RequestMethod.ordinal`: looked up several times for every request, so not hashed.
    private var configurationCache = [Configuration?](repeating: nil, count: RequestMethod.allCases.count)
    /// `configurationCache[RequestMethod.get.ordinal]`, nearly every lookup's, in a place of its own
    /// (only ever assigned, so reading it is no run-time exclusivity check).
    private var getConfiguration: Configuration?
    private var configurationCacheVersion = -1

    init(service: Service, url: URL, loadRequest: LoadRequest? = nil) {
        self.service = service
        self.url = url
        self.loadRequest = loadRequest
        self.identity = Resource.identity(url: url, loadRequest: loadRequest)
        self.invalidURLSource = nil
    }

    init(service: Service, invalidURLSource: String?) {
        self.service = service
        self.url = URL(string: "invalid:")!
        self.loadRequest = nil
        self.identity = "invalid:"
        self.invalidURLSource = .some(invalidURLSource)
    }

    /// The URL string, then (for a load request) a NUL, which no URL contains, and its key.
    nonisolated static func identity(url: URL, loadRequest: LoadRequest?) -> String {
        guard let loadRequest else { return url.absoluteString }
        return url.absoluteString + "\u{0}" + loadRequest.key
    }

    /// The resource for the same URL whose loads send `loadRequest`: its own data, error and
    /// requests, shared with every other user of an identical load request. A plain GET (or nil)
    /// gives the URL's own resource. Navigation from it (`child`, `withParam`…) leads to plain ones.
    public func withLoadRequest(_ loadRequest: LoadRequest?) -> Resource {
        guard !isInvalid else { return self }
        return service.resource(url: url, loadRequest: loadRequest)
    }

    /// True for resources whose URL could not be formed.
    public var isInvalid: Bool { invalidURLSource != nil }

    // MARK: State

    /// True while a load request is in flight.
    public var isLoading: Bool { storedIsLoading }

    /// True while any request made through this resource is in flight.
    public var isRequesting: Bool { !allRequests.isEmpty }

    /// The later of the data's and the error's timestamps; 0 when there is neither.
    public var timestamp: TimeInterval {
        max(latestData?.timestamp ?? 0, latestError?.timestamp ?? 0)
    }

    // MARK: Configuration

    /// The configuration for GET requests, which also supplies `expirationTime` and `retryTime`.
    public var configuration: Configuration { configuration(for: .get) }

    /// Drops the cached configuration (and the closures in it) now, not at the next use.
    func forgetConfiguration() {
        configurationCache = [Configuration?](repeating: nil, count: RequestMethod.allCases.count)
        getConfiguration = nil
    }

    /// The configuration for `method`, computed lazily and cached until configuration changes.
    public func configuration(for method: RequestMethod) -> Configuration {
        if isInvalid { return Configuration() }
        if configurationCacheVersion != service.configVersion {
            forgetConfiguration()
            configurationCacheVersion = service.configVersion
        }
        if method == .get, let getConfiguration { return getConfiguration }
        if let cached = configurationCache[method.ordinal] { return cached }
        var computed = service.computeConfiguration(for: url, method: method)
        loadRequest?.adjustConfiguration?(&computed)
        configurationCache[method.ordinal] = computed
        if method == .get { getConfiguration = computed }
        return computed
    }
}

extension Resource: CustomStringConvertible {
    /// `Resource(…/path)[LDE]`: L loading, D has data, E has error.
    public nonisolated var description: String {
        MainActor.assumeIsolated {
            var text = url.absoluteString
            if isInvalid {
                text = "invalid: \((invalidURLSource ?? nil) ?? "nil")"
            } else if let base = service.baseURL?.absoluteString, text.hasPrefix(base) {
                text = "…/" + text.dropFirst(base.count)
            }
            if let loadRequest { text = loadRequest.method.httpName + " " + text }
            let flags = (isLoading ? "L" : "") + (latestData != nil ? "D" : "") + (latestError != nil ? "E" : "")
            return "Resource(\(text))" + (flags.isEmpty ? "" : "[\(flags)]")
        }
    }
}

extension Resource: ConfigurationPatternConvertible {
    /// Matches exactly this resource's URL.
    public nonisolated func configurationPattern(baseURL: URL?) -> @Sendable (URL) -> Bool {
        let target = url.absoluteString
        return { $0.absoluteString == target }
    }

    public nonisolated var configurationPatternDescription: String { url.absoluteString }
}
