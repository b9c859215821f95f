import FoundationEssentials
import Glibc
import Redaction
import ResourceEngine

extension DashboardSpec {
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

    /// The login's URL: absolute as written, or a path under its service's base URL.
    public func loginURL(_ login: LoginSpec, of spec: ServiceSpec) -> String? {
        WrittenURL.absolute(base: spec.baseURL?.value, written: login.url.value, params: [])
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
        if let alertmanager { lines.append("  alertmanager \(alertmanager.url.display), resent every \(DurationText.format(alertmanager.resend))") }
        if !connectivity.isEmpty { lines.append("  connectivity: " + connectivity.map(\.display).joined(separator: ", ")) }
        for pane in panes {
            var line = "  pane \"\(pane.title)\": \(pane.method.httpName) \(displayURL(for: pane)) every \(DurationText.format(refreshInterval(for: pane))) as \(pane.show.rawValue)"
            if let body = pane.body { line += " (body \(body.kindDescription))" }
            if let name = pane.service { line += " [service \(name)]" }
            if let chain = pane.chain { line += "; takes values from " + chain.sources.joined(separator: ", ") }
            if !pane.dependsOn.isEmpty { line += "; depends on " + pane.dependsOn.map(\.title).joined(separator: ", ") }
            if !pane.quiet.isEmpty { line += "; quiet " + pane.quiet.map(\.summary).joined(separator: ", ") }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
