import DashboardKeys
import FoundationEssentials
import Glibc
import Redaction
import ResourceEngine
import TextBasics

/// Reads a config file into a `DashboardSpec`, or every problem in it.
///
/// Never crashes on bad input and never returns a half-checked spec: YAML syntax, unknown keys
/// (with "did you mean"), wrong types, bad durations, patterns, URLs, transformers, show modes,
/// pane fields that do not fit their `show`, duplicate titles and unset variables are all reported
/// as `file:line:col: message`, all at once.
public enum ConfigLoader {
    static let topKeys = [
        "title", "service", "services", "configure", "alerts", "panes", "layout", "mouse", "theme", "keys", "connectivity", "implicitDependencies", "alertmanager", "quiet",
    ]
    static let serviceKeys = ["baseURL", "headers", "expiration", "retry", "timeout", "transformers", "tls", "redirects", "auth", "cookies", "dependsOn"]
    /// A named service's keys: the parsers (`transformers`) are the whole file's, set under `service:`.
    static let namedServiceKeys = serviceKeys.filter { $0 != "transformers" }
    static let blockKeys = ["pattern", "service", "methods", "expiration", "retry", "timeout", "headers", "pipeline"]
    static let paneKeys = ["title", "resource", "params", "method", "body", "every", "show", "fields", "columns", "select", "overlay", "history", "expect", "headers", "timeout", "auth", "service", "pipeline", "format", "decimals", "thresholds", "alerts", "backoff", "size", "tags", "dependsOn", "quiet"]

    /// How many probes a pane keeps unless it says otherwise.
    public static let defaultHistory = 60
    static let layoutKeys = ["columns"]
    static let transformerOptions = ["contentTypes", "transformErrors"]

    /// The shortest refresh cadence a pane may ask for.
    public static let minimumEvery: TimeInterval = 0.1

    /// Loads and validates the file at `path`; with `keysFile`, its keys (a `keys.yaml`, when it is
    /// there) come under the config's own `keys:`, and its problems are the config's.
    ///
    /// `withoutSecrets` checks a config where its secrets are not at hand (CI): an unset variable
    /// or an unreadable `${file:…}` is a warning in `DashboardSpec.warnings`, not a problem, and
    /// the spec holds placeholders for them, so it is for reading, never for running.
    public static func load(
        path: String, environment: [String: String] = ProcessInfo.processInfo.environment, keysFile: String? = nil,
        withoutSecrets: Bool = false
    ) throws(ConfigErrors) -> DashboardSpec {
        var keys = KeyMap.standard
        var keysProblems: [ConfigProblem] = []
        if let keysFile {
            do { keys = try loadKeys(path: keysFile, environment: environment) } catch { keysProblems = error.problems }
        }
        let data: Data
        switch read(path) {
        case .success(let contents): data = contents
        case .failure(let reason): throw ConfigErrors([ConfigProblem(file: path, line: 1, column: 1, message: reason.message)])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigErrors([ConfigProblem(file: path, line: 1, column: 1, message: "the file is not UTF-8 text")])
        }
        let spec: DashboardSpec
        do {
            spec = try parse(text, file: path, environment: environment, keys: keys, withoutSecrets: withoutSecrets)
        } catch {
            var errors = ConfigErrors(keysProblems + error.problems)
            errors.warnings = error.warnings
            throw errors
        }
        guard keysProblems.isEmpty else { throw ConfigErrors(keysProblems) }
        return spec
    }

    /// The largest config file read: far more than 10,000 panes need.
    static let largestFile = 16 << 20

    typealias ReadFailure = RegularFile.Failure

    /// The file's bytes, or why they cannot be read (`RegularFile`).
    static func read(_ path: String, limit: Int = largestFile, what: String = "config file") -> Result<Data, ReadFailure> {
        RegularFile.read(path, limit: limit, what: what)
    }

