import FoundationEssentials

/// One API: a base URL, its configuration, and the cache of its resources.
///
/// Hands out exactly one `Resource` per absolute URL string, however the URL was reached, so every
/// observer watching `/health` shares one state and one set of requests. Lives on the main actor.
@MainActor
public final class Service {
    /// The URL that relative paths are resolved against; its path always ends in `/`.
    public let baseURL: URL?

    /// The transport every request goes through.
    public let networking: any NetworkingProvider

    /// The clock every timestamp and staleness check reads.
    public let clock: any EngineClock

    /// When more resources than this are cached, unused ones are released.
    ///
    /// A flush that leaves more resources than this (they are all in use) moves the next flush
    /// out to twice as many, so watching 10,000 resources does not flush on every new one.
    public var cachedResourceCountLimit = 2048 {
        didSet {
            nextFlushAt = cachedResourceCountLimit
            if resourceCache.count > cachedResourceCountLimit { flushUnusedResources() }
        }
    }
    private var nextFlushAt = 2048

    private(set) var configVersion = 0
    private var configEntries: [ConfigurationEntry] = []
    private var resourceCache: [String: CachedResource] = [:]
    /// Path as given → absolute URL string, so repeated lookups skip building a URL.
    private var pathKeys: [String: String] = [:]
    private var sharedInvalidResource: Resource?

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - baseURL: the root of the API; a trailing `/` is added to its path. A string that is not
    ///     a URL as written (`"\0"`, `"http://[x"`) gives no base URL, so path resources are invalid.
    ///   - standardTransformers: parsers registered at the `parsing` stage for every URL: JSON,
    ///     newline-delimited JSON and text by default.
    ///   - networking: the transport; a ``CurlProvider`` (libcurl) of the service's own by default.
    ///   - clock: the source of "now"; the system clock by default.
    public init(
        baseURL: String? = nil,
        standardTransformers: [StandardTransformer] = [.json, .ndjson, .text],
        networking: (any NetworkingProvider)? = nil,
        clock: any EngineClock = SystemClock()
    ) {
        self.baseURL = baseURL.flatMap(URL.strict).flatMap(Service.withTrailingSlash)
        self.networking = networking ?? CurlProvider()
        self.clock = clock
        for standard in standardTransformers {
            // Gated once here, not in the block: the block runs for every resource.
            var stage = PipelineStage()
            stage.add(standard.transformer, contentTypes: standard.contentTypes)
            let gated = stage.transformers[0]
            configure(description: "standard \(standard.name) parsing") {
                $0.pipeline[.parsing].add(gated)
            }
        }
    }

    /// Creates a service from a `URL`.
    public convenience init(
        baseURL: URL?,
        standardTransformers: [StandardTransformer] = [.json, .ndjson, .text],
        networking: (any NetworkingProvider)? = nil,
        clock: any EngineClock = SystemClock()
    ) {
        self.init(
            baseURL: baseURL?.absoluteString, standardTransformers: standardTransformers,
            networking: networking, clock: clock)
    }

    private static func withTrailingSlash(_ url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        if !components.path.hasSuffix("/") { components.path += "/" }
        return components.url
    }

    // MARK: Resources

    /// The resource for `path` under the base URL.
    ///
    /// One leading `/` is dropped; the rest is appended verbatim, so `..`, `//` and `?` are kept
    /// or escaped rather than interpreted (`"//other.host"` gives `…/v1//other.host`). Without a
    /// base URL the resource is invalid.
    public func resource(_ path: String) -> Resource {
        if let key = pathKeys[path], let resource = resourceCache[key]?.retain() { return resource }
        let resource = resource(baseURL: baseURL, path: path)
        if !resource.isInvalid {
            if pathKeys.count >= cachedResourceCountLimit { pathKeys.removeAll() }
            pathKeys[path] = resource.identity
        }
        return resource
    }

    /// The resource for `path` under a base URL other than the service's.
    public func resource(baseURL: URL?, path: String) -> Resource {
        guard let baseURL else { return invalidResource(source: path) }
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        guard let url = baseURL.appendingVerbatimPathComponent(trimmed) else { return invalidResource(source: path) }
        return resource(absoluteURL: url)
    }

    /// The resource for a URL string, ignoring the base URL.
    ///
    /// The string is used as written, even without a scheme (`"./foo"` stays `./foo`, and matches
    /// the pattern `"./foo"` on a service without a base URL); such a resource fails when loaded.
    /// A string that is not a URL (`"\0"`, `"http://[x"`) gives an invalid resource.
    public func resource(absoluteURL string: String?) -> Resource {
        guard let string else { return sharedInvalid() }
        guard let url = URL.strict(string) else { return invalidResource(source: string) }
        return resource(absoluteURL: url)
    }

    /// The resource for an absolute URL, ignoring the base URL.
    public func resource(absoluteURL url: URL?) -> Resource {
        guard let url = url?.absoluteURL else { return sharedInvalid() }
        return resource(url: url, loadRequest: nil)
    }

    /// The one resource for `url` loaded with `loadRequest` (nil or a plain GET: the URL's own).
    func resource(url: URL, loadRequest: LoadRequest?) -> Resource {
        let loadRequest = loadRequest?.isPlainGET == true ? nil : loadRequest
        let key = Resource.identity(url: url, loadRequest: loadRequest)
        if let entry = resourceCache[key], let resource = entry.retain() {
            return resource
        }
        if resourceCache.count >= nextFlushAt {
            flushUnusedResources()
            nextFlushAt = max(cachedResourceCountLimit, resourceCache.count * 2)
        }
        let resource = Resource(service: self, url: url, loadRequest: loadRequest)
        resourceCache[key] = CachedResource(resource)
        return resource
    }

