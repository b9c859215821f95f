import Foundation
import ResourceEngine

extension DashboardSpec {
    /// A service configured from this spec.
    ///
    /// Service-wide timings apply to every URL; service headers only under the base URL (`**`),
    /// so credentials never go to another host. Then each `configure` block becomes a
    /// `Service.configure` entry, in file order: every matching block applies, later ones win.
    @MainActor
    public func makeService(
        networking: (any NetworkingProvider)? = nil, clock: any EngineClock = SystemClock(), cache: (any EntityCache)? = nil
    ) -> Service {
        let service = Service(
            baseURL: self.service.baseURL?.value, standardTransformers: self.service.standardTransformers,
            networking: networking, clock: clock)
        if let cache {
            let namespace = cacheFingerprint
            let safe = RedactingEntityCache(cache, redactor: Redactor(self))
            service.configure(description: "persistent cache") {
                $0.cache = safe
                $0.cacheNamespace = namespace
            }
        }
        configure(service)
        return service
    }

    /// A hash of what shapes cached content: the standard parsers and every configure block's
    /// pattern, methods and pipeline. Headers are left out (a new token must not empty the cache,
    /// and secrets must not shape keys); so are timings, which do not change content.
    public var cacheFingerprint: String {
        var parts = ["parsers " + service.transformers.joined(separator: ",")]
        for block in configure where !block.pipeline.isEmpty {
            let methods = block.methods.map { $0.map(\.rawValue).joined(separator: ",") } ?? "*"
            let stages = block.pipeline.map { "\($0.stage.rawValue)=\($0.transformers)" }.joined(separator: ";")
            parts.append("\(block.pattern) [\(methods)] \(stages)")
        }
        return String(SHA256.hex(parts.joined(separator: "\n")).prefix(16))
    }

    /// Adds this spec's configuration to `service`.
    @MainActor
    public func configure(_ service: Service) {
        let defaults = self.service
        if defaults.expiration != nil || defaults.retry != nil || defaults.timeout != nil {
            service.configure(description: "service defaults") { config in
                if let expiration = defaults.expiration { config.expirationTime = expiration }
                if let retry = defaults.retry { config.retryTime = retry }
                if let timeout = defaults.timeout { config.timeout = timeout }
            }
        }
        if !defaults.allHeaders.isEmpty, service.baseURL != nil {
            let headers = defaults.allHeaders
            service.configure("**", description: "service headers") { config in
                for header in headers { config.headers[header.name] = header.value.value }
            }
        }
        if defaults.tls != nil || defaults.redirects != nil, service.baseURL != nil {
            // TLS trust and redirects belong to the service's own origin, like its credentials.
            let tls = defaults.tls
            let redirects = defaults.redirects
            service.configure("**", description: "service transport") { config in
                if let tls { config.transport.tls = tls }
                if let redirects { config.transport.maxRedirects = redirects }
            }
        }
        for block in configure {
            let transformers = block.pipeline.map { stage in
                // Validated when the file was loaded, so building cannot fail here.
                (stage.stage.key, stage.transformers.compactMap { try? $0.makeTransformer() })
            }
            service.configure(block.pattern, requestMethods: block.methods, description: "\(block.pattern) (line \(block.line))") { config in
                if let expiration = block.expiration { config.expirationTime = expiration }
                if let retry = block.retry { config.retryTime = retry }
                if let timeout = block.timeout { config.timeout = timeout }
                for header in block.headers { config.headers[header.name] = header.value.value }
                for (key, list) in transformers {
                    config.pipeline[key].removeTransformers()
                    for transformer in list { config.pipeline[key].add(transformer) }
                }
            }
        }
    }

    /// The URL a pane requests, as written (see `WrittenURL`): its path under the base URL, or its
    /// absolute URL, with its params appended.
    public func url(for pane: PaneSpec) -> String? {
        WrittenURL.absolute(
            base: service.baseURL?.value, written: pane.resource.value, params: pane.params.map { ($0.name, $0.value.value) })
    }

    /// The URL a pane requests with every secret as written (`${TOKEN}`), for display and logs.
    public func displayURL(for pane: PaneSpec) -> String {
        WrittenURL.absolute(
            base: service.baseURL?.display, written: pane.resource.display, params: pane.params.map { ($0.name, $0.value.display) },
            encoding: false) ?? pane.resource.display
    }

    /// How often the dashboard refreshes a pane that does not say (`every:`): the `expiration`
    /// its URL is configured with, else this.
    public static let defaultRefreshInterval: TimeInterval = 5

    /// Seconds between a pane's refreshes: its `every`, else the `expiration` that applies to its
    /// URL (the service's, then every matching `configure` block for GET in file order, as the
    /// engine would apply them), else `defaultRefreshInterval`.
    public func refreshInterval(for pane: PaneSpec) -> TimeInterval {
        if let every = pane.every { return max(every, ConfigLoader.minimumEvery) }
        var interval = service.expiration ?? Self.defaultRefreshInterval
        guard let url = url(for: pane).flatMap(URL.init(string:)) else { return interval }
        let base = service.baseURL.flatMap { URL(string: $0.value) }
        for block in configure where block.expiration != nil && (block.methods?.contains(.get) ?? true) {
            if block.pattern.configurationPattern(baseURL: base)(url) { interval = block.expiration! }
        }
        // `expiration: 0` (always stale, to the engine) must not make a pane load back to back.
        return max(interval, ConfigLoader.minimumEvery)
    }

    /// The resource a pane watches: its URL as written, and its own load request when it is more
    /// than a GET (so panes sending different requests never share a state).
    @MainActor
    public func resource(for pane: PaneSpec, in service: Service) -> Resource {
        service.resource(absoluteURL: url(for: pane)).withLoadRequest(pane.loadRequest)
    }

    /// The spec as text with every secret redacted, for `hammock check` and logs.
    public var redactedSummary: String {
        var lines = ["\(title) (\(file))"]
        if let baseURL = service.baseURL { lines.append("  baseURL: \(baseURL.display)") }
        for header in service.headers { lines.append("  header \(header.name): \(header.displayValue)") }
        if let auth = service.authDisplay { lines.append("  auth \(auth)") }
        if let tls = service.tls {
            var parts = ["  tls"]
            if let ca = tls.caFile { parts.append("ca \(ca)") }
            if let certificate = tls.clientCertificate { parts.append("clientCert \(certificate)") }
            if tls.insecure { parts.append("insecure (certificates are not verified)") }
            lines.append(parts.joined(separator: " "))
        }
        if let redirects = service.redirects { lines.append("  redirects \(redirects)") }
        for block in configure {
            var parts = ["  configure \(block.pattern)"]
            if let methods = block.methods { parts.append("[\(methods.map(\.httpName).joined(separator: ","))]") }
            for header in block.headers { parts.append("\(header.name): \(header.displayValue)") }
            lines.append(parts.joined(separator: " "))
        }
        for pane in panes {
            lines.append("  pane \"\(pane.title)\": \(pane.method.httpName) \(displayURL(for: pane)) every \(DurationText.format(refreshInterval(for: pane))) as \(pane.show.rawValue)")
        }
        return lines.joined(separator: "\n")
    }
}