    /// Validates config text; `file` is used in messages; its `keys:` come over `keys`.
    public static func parse(
        _ text: String, file: String, environment: [String: String] = ProcessInfo.processInfo.environment, keys: KeyMap = .standard,
        withoutSecrets: Bool = false
    ) throws(ConfigErrors) -> DashboardSpec {
        var reader = NodeReader(file: file, environment: environment, withoutSecrets: withoutSecrets)
        let keyProblems = YAMLGuard.keyProblems(in: text)
        guard keyProblems.isEmpty else {
            throw ConfigErrors(keyProblems.map { ConfigProblem(file: file, line: $0.line, column: $0.column, message: $0.message) })
        }
        let root: YAMLNode?
        do {
            root = try YAMLDocument.compose(text)
        } catch {
            throw ConfigErrors([syntaxProblem(error, file: file)])
        }
        guard let root, !(root.isNull && root.scalar?.style == .plain) else {
            throw ConfigErrors([ConfigProblem(file: file, line: 1, column: 1, message: "the file is empty; it needs at least service.baseURL and one pane")])
        }
        let limit = text.utf8.count + YAMLGuard.allowance
        guard YAMLGuard.fits(root, limit: limit) else {
            throw ConfigErrors([ConfigProblem(
                file: file, line: 1, column: 1,
                message: "the file expands to more than \(limit) values through its anchors and aliases (*name); a config may expand to at most its size in bytes plus \(YAMLGuard.allowance)")])
        }
        var spec = readDashboard(root, keys: keys, reader: &reader)
        // A problem where a placeholder went in is the missing secret's, already a warning.
        reader.problems.removeAll { reader.placeholders.contains([$0.line, $0.column]) }
        spec?.warnings = reader.warnings
        guard reader.problems.isEmpty, let spec else {
            var errors = ConfigErrors(reader.problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
            errors.warnings = reader.warnings
            throw errors
        }
        return spec
    }

    static func syntaxProblem(_ error: YAMLDocument.SyntaxError, file: String) -> ConfigProblem {
        ConfigProblem(file: file, line: error.mark.line, column: error.mark.column, message: error.message)
    }

    // MARK: Sections

    static func readDashboard(_ root: YAMLNode, keys: KeyMap = .standard, reader: inout NodeReader) -> DashboardSpec? {
        guard let entries = reader.mapping(root, "the file") else { return nil }
        reader.checkKeys(entries, allowed: topKeys, in: "the file")
        let value = { (key: String) in entries.first { $0.key == key }?.value }

        var title = URL(fileURLWithPath: reader.file).deletingPathExtension().lastPathComponent
        if let node = value("title"), let text = reader.string(node, "title") {
            if let problem = titleProblem(text) { reader.problem(at: node, problem) } else { title = text }
        }

        var service = ServiceSpec()
        if let node = value("service") { service = readService(node, name: nil, reader: &reader) ?? service }
        let services = value("services").map { readServices($0, reader: &reader) } ?? []

        var blocks: [ConfigureBlockSpec] = []
        if let node = value("configure") {
            if case .sequence(let sequence) = node {
                for item in sequence {
                    let problemsBefore = reader.problems.count
                    if let block = readBlock(item, services: services, reader: &reader) {
                        blocks.append(block)
                    } else if reader.problems.count == problemsBefore {
                        reader.problem(at: item, "this configure block could not be read")
                    }
                }
            } else {
                reader.problem(at: node, "configure must be a list of blocks (- pattern: …), not \(reader.describe(node))")
            }
        }

        var alerts = AlertSpec()
        if let node = value("alerts") { alerts = readAlerts(node, base: alerts, what: "alerts", reader: &reader) ?? alerts }

        var panes: [PaneSpec] = []
        if let node = value("panes") {
            if case .sequence(let sequence) = node {
                var seenTitles: [String: Int] = [:]
                for item in sequence {
                    if case .mapping(let mapping) = item, let titleNode = mapping["title"], let title = titleNode.scalar?.string {
                        if let first = seenTitles[title] {
                            reader.problem(at: titleNode, "duplicate pane title \"\(title)\" (first used on line \(first))")
                        } else {
                            seenTitles[title] = titleNode.mark.line
                        }
                    }
                    let problemsBefore = reader.problems.count
                    if let pane = readPane(
                        item, service: service, services: services, hasServiceSection: value("service") != nil, alerts: alerts, reader: &reader)
                    {
                        panes.append(pane)
                    } else if reader.problems.count == problemsBefore {
                        // Every pane the file declares is loaded or a problem: never silently gone.
                        reader.problem(at: item, "this pane could not be read (a value of a kind it does not take)")
                    }
                }
                if sequence.isEmpty { reader.problem(at: node, "panes is empty; add at least one pane") }
                linkChains(&panes, titles: Array(seenTitles.keys).sorted(), reader: &reader)
                linkDependencies(&panes, services: services, defaultService: service, titles: Array(seenTitles.keys).sorted(), reader: &reader)
                if let node = value("quiet"), let windows = readQuiet(node, "quiet", reader: &reader) {
                    for index in panes.indices where !panes[index].quietOwn { panes[index].quiet = windows }
                }
            } else {
                reader.problem(at: node, "panes must be a list of panes (- title: …), not \(reader.describe(node))")
            }
        } else {
            reader.problem(line: 1, column: 1, "the file has no panes; add a panes: list")
        }

        var layout = LayoutSpec(columns: 2)
        if let node = value("layout"), let layoutEntries = reader.mapping(node, "layout") {
            reader.checkKeys(layoutEntries, allowed: layoutKeys, in: "layout")
            if let columns = layoutEntries.first(where: { $0.key == "columns" }) {
                if columns.value.scalar?.string == "auto" {
                    layout.autoColumns = true
                    layout.columns = 12
                } else if let text = columns.value.scalar?.string, Int(text) == nil, Double(text) == nil {
                    reader.problem(at: columns.value, "layout.columns must be auto or a number of columns (1 to 12), not \"\(text)\"")
                } else {
                    layout.columns = reader.int(columns.value, "layout.columns", range: 1...12) ?? layout.columns
                }
            }
        }
        var spec = DashboardSpec(
            file: reader.file, title: title, service: service, services: services, configure: blocks, panes: panes, layout: layout,
            bodySecrets: reader.bodySecrets.sorted(), liveSecrets: reader.liveSecrets)
        spec.alerts = alerts
        if let node = value("mouse"), let mouse = reader.bool(node, "mouse") { spec.mouse = mouse }
        if let node = value("connectivity") { spec.connectivity = readConnectivity(node, reader: &reader) }
        if let node = value("implicitDependencies") { spec.implicitDependencies = readImplicitDependencies(node, reader: &reader) }
        if let node = value("alertmanager") { spec.alertmanager = readAlertmanager(node, reader: &reader) }
        if let node = value("theme") { spec.theme = readTheme(node, reader: &reader) }
        spec.keyMap = value("keys").map { readKeys($0, base: keys, reader: &reader) } ?? keys
        return spec
    }

    /// `theme: light`, or `theme: { base: light, ok: 28, failing: 160 }` (256-colour indexes).
    static func readTheme(_ node: YAMLNode, reader: inout NodeReader) -> ThemeSpec {
        func base(_ node: YAMLNode) -> ThemeSpec.Base? {
            guard let name = reader.string(node, "theme") else { return nil }
            if let base = ThemeSpec.Base(rawValue: name) { return base }
            let names = ThemeSpec.Base.allCases.map(\.rawValue)
            reader.problem(at: node, "unknown theme \"\(name)\" (one of \(names.joined(separator: ", ")))" + Suggestions.hint(for: name, in: names))
            return nil
        }
        if case .scalar = node { return ThemeSpec(base: base(node) ?? .terminal) }
        guard let entries = reader.mapping(node, "theme") else { return ThemeSpec() }
        reader.checkKeys(entries, allowed: ["base"] + ThemeSpec.Role.allCases.map(\.rawValue), in: "theme")
        var theme = ThemeSpec()
        for entry in entries {
            if entry.key == "base" {
                theme.base = base(entry.value) ?? .terminal
            } else if let role = ThemeSpec.Role(rawValue: entry.key), let index = reader.int(entry.value, "theme.\(entry.key) (a 256-colour index)", range: 0...255) {
                theme.roles[role] = index
            }
        }
        return theme
    }

    /// `services: { name: { baseURL, … } }`, in file order; each needs a base URL.
    static func readServices(_ node: YAMLNode, reader: inout NodeReader) -> [ServiceSpec] {
        guard let entries = reader.mapping(node, "services") else { return [] }
        var services: [ServiceSpec] = []
        for entry in entries {
            guard !entry.key.isEmpty, entry.key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                reader.problem(at: entry.keyNode, "service name \"\(entry.key)\" may only use letters, digits, - and _")
                continue
            }
            // Kept even with problems (the file is then refused anyway), so its panes find it.
            let spec = readService(entry.value, name: entry.key, reader: &reader) ?? ServiceSpec()
            if spec.baseURL == nil, case .mapping(let mapping) = entry.value, mapping["baseURL"] == nil {
                reader.problem(at: entry.keyNode, "services.\(entry.key) needs a baseURL")
            }
            var named = spec
            named.name = entry.key
            services.append(named)
        }
        if entries.isEmpty { reader.problem(at: node, "services is empty; name at least one service, or remove it") }
        return services
    }