    /// The resources currently cached, in no particular order.
    public var cachedResources: [Resource] {
        resourceCache.values.compactMap(\.resource)
    }

    private func sharedInvalid() -> Resource {
        if let sharedInvalidResource { return sharedInvalidResource }
        let resource = invalidResource(source: nil)
        sharedInvalidResource = resource
        return resource
    }

    private func invalidResource(source: String?) -> Resource {
        EngineLog.log(.configuration, "invalid URL: \(source ?? "nil")")
        return Resource(service: self, invalidURLSource: source)
    }

    /// Releases every cached resource that nothing else uses.
    ///
    /// Resources with observers, requests in flight, or references held elsewhere survive; the
    /// next lookup of a released URL creates a fresh resource.
    public func flushUnusedResources() {
        for entry in resourceCache.values {
            entry.resource?.cleanDefunctObservers()
            entry.release()
        }
        resourceCache = resourceCache.filter { $0.value.resource != nil }
        pathKeys = pathKeys.filter { resourceCache[$0.value] != nil }
    }

    /// Lets go of a service that is being replaced (a reloaded config): drops its configuration
    /// — a block may capture an object (a login session) that holds one of its resources, and
    /// resources hold their service — and releases every cached resource. Resources still held
    /// elsewhere keep working, with no configuration. Not in Siesta, whose services live as long
    /// as the app.
    public func tearDown() {
        configEntries.removeAll()
        invalidateConfiguration()
        for entry in resourceCache.values {
            entry.resource?.forgetConfiguration()
            entry.resource?.cleanDefunctObservers()
            entry.release()
        }
        resourceCache = [:]
        pathKeys = [:]
    }

    // MARK: Configuration

    /// Adds a configuration block for every URL matching `pattern` and, optionally, only some methods.
    ///
    /// Every matching block applies, in the order added; later blocks see and may change what
    /// earlier ones set.
    public func configure(
        _ pattern: any ConfigurationPatternConvertible,
        requestMethods: [RequestMethod]? = nil,
        description: String? = nil,
        configurer: @escaping @MainActor (inout Configuration) -> Void
    ) {
        let matcher = pattern.configurationPattern(baseURL: baseURL)
        addConfigEntry(
            description: description ?? pattern.configurationPatternDescription,
            methods: requestMethods, matches: matcher, configurer: configurer)
    }

    /// Adds a configuration block for URLs the predicate accepts; without one, for every URL
    /// (including URLs outside the base URL, unlike the pattern `"**"`).
    public func configure(
        whenURLMatches predicate: @escaping @Sendable (URL) -> Bool = { _ in true },
        requestMethods: [RequestMethod]? = nil,
        description: String? = nil,
        configurer: @escaping @MainActor (inout Configuration) -> Void
    ) {
        addConfigEntry(
            description: description ?? "custom", methods: requestMethods, matches: predicate,
            configurer: configurer)
    }

    private func addConfigEntry(
        description: String, methods: [RequestMethod]?, matches: @escaping @Sendable (URL) -> Bool,
        configurer: @escaping @MainActor (inout Configuration) -> Void
    ) {
        let entry = ConfigurationEntry(
            description: "config \(configEntries.count) [\(description)]",
            methods: Set(methods ?? RequestMethod.allCases), matches: matches, configurer: configurer)
        EngineLog.log(.configuration, "added \(entry.description)")
        configEntries.append(entry)
        invalidateConfiguration()
    }

    /// Makes every resource recompute its configuration the next time it needs it.
    ///
    /// Call after changing a value that configuration blocks read, such as an auth token.
    public func invalidateConfiguration() {
        configVersion += 1
    }

    /// The configuration for `url` and `method`: every matching block applied in order.
    func computeConfiguration(for url: URL, method: RequestMethod) -> Configuration {
        var configuration = Configuration()
        for entry in configEntries where entry.methods.contains(method) && entry.matches(url) {
            EngineLog.log(.configuration, "applying \(entry.description) to \(method.httpName) \(url.absoluteString)")
            entry.configurer(&configuration)
        }
        return configuration
    }

    // MARK: Wiping

    /// Wipes (cancels requests, clears data and error) every cached resource `predicate` accepts.
    public func wipeResources(matching predicate: (Resource) -> Bool = { _ in true }) {
        flushUnusedResources()
        for resource in cachedResources where predicate(resource) {
            resource.wipe()
        }
    }

    /// Wipes every cached resource whose URL matches `pattern`.
    public func wipeResources(matching pattern: any ConfigurationPatternConvertible) {
        let matcher = pattern.configurationPattern(baseURL: baseURL)
        wipeResources { matcher($0.url) }
    }

    /// Wipes every cached resource whose URL `predicate` accepts.
    public func wipeResources(withURLsMatching predicate: (URL) -> Bool) {
        wipeResources { predicate($0.url) }
    }
}

/// A resource cache slot: strong until a flush, weak after it until looked up again.
@MainActor
private final class CachedResource {
    private var strong: Resource?
    private weak var weak: Resource?

    init(_ resource: Resource) {
        strong = resource
        weak = resource
    }

    var resource: Resource? { strong ?? weak }

    func retain() -> Resource? {
        strong = resource
        return strong
    }

    func release() {
        strong = nil
    }
}
