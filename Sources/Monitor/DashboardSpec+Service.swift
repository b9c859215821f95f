import DashboardConfig
import FoundationEssentials
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
        let networking = networking ?? CurlProvider()
        let reports = LiveReports()
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
            configure(engine, as: spec, reports: reports)
            return engine
        }
        return ServiceGroup(
            main: make(service), named: services.compactMap { spec in spec.name.map { ($0, make(spec)) } }, reports: reports)
    }

    /// Adds the configuration of the service `spec` describes to `service`, its engine service.
    ///
    /// Its timings for every URL; headers, credentials, TLS, redirects, cookies and its login
    /// under its base URL (`https://shop.internal/v2/**`); then the `configure:` blocks that name
    /// it or no service, in file order. All of it through `Service.configure`, by pattern.
    /// Values read from files while running tell `reports` when a new content cannot be used.
    @MainActor
    public func configure(_ service: Service, as spec: ServiceSpec, reports: LiveReports = LiveReports()) {
        let name = spec.name.map { "service \($0)" } ?? "service"
        let values = LiveValues(secrets: liveSecrets, reports: reports)
        // A failure says the server's own words first ("403 · no access to this project"):
        // the message an error body carries (`message`, `error`, problem+json, ServiceStack's
        // `responseStatus`), unless a `configure` block sets the cleanup stage itself.
        service.configure(description: "error messages from error bodies") { $0.pipeline[.cleanup].add(ErrorMessageTransformer()) }
        // Nothing shows a load's progress: no timer per load in flight.
        service.configure(description: "no progress timers") { $0.progressReportingInterval = 0 }
        if spec.expiration != nil || spec.retry != nil || spec.timeout != nil {
            service.configure(description: "\(name) timings") { config in
                if let expiration = spec.expiration { config.expirationTime = expiration }
                if let retry = spec.retry { config.retryTime = retry }
                if let timeout = spec.timeout { config.timeout = timeout }
            }
        }
        if let base = spec.normalizedBaseURL {
            let withoutQuery = base.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            configureCredentials(service, with: spec, under: withoutQuery + "**", reports: reports, values: values)
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
                DashboardSpec.apply(spec.headers, to: &config, values: values)
                for (key, list) in transformers {
                    config.pipeline[key].removeTransformers()
                    for transformer in list { config.pipeline[key].add(transformer) }
                }
            }
        }
    }

    /// One service's credentials and transport for the URLs under `pattern` (its base URL):
    /// headers, auth, TLS, redirects, cookies, its login.
    @MainActor
    private func configureCredentials(_ service: Service, with spec: ServiceSpec, under pattern: String, reports: LiveReports, values: LiveValues) {
        let name = spec.name.map { "service \($0)" } ?? "service"
        let headers = spec.allHeaders
        var credentials: HTTPCredentials?
        if case .digest(let user, let password) = spec.auth {
            credentials = HTTPCredentials(user: user.value, password: password.value, scheme: .digest)
        }
        // Dropped cookies are said on the status line, as a value read again is.
        let jar = spec.cookies ? CookieJar(name: spec.name ?? "service", onDrop: { reports.post($0) }) : nil
        if !headers.isEmpty || spec.tls != nil || spec.redirects != nil || credentials != nil || jar != nil {
            // Credentials, TLS trust and cookies belong to the service's own origin.
            service.configure(pattern, description: "\(name) headers and transport") { config in
                DashboardSpec.apply(headers, to: &config, values: values)
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
    static func apply(_ headers: [HeaderSpec], to config: inout Configuration, values: LiveValues) {
        for header in headers {
            if let source = header.live {
                let live = values.value(source, of: header)
                config.headers[header.name] = nil
                config.computedHeaders[header.name] = { live.current }
            } else {
                config.computedHeaders[header.name] = nil
                config.headers[header.name] = header.value.value
            }
        }
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

    /// The resource a pane watches: its URL as written, and its own load request when it is more
    /// than a GET (so panes sending different requests never share a state).
    @MainActor
    public func resource(for pane: PaneSpec, in services: ServiceGroup) -> Resource {
        services.service(named: pane.service).resource(absoluteURL: url(for: pane)).withLoadRequest(pane.loadRequest)
    }
}