    /// "unknown service "shpo" (services: shop, billing) (did you mean "shop"?)"
    static func unknownService(_ name: String, services: [ServiceSpec]) -> String {
        let names = services.compactMap(\.name)
        let known = names.isEmpty ? "the file has no services: section" : "services: \(names.joined(separator: ", "))"
        return "unknown service \"\(name)\" (\(known))" + Suggestions.hint(for: name, in: names)
    }

    static func readService(_ node: YAMLNode, name: String?, reader: inout NodeReader) -> ServiceSpec? {
        var spec = ServiceSpec()
        spec.name = name
        spec.line = node.mark.line
        let prefix = spec.path
        guard let entries = reader.mapping(node, prefix) else { return nil }
        reader.checkKeys(entries, allowed: name == nil ? serviceKeys : namedServiceKeys, in: prefix)
        for entry in entries {
            switch entry.key {
            case "baseURL":
                guard let url = reader.interpolated(entry.value, "\(prefix).baseURL") else { continue }
                if reader.holdsPlaceholder(entry.value), WrittenURL.problem(in: url.value) != nil || !isHTTPURL(url.value) {
                    // Checked without its secrets: the panes still need a base to be checked against.
                    spec.baseURL = ConfigString("http://unset.invalid/")
                } else if let problem = WrittenURL.problem(in: url.value) {
                    reader.problem(at: entry.value, "\(prefix).baseURL \"\(url.display)\" \(problem)")
                } else if isHTTPURL(url.value) {
                    spec.baseURL = url
                } else {
                    reader.problem(at: entry.value, "\(prefix).baseURL \"\(url.display)\" is not an http or https URL")
                }
            case "headers": spec.headers = readHeaders(entry.value, "\(prefix).headers", live: true, reader: &reader)
            case "expiration": spec.expiration = reader.duration(entry.value, "\(prefix).expiration")
            case "retry": spec.retry = reader.duration(entry.value, "\(prefix).retry")
            case "timeout": spec.timeout = reader.duration(entry.value, "\(prefix).timeout", minimum: 0.001)
            case "cookies": spec.cookies = reader.bool(entry.value, "\(prefix).cookies") ?? false
            case "dependsOn": spec.dependsOn = readDependsOn(entry.value, "\(prefix).dependsOn", reader: &reader) ?? []
            case "transformers":
                guard let names = reader.stringList(entry.value, "service.transformers") else { continue }
                for name in names where !["json", "text"].contains(name) {
                    reader.problem(at: entry.value, "service.transformers: unknown standard transformer \"\(name)\"" + Suggestions.hint(for: name, in: ["json", "text"]))
                }
                spec.transformers = names.filter { ["json", "text"].contains($0) }
            case "tls":
                if let (tls, password) = readTLS(entry.value, prefix: prefix, reader: &reader) {
                    spec.tls = tls
                    spec.clientKeyPassword = password
                }
            case "redirects": spec.redirects = reader.int(entry.value, "\(prefix).redirects", range: 0...50)
            case "auth":
                if let (auth, display) = readAuth(entry.value, prefix: prefix, reader: &reader) {
                    spec.auth = auth
                    spec.authDisplay = display
                }
            default: break
            }
        }
        return spec
    }

