import Foundation
import Redaction
import ResourceEngine

extension DashboardSpec {
    /// The engine services this spec describes (see `ServiceGroup`), all on one transport and clock.
    ///
    /// Each service has its timings for every URL it requests, and its headers, credentials, TLS,
    /// redirects, cookies and login only under its base URL, so credentials never go to another
    /// host. Then each `configure` block becomes a `Service.configure` entry, in file order, in
    /// the service it names (or every service, when it names none): every matching block
    /// applies, later ones win.
    @MainActor
    public func makeServices(
        networking: (any NetworkingProvider)? = nil, clock: any EngineClock = SystemClock(), cache: (any EntityCache)? = nil
    ) -> ServiceGroup {
        let networking = networking ?? URLSessionProvider()
        func make(_ spec: ServiceSpec) -> Service {
            let engine = Service(
                baseURL: spec.baseURL.map { WrittenURL.encodingWhatCannotTravel($0.value) }, standardTransformers: service.standardTransformers,
                networking: networking, clock: clock)
            if let cache {
                // Each service's cached answers are its own: another service's credentials may
                // see another answer at the same URL.
                let namespace = cacheFingerprint + (spec.name.map { " service " + $0 } ?? "")
                let safe = RedactingEntityCache(cache, redactor: Redactor(self))
                engine.configure(description: "persistent cache") {
                    $0.cache = safe
                    $0.cacheNamespace = namespace
                }
            }
            configure(engine, as: spec)
            return engine
        }
        return ServiceGroup(main: make(service), named: services.compactMap { spec in spec.name.map { ($0, make(spec)) } })
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

    /// Where this dashboard keeps its probe histories: its own config file (as the file system
    /// resolves it) and the fingerprint of what shapes its content, so another config polling
    /// the same URL never counts in this one's uptime.
    public var historyNamespace: String {
        var resolved = file
        if let real = realpath(file, nil) {
            resolved = String(cString: real)
            free(real)
        } else if !file.hasPrefix("/") {
            resolved = FileManager.default.currentDirectoryPath + "/" + file
        }
        return cacheFingerprint + "\n" + resolved
    }

    /// Adds the configuration of the service `spec` describes to `service`, its engine service.
    ///
    /// Its timings for every URL; headers, credentials, TLS, redirects, cookies and its login
    /// under its base URL (`https://shop.internal/v2/**`); then the `configure:` blocks that name
    /// it or no service, in file order. All of it through `Service.configure`, by pattern.
    @MainActor
    public func configure(_ service: Service, as spec: ServiceSpec) {
        let name = spec.name.map { "service \($0)" } ?? "service"
        // A failure says the server's own words first ("403 · no access to this project"):
        // the message an error body carries (`message`, `error`, problem+json, ServiceStack's
        // `responseStatus`), unless a `configure` block sets the cleanup stage itself.
        service.configure(description: "error messages from error bodies") { $0.pipeline[.cleanup].add(ErrorMessageTransformer()) }
        if spec.expiration != nil || spec.retry != nil || spec.timeout != nil {
            service.configure(description: "\(name) timings") { config in
                if let expiration = spec.expiration { config.expirationTime = expiration }
                if let retry = spec.retry { config.retryTime = retry }
                if let timeout = spec.timeout { config.timeout = timeout }
            }
        }
        if let base = spec.normalizedBaseURL {
            let withoutQuery = base.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            configureCredentials(service, with: spec, under: withoutQuery + "**")
        }
        for block in blocks(for: spec) {
            let transformers = block.block.pipeline.map { stage in
                // Validated when the file was loaded, so building cannot fail here.
                (stage.stage.key, stage.transformers.compactMap { try? $0.makeTransformer() })
            }
            let spec = block.block
            service.configure(block.pattern, requestMethods: spec.methods, description: "\(spec.pattern) (line \(spec.line))") { config in
                if let expiration = spec.expiration { config.expirationTime = expiration }
                if let retry = spec.retry { config.retryTime = retry }
                if let timeout = spec.timeout { config.timeout = timeout }
                DashboardSpec.apply(spec.headers, to: &config)
                for (key, list) in transformers {
                    config.pipeline[key].removeTransformers()
                    for transformer in list { config.pipeline[key].add(transformer) }
                }
            }
        }
    }

    /// The `configure:` blocks that apply in the service `spec` describes, in file order, each with
    /// its pattern as an absolute glob: those that name it, and those that name no service (a path
    /// pattern is under the `service:` section's base URL, or this service's when that has none).
    public func blocks(for spec: ServiceSpec) -> [(block: ConfigureBlockSpec, pattern: String)] {
        let root = (service.normalizedBaseURL ?? spec.normalizedBaseURL)?
            .split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        return configure.compactMap { block in
            if let named = block.service { return named == spec.name ? (block, block.pattern) : nil }
            guard !WrittenURL.isAbsolute(block.pattern), let root else { return (block, block.pattern) }
            return (block, root + (block.pattern.hasPrefix("/") ? String(block.pattern.dropFirst()) : block.pattern))
        }
    }

    /// The blocks that apply to a pane's request (its service's, for its URL and method), in order.
    public func blocks(for pane: PaneSpec) -> [ConfigureBlockSpec] {
        guard let url = url(for: pane).flatMap(URL.init(string:)) else { return [] }
        return blocks(for: serviceSpec(for: pane)).compactMap { block, pattern in
            guard block.applies(to: pane.method), pattern.configurationPattern(baseURL: nil)(url) else { return nil }
            return block
        }
    }

    /// True when a pane's URL is under its service's base URL: only there do the service's
    /// headers, credentials, TLS settings and cookies go with it.
    public func isUnderItsServiceBase(_ pane: PaneSpec) -> Bool {
        guard let base = serviceSpec(for: pane).normalizedBaseURL, let url = url(for: pane).flatMap(URL.init(string:)) else { return false }
        let root = base.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return (root + "**").configurationPattern(baseURL: nil)(url)
    }

    /// One service's credentials and transport for the URLs under `pattern` (its base URL):
    /// headers, auth, TLS, redirects, cookies, its login.
    @MainActor
    private func configureCredentials(_ service: Service, with spec: ServiceSpec, under pattern: String) {
        let name = spec.name.map { "service \($0)" } ?? "service"
        let headers = spec.allHeaders
        var credentials: HTTPCredentials?
        if case .digest(let user, let password) = spec.auth {
            credentials = HTTPCredentials(user: user.value, password: password.value, scheme: .digest)
        }
        // Dropped cookies are said on the status line, as a value read again is.
        let reports = liveReports
        let jar = spec.cookies ? CookieJar(name: spec.name ?? "service", onDrop: { reports.post($0) }) : nil
        if !headers.isEmpty || spec.tls != nil || spec.redirects != nil || credentials != nil || jar != nil {
            // Credentials, TLS trust and cookies belong to the service's own origin.
            service.configure(pattern, description: "\(name) headers and transport") { config in
                DashboardSpec.apply(headers, to: &config)
                if let tls = spec.tls { config.transport.tls = tls }
                if let redirects = spec.redirects { config.transport.maxRedirects = redirects }
                if let credentials { config.transport.credentials = credentials }
                if let jar { config.transport.cookieJar = jar }
            }
        }
        if case .session(let login) = spec.auth, let session = loginSession(login, of: spec, in: service) {
            service.configure(session.resource, description: "\(name) login: not cached") { $0.cache = nil }
            service.configure(pattern, description: "\(name) login") { config in
                config.computedHeaders[login.header] = { [weak session] in session?.headerValue }
                config.decorateRequests { [session] resource, request in session.decorate(request, for: resource) }
            }
        }
    }

    /// Static headers as they are; headers read from files as computed headers, read again when
    /// the files change.
    static func apply(_ headers: [HeaderSpec], to config: inout Configuration) {
        for header in headers {
            if let live = header.live {
                config.headers[header.name] = nil
                config.computedHeaders[header.name] = { live.current }
            } else {
                config.computedHeaders[header.name] = nil
                config.headers[header.name] = header.value.value
            }
        }
    }

    /// The login's URL: absolute as written, or a path under its service's base URL.
    public func loginURL(_ login: LoginSpec, of spec: ServiceSpec) -> String? {
        WrittenURL.absolute(base: spec.baseURL?.value, written: login.url.value, params: [])
    }

    /// The login request's resource: the one the session loads and the event log observes.
    @MainActor
    private func loginResource(_ login: LoginSpec, of spec: ServiceSpec, in service: Service) -> Resource? {
        loginURL(login, of: spec).map { service.resource(absoluteURL: $0).withLoadRequest(login.loadRequest) }
    }

    /// The session for a service's login: one per service and login request.
    @MainActor
    private func loginSession(_ login: LoginSpec, of spec: ServiceSpec, in service: Service) -> LoginSession? {
        guard let resource = loginResource(login, of: spec, in: service) else { return nil }
        return LoginSession(spec: login, resource: resource, secrets: liveSecrets, retryAfterFailure: spec.retry ?? self.service.retry ?? 1)
    }

    /// The login resources of every service with a login, named (`login shop`) and with their URL
    /// as written, so the event log can show logins like any other request. The same resources the
    /// sessions use.
    @MainActor
    public func loginResources(in services: ServiceGroup) -> [(name: String, displayURL: String, resource: Resource)] {
        allServices.compactMap { spec in
            let service = services.service(named: spec.name)
            guard case .session(let login) = spec.auth, let resource = loginResource(login, of: spec, in: service) else { return nil }
            let display = WrittenURL.absolute(base: spec.baseURL?.display, written: login.url.display, params: [], encoding: false) ?? login.url.display
            return ("login \(spec.name ?? "service")", display, resource)
        }
    }

    /// The `service:` section and every named service.
    public var allServices: [ServiceSpec] { [service] + services }

    /// The service a pane belongs to: the one it names, else the `service:` section.
    public func serviceSpec(for pane: PaneSpec) -> ServiceSpec {
        pane.service.flatMap { name in services.first { $0.name == name } } ?? service
    }

    /// The URL a pane requests, as written (see `WrittenURL`): its path under the base URL, or its
    /// absolute URL, with its params appended.
    public func url(for pane: PaneSpec) -> String? {
        WrittenURL.absolute(
            base: serviceSpec(for: pane).baseURL?.value, written: pane.resource.value, params: pane.params.map { ($0.name, $0.value.value) })
    }

    /// The URL a pane requests as written, for display and logs: what came from the environment
    /// as written (`${TOKEN}`), and a password written into it masked (it is a secret).
    public func displayURL(for pane: PaneSpec) -> String {
        let base = serviceSpec(for: pane).baseURL
        // `${API_URL}` whose value ends in "/" gets no second one: `${API_URL}health`.
        let endsInSlash = base.map { $0.fromEnvironment && $0.value.prefix { !"?#".contains($0) }.hasSuffix("/") } ?? false
        let written = WrittenURL.absolute(
            base: base?.display, written: pane.resource.display, params: pane.params.map { ($0.name, $0.value.display) },
            encoding: false, baseEndsInSlash: endsInSlash) ?? pane.resource.display
        return WrittenURL.maskingPassword(written)
    }

    /// How often the dashboard refreshes a pane that does not say (`every:`): the `expiration`
    /// its URL is configured with, else this.
    public static let defaultRefreshInterval: TimeInterval = 5

    /// Seconds between a pane's refreshes: its `every`, else the `expiration` that applies to its
    /// URL (its service's, then every matching `configure` block for GET in file order, as the
    /// engine would apply them), else `defaultRefreshInterval`.
    public func refreshInterval(for pane: PaneSpec) -> TimeInterval {
        if let every = pane.every { return max(every, ConfigLoader.minimumEvery) }
        var interval = serviceSpec(for: pane).expiration ?? Self.defaultRefreshInterval
        var get = pane
        get.method = .get
        for block in blocks(for: get) {
            if let expiration = block.expiration { interval = expiration }
        }
        // `expiration: 0` (always stale, to the engine) must not make a pane load back to back.
        return max(interval, ConfigLoader.minimumEvery)
    }

    /// The resource a pane watches: its URL as written, and its own load request when it is more
    /// than a GET (so panes sending different requests never share a state).
    @MainActor
    public func resource(for pane: PaneSpec, in services: ServiceGroup) -> Resource {
        services.service(named: pane.service).resource(absoluteURL: url(for: pane)).withLoadRequest(pane.loadRequest)
    }

    /// The spec as text with every secret redacted, for `hammock check` and logs.
    public var redactedSummary: String {
        var lines = ["\(title) (\(file))"]
        for spec in allServices where spec.name != nil || spec.baseURL != nil || spec.auth != nil || !spec.headers.isEmpty {
            let indent = spec.name == nil ? "  " : "    "
            if let name = spec.name { lines.append("  service \(name)") }
            if let baseURL = spec.baseURL { lines.append("\(indent)baseURL: \(baseURL.display)") }
            for header in spec.headers { lines.append("\(indent)header \(header.name): \(header.displayValue)") }
            if let auth = spec.authDisplay { lines.append("\(indent)auth \(auth)") }
            if let tls = spec.tls {
                var parts = ["\(indent)tls"]
                if let ca = tls.caFile { parts.append("ca \(ca)") }
                if let certificate = tls.clientCertificate { parts.append("clientCert \(certificate)") }
                if tls.insecure { parts.append("insecure (certificates are not verified)") }
                lines.append(parts.joined(separator: " "))
            }
            if let redirects = spec.redirects { lines.append("\(indent)redirects \(redirects)") }
            if spec.cookies { lines.append("\(indent)cookies (in memory)") }
        }
        for block in configure {
            var parts = ["  configure " + (block.service.map { "\(block.writtenPattern ?? block.pattern) (service \($0))" } ?? block.pattern)]
            if let methods = block.methods { parts.append("[\(methods.map(\.httpName).joined(separator: ","))]") }
            for header in block.headers { parts.append("\(header.name): \(header.displayValue)") }
            lines.append(parts.joined(separator: " "))
        }
        if alerts.configured { lines.append("  alerts: \(alerts.summary)") }
        for pane in panes {
            var line = "  pane \"\(pane.title)\": \(pane.method.httpName) \(displayURL(for: pane)) every \(DurationText.format(refreshInterval(for: pane))) as \(pane.show.rawValue)"
            if let body = pane.body { line += " (body \(body.kindDescription))" }
            if let name = pane.service { line += " [service \(name)]" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