    /// Headers; with `live`, a value read from files (`${file:…}`) is read again when they change.
    static func readHeaders(_ node: YAMLNode, _ what: String, live: Bool = false, chained: Bool = false, reader: inout NodeReader) -> [HeaderSpec] {
        guard let entries = reader.mapping(node, what) else { return [] }
        var headers: [HeaderSpec] = []
        for entry in entries {
            let validName = !entry.key.isEmpty && entry.key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_!#$%&'*+.^`|~".contains($0)) }
            guard validName else {
                reader.problem(at: entry.keyNode, "\"\(entry.key)\" is not a valid header name")
                continue
            }
            let read = chained ? reader.chained(entry.value, "\(what).\(entry.key)", place: .header(entry.key)) : reader.interpolated(entry.value, "\(what).\(entry.key)")
            guard let value = read else { continue }
            // By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n".
            let scalars = value.value.unicodeScalars
            if scalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
                reader.problem(at: entry.value, "\(what).\(entry.key) must be on one line")
                continue
            }
            if scalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
                reader.problem(at: entry.value, "\(what).\(entry.key) contains a control character")
                continue
            }
            headers.append(HeaderSpec(name: entry.key, value: value, live: live ? reader.live(value) : nil))
        }
        return headers
    }

    /// A `configure:` block. With `service: NAME`, its pattern is a path under that service's base
    /// URL, kept as the absolute pattern it stands for.
    static func readBlock(_ node: YAMLNode, services: [ServiceSpec] = [], reader: inout NodeReader) -> ConfigureBlockSpec? {
        guard let entries = reader.mapping(node, "a configure block") else { return nil }
        reader.checkKeys(entries, allowed: blockKeys, in: "a configure block")
        let line = node.mark.line
        var block = ConfigureBlockSpec(pattern: "", methods: nil, expiration: nil, retry: nil, timeout: nil, headers: [], pipeline: [], line: line)
        guard let patternEntry = entries.first(where: { $0.key == "pattern" }) else {
            reader.problem(at: node, "a configure block needs a pattern (e.g. pattern: /orders/**)")
            return nil
        }
        if let pattern = reader.string(patternEntry.value, "pattern") {
            if let problem = patternProblem(pattern) {
                reader.problem(at: patternEntry.value, problem)
            } else {
                block.pattern = pattern
            }
        }
        for entry in entries {
            switch entry.key {
            case "methods":
                guard let names = reader.stringList(entry.value, "methods") else { continue }
                var methods: [RequestMethod] = []
                for name in names {
                    if let method = RequestMethod(rawValue: name.lowercased()) {
                        methods.append(method)
                    } else {
                        reader.problem(at: entry.value, "unknown method \"\(name)\"" + Suggestions.hint(for: name.uppercased(), in: RequestMethod.allCases.map(\.httpName)))
                    }
                }
                block.methods = methods
            case "expiration": block.expiration = reader.duration(entry.value, "expiration")
            case "retry": block.retry = reader.duration(entry.value, "retry")
            case "timeout": block.timeout = reader.duration(entry.value, "timeout", minimum: 0.001)
            case "headers": block.headers = readHeaders(entry.value, "headers", live: true, reader: &reader)
            case "pipeline": block.pipeline = readPipeline(entry.value, reader: &reader)
            case "service":
                guard let name = reader.string(entry.value, "service") else { continue }
                guard let service = services.first(where: { $0.name == name }) else {
                    reader.problem(at: entry.value, unknownService(name, services: services))
                    continue
                }
                guard !block.pattern.isEmpty else { continue }
                if WrittenURL.isAbsolute(block.pattern) {
                    reader.problem(at: patternEntry.value, "pattern \"\(block.pattern)\" is a URL; with service: \(name) write a path under its base URL (/orders/**)")
                    continue
                }
                guard let base = service.normalizedBaseURL?.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first else { continue }
                block.writtenPattern = block.pattern
                block.pattern = base + (block.pattern.hasPrefix("/") ? String(block.pattern.dropFirst()) : block.pattern)
                block.service = name
            default: break
            }
        }
        return block
    }

    /// Why a glob pattern is unusable, or nil.
    static func patternProblem(_ pattern: String) -> String? {
        if pattern.trimmingWhitespace().isEmpty { return "pattern must not be empty" }
        if pattern.contains(where: \.isWhitespace) { return "pattern \"\(pattern)\" contains spaces" }
        if pattern.contains("***") { return "pattern \"\(pattern)\": *** is not a wildcard (use * within a segment or ** across segments)" }
        if let scheme = pattern.leadingScheme {
            let name = scheme.lowercased()
            if !["http", "https"].contains(name) { return "pattern \"\(pattern)\" must be a path (/orders/**) or an http(s) URL" }
        }
        return nil
    }
}
