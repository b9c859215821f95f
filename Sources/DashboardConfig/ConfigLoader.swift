import Foundation
import Glibc
import ResourceEngine
import Yams

/// Reads a config file into a `DashboardSpec`, or every problem in it.
///
/// Never crashes on bad input and never returns a half-checked spec: YAML syntax, unknown keys
/// (with "did you mean"), wrong types, bad durations, patterns, URLs, transformers, show modes,
/// pane fields that do not fit their `show`, duplicate titles and unset variables are all reported
/// as `file:line:col: message`, all at once.
public enum ConfigLoader {
    static let topKeys = ["title", "service", "services", "configure", "alerts", "panes", "layout"]
    static let serviceKeys = ["baseURL", "headers", "expiration", "retry", "timeout", "transformers", "tls", "redirects", "auth", "cookies"]
    /// A named service's keys: the parsers (`transformers`) are the whole file's, set under `service:`.
    static let namedServiceKeys = serviceKeys.filter { $0 != "transformers" }
    static let blockKeys = ["pattern", "service", "methods", "expiration", "retry", "timeout", "headers", "pipeline"]
    static let paneKeys = ["title", "resource", "params", "method", "body", "every", "show", "fields", "columns", "select", "overlay", "history", "expect", "headers", "timeout", "auth", "service", "pipeline", "format", "decimals", "thresholds", "alerts", "backoff"]

    /// How many probes a pane keeps unless it says otherwise.
    public static let defaultHistory = 60
    static let layoutKeys = ["columns"]
    static let transformerOptions = ["contentTypes", "transformErrors"]

    /// The shortest refresh cadence a pane may ask for.
    public static let minimumEvery: TimeInterval = 0.1

    /// Loads and validates the file at `path`.
    public static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigErrors) -> DashboardSpec {
        let data: Data
        switch read(path) {
        case .success(let contents): data = contents
        case .failure(let reason): throw ConfigErrors([ConfigProblem(file: path, line: 1, column: 1, message: reason.message)])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigErrors([ConfigProblem(file: path, line: 1, column: 1, message: "the file is not UTF-8 text")])
        }
        return try parse(text, file: path, environment: environment)
    }

    /// The largest config file read: far more than 10,000 panes need.
    static let largestFile = 16 << 20

    typealias ReadFailure = RegularFile.Failure

    /// The file's bytes, or why they cannot be read (`RegularFile`).
    static func read(_ path: String, limit: Int = largestFile, what: String = "config file") -> Result<Data, ReadFailure> {
        RegularFile.read(path, limit: limit, what: what)
    }

    /// Validates config text; `file` is used in messages.
    public static func parse(_ text: String, file: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigErrors) -> DashboardSpec {
        var reader = NodeReader(file: file, environment: environment)
        let keyProblems = YAMLGuard.keyProblems(in: text)
        guard keyProblems.isEmpty else {
            throw ConfigErrors(keyProblems.map { ConfigProblem(file: file, line: $0.line, column: $0.column, message: $0.message) })
        }
        let root: Node?
        do {
            // The basic resolver: values are read by our own typed accessors, so resolving every
            // plain scalar's tag with Yams's regular expressions (most of the parse time) buys nothing.
            root = try Yams.compose(yaml: text, .basic)
        } catch {
            throw ConfigErrors([syntaxProblem(error, file: file)])
        }
        guard let root, !(root.null != nil && root.scalar?.style == .plain) else {
            throw ConfigErrors([ConfigProblem(file: file, line: 1, column: 1, message: "the file is empty; it needs at least service.baseURL and one pane")])
        }
        let limit = text.utf8.count + YAMLGuard.allowance
        guard YAMLGuard.fits(root, limit: limit) else {
            throw ConfigErrors([ConfigProblem(
                file: file, line: 1, column: 1,
                message: "the file expands to more than \(limit) values through its anchors and aliases (*name); a config may expand to at most its size in bytes plus \(YAMLGuard.allowance)")])
        }
        let spec = readDashboard(root, reader: &reader)
        guard reader.problems.isEmpty, let spec else {
            throw ConfigErrors(reader.problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return spec
    }

    static func syntaxProblem(_ error: any Error, file: String) -> ConfigProblem {
        if let yaml = error as? YamlError {
            switch yaml {
            case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
                .composer(let context, let problem, let mark, _):
                var message = "YAML syntax: \(problem)"
                if let context, context.mark.line != mark.line || context.mark.column != mark.column {
                    message += " (\(context.text) that starts at line \(context.mark.line), column \(context.mark.column))"
                }
                return ConfigProblem(file: file, line: mark.line, column: mark.column, message: message)
            case .duplicatedKeysInMapping(let duplicates, let context):
                return ConfigProblem(file: file, line: context.mark.line, column: context.mark.column, message: "duplicate keys \(duplicates.joined(separator: ", "))")
            case .reader(let problem, _, _, _):
                return ConfigProblem(file: file, line: 1, column: 1, message: "YAML: \(problem)")
            default: break
            }
        }
        return ConfigProblem(file: file, line: 1, column: 1, message: "YAML: \(error)")
    }

    // MARK: Sections

    static func readDashboard(_ root: Node, reader: inout NodeReader) -> DashboardSpec? {
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
                            seenTitles[title] = titleNode.mark?.line ?? 0
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
                layout.columns = reader.int(columns.value, "layout.columns", range: 1...12) ?? layout.columns
            }
        }
        var spec = DashboardSpec(
            file: reader.file, title: title, service: service, services: services, configure: blocks, panes: panes, layout: layout,
            bodySecrets: reader.bodySecrets.sorted(), liveSecrets: reader.liveSecrets, liveReports: reader.liveReports)
        spec.alerts = alerts
        return spec
    }

    /// `services: { name: { baseURL, … } }`, in file order; each needs a base URL.
    static func readServices(_ node: Node, reader: inout NodeReader) -> [ServiceSpec] {
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

    static func readService(_ node: Node, name: String?, reader: inout NodeReader) -> ServiceSpec? {
        var spec = ServiceSpec()
        spec.name = name
        spec.line = node.mark?.line ?? 1
        let prefix = spec.path
        guard let entries = reader.mapping(node, prefix) else { return nil }
        reader.checkKeys(entries, allowed: name == nil ? serviceKeys : namedServiceKeys, in: prefix)
        for entry in entries {
            switch entry.key {
            case "baseURL":
                guard let url = reader.interpolated(entry.value, "\(prefix).baseURL") else { continue }
                if let problem = WrittenURL.problem(in: url.value) {
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
    static func readHeaders(_ node: Node, _ what: String, live: Bool = false, reader: inout NodeReader) -> [HeaderSpec] {
        guard let entries = reader.mapping(node, what) else { return [] }
        var headers: [HeaderSpec] = []
        for entry in entries {
            let validName = !entry.key.isEmpty && entry.key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_!#$%&'*+.^`|~".contains($0)) }
            guard validName else {
                reader.problem(at: entry.keyNode, "\"\(entry.key)\" is not a valid header name")
                continue
            }
            guard let value = reader.interpolated(entry.value, "\(what).\(entry.key)") else { continue }
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
    static func readBlock(_ node: Node, services: [ServiceSpec] = [], reader: inout NodeReader) -> ConfigureBlockSpec? {
        guard let entries = reader.mapping(node, "a configure block") else { return nil }
        reader.checkKeys(entries, allowed: blockKeys, in: "a configure block")
        let line = node.mark?.line ?? 1
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
        if pattern.trimmingCharacters(in: .whitespaces).isEmpty { return "pattern must not be empty" }
        if pattern.contains(where: \.isWhitespace) { return "pattern \"\(pattern)\" contains spaces" }
        if pattern.contains("***") { return "pattern \"\(pattern)\": *** is not a wildcard (use * within a segment or ** across segments)" }
        if let scheme = pattern.range(of: "^[a-zA-Z][a-zA-Z0-9+.-]*:", options: .regularExpression) {
            let name = pattern[scheme].dropLast().lowercased()
            if !["http", "https"].contains(name) { return "pattern \"\(pattern)\" must be a path (/orders/**) or an http(s) URL" }
        }
        return nil
    }

    static func readPipeline(_ node: Node, reader: inout NodeReader) -> [StageSpec] {
        guard let entries = reader.mapping(node, "pipeline") else { return [] }
        var stages: [StageSpec] = []
        for entry in entries {
            guard let stage = StageName(rawValue: entry.key) else {
                reader.problem(at: entry.keyNode, "unknown pipeline stage \"\(entry.key)\"" + Suggestions.hint(for: entry.key, in: StageName.allCases.map(\.rawValue)))
                continue
            }
            var transformers: [TransformerSpec] = []
            switch entry.value {
            case .sequence(let sequence):
                for item in sequence { if let spec = readTransformer(item, reader: &reader) { transformers.append(spec) } }
            case .scalar where entry.value.null != nil:
                break
            default:
                reader.problem(at: entry.value, "pipeline.\(entry.key) must be a list of transformers, not \(reader.describe(entry.value))")
            }
            stages.append(StageSpec(stage: stage, transformers: transformers))
        }
        return stages
    }

    static func readTransformer(_ node: Node, reader: inout NodeReader) -> TransformerSpec? {
        var name: String
        var argument: Node?
        var argumentNode: Node = node
        var spec = TransformerSpec(kind: .json, contentTypes: nil, transformErrors: false)
        switch node {
        case .scalar(let scalar):
            name = scalar.string
        case .mapping:
            guard let entries = reader.mapping(node, "a transformer") else { return nil }
            let named = entries.filter { !transformerOptions.contains($0.key) }
            guard named.count == 1, let main = named.first else {
                reader.problem(at: node, named.isEmpty ? "a transformer needs a name (one of \(TransformerSpec.names.joined(separator: ", ")))" : "a transformer entry names one transformer, not \(named.map(\.key).joined(separator: " and "))")
                return nil
            }
            name = main.key
            argument = main.value
            argumentNode = main.keyNode
            for option in entries where transformerOptions.contains(option.key) {
                if option.key == "contentTypes" {
                    spec.contentTypes = reader.stringList(option.value, "contentTypes")
                } else {
                    spec.transformErrors = reader.bool(option.value, "transformErrors") ?? false
                }
            }
        default:
            reader.problem(at: node, "a transformer must be a name or a mapping like { select: items }")
            return nil
        }
        func requireArgument(_ what: String) -> Node? {
            guard let argument, argument.null == nil || argument.scalar?.style != .plain else {
                reader.problem(at: argumentNode, "\(name) needs \(what), e.g. { \(name): \(example(for: name)) }")
                return nil
            }
            return argument
        }
        switch name {
        case "json": spec.kind = .json
        case "ndjson": spec.kind = .ndjson
        case "text": spec.kind = .text
        case "lines": spec.kind = .lines
        case "count": spec.kind = .count
        case "base64": spec.kind = .base64
        case "select":
            guard let arg = requireArgument("a path"), let path = reader.string(arg, "select") else { return nil }
            spec.kind = .select(path)
        case "regex":
            guard let arg = requireArgument("a pattern"), let pattern = reader.string(arg, "regex") else { return nil }
            spec.kind = .regex(pattern)
        case "limit":
            guard let arg = requireArgument("a number"), let n = reader.int(arg, "limit", range: 0...1_000_000) else { return nil }
            spec.kind = .limit(n)
        case "sort":
            guard let arg = requireArgument("a path"), let path = reader.string(arg, "sort") else { return nil }
            spec.kind = .sort(path)
        case "errorMessage":
            var paths: [String] = []
            if let argument, !(argument.null != nil && argument.scalar?.style == .plain) {
                guard let list = reader.stringList(argument, "errorMessage") else { return nil }
                paths = list
            }
            spec.kind = .errorMessage(paths)
        default:
            reader.problem(at: argumentNode, "unknown transformer \"\(name)\"" + Suggestions.hint(for: name, in: TransformerSpec.names))
            return nil
        }
        do {
            _ = try spec.makeTransformer()
        } catch {
            reader.problem(at: argument ?? node, "\(error)")
            return nil
        }
        return spec
    }

    static func example(for name: String) -> String {
        switch name {
        case "select": "items[0].name"
        case "regex": "\"version (\\\\S+)\""
        case "limit": "10"
        case "sort": "-total"
        default: "…"
        }
    }

    /// The longest title, in characters: a title is a line on screen, not a document.
    static let longestTitle = 200

    /// Why a title cannot be shown, or nil: it must have something to see, and fit on a line.
    static func titleProblem(_ title: String) -> String? {
        if title.allSatisfy({ $0.isWhitespace }) { return "title must not be empty" }
        if title.count > longestTitle { return "title is \(title.count) characters long; at most \(longestTitle)" }
        return nil
    }

    /// True for an http(s) URL with a host, as written (escapes and all) once what cannot travel is encoded.
    static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: WrittenURL.encodingWhatCannotTravel(text)), let scheme = url.scheme?.lowercased() else { return false }
        return ["http", "https"].contains(scheme) && !(url.host ?? "").isEmpty
    }

    static func readPane(
        _ node: Node, service defaultService: ServiceSpec, services: [ServiceSpec], hasServiceSection: Bool, alerts defaultAlerts: AlertSpec = AlertSpec(),
        reader: inout NodeReader
    ) -> PaneSpec? {
        guard let entries = reader.mapping(node, "a pane") else { return nil }
        reader.checkKeys(entries, allowed: paneKeys, in: "a pane")
        let line = node.mark?.line ?? 1
        // Looked up a dozen times per pane, for files with thousands of panes.
        var byKey: [String: (key: String, keyNode: Node, value: Node)] = [:]
        for entry in entries { byKey[entry.key] = entry }
        let value = { (key: String) in byKey[key] }
        var ok = true

        var title = ""
        if let entry = value("title") {
            if let text = reader.string(entry.value, "title") {
                title = text
                if let problem = ConfigLoader.titleProblem(text) {
                    reader.problem(at: entry.value, problem)
                    ok = false
                }
            } else {
                ok = false
            }
        } else {
            reader.problem(at: node, "a pane needs a title")
            ok = false
        }
        // Its service: the one it names, else the `service:` section, else the only named one.
        var serviceName: String?
        var service = defaultService
        if let entry = value("service"), let name = reader.string(entry.value, "service") {
            if let named = services.first(where: { $0.name == name }) {
                service = named
                serviceName = name
            } else {
                reader.problem(at: entry.value, unknownService(name, services: services))
                ok = false
            }
        } else if !hasServiceSection, services.count == 1 {
            service = services[0]
            serviceName = services[0].name
        }
        var resource = ConfigString("")
        if let entry = value("resource") {
            if let text = reader.interpolated(entry.value, "resource") {
                resource = text
                let isAbsolute = WrittenURL.isAbsolute(text.value)
                if let problem = WrittenURL.problem(in: text.value) {
                    reader.problem(at: entry.value, "resource \"\(text.display)\" \(problem)")
                    ok = false
                } else if isAbsolute, !isHTTPURL(text.value) {
                    reader.problem(at: entry.value, "resource \"\(text.display)\" must be a path or an http(s) URL")
                    ok = false
                } else if !isAbsolute, service.baseURL == nil, value("service") == nil {
                    if services.count > 1, value("service") == nil, !hasServiceSection {
                        reader.problem(
                            at: entry.value,
                            "resource \"\(text.display)\" is a path: name its service (one of \(services.compactMap(\.name).joined(separator: ", ")))")
                    } else {
                        reader.problem(at: entry.value, "resource \"\(text.display)\" is a path, so service.baseURL is needed")
                    }
                    ok = false
                }
            } else {
                ok = false
            }
        } else {
            reader.problem(at: node, "pane \"\(title)\" needs a resource (a path like /health or a URL)")
            ok = false
        }
        var params: [(name: String, value: ConfigString)] = []
        if let entry = value("params"), let paramEntries = reader.mapping(entry.value, "params") {
            for param in paramEntries {
                if let text = reader.interpolated(param.value, "params.\(param.key)") { params.append((param.key, text)) } else { ok = false }
            }
        }
        var method = RequestMethod.get
        if let entry = value("method"), let name = reader.string(entry.value, "method") {
            if let parsed = RequestMethod(rawValue: name.lowercased()) {
                method = parsed
            } else {
                reader.problem(at: entry.value, "unknown method \"\(name)\"" + Suggestions.hint(for: name.uppercased(), in: RequestMethod.allCases.map(\.httpName)))
                ok = false
            }
        }
        var body: RequestBodySpec?
        if let entry = value("body") {
            body = readBody(entry.value, "body", reader: &reader)
            if body == nil { ok = false }
            if [.get, .head, .options, .delete].contains(method) {
                reader.problem(at: entry.keyNode, "body needs method POST, PUT or PATCH (this pane uses \(method.httpName))")
                ok = false
            }
        }
        var every: TimeInterval?
        if let entry = value("every") {
            if let seconds = reader.duration(entry.value, "every", minimum: minimumEvery) { every = seconds } else { ok = false }
        }
        var backoff: TimeInterval?
        if let entry = value("backoff") {
            if let seconds = reader.duration(entry.value, "backoff", minimum: minimumEvery) { backoff = seconds } else { ok = false }
        }
        let fields = value("fields").flatMap { readDisplayFields($0.value, "fields", reader: &reader) }
        let columns = value("columns").flatMap { readDisplayFields($0.value, "columns", reader: &reader) }
        if value("fields") != nil, fields == nil { ok = false }
        if value("columns") != nil, columns == nil { ok = false }
        var show: ShowMode = value("fields") != nil ? .fields : value("columns") != nil ? .table : .json
        if let entry = value("show"), let name = reader.string(entry.value, "show") {
            if let mode = ShowMode(rawValue: name) {
                show = mode
            } else {
                reader.problem(at: entry.value, "unknown show mode \"\(name)\" (one of \(ShowMode.allCases.map(\.rawValue).joined(separator: ", ")))" + Suggestions.hint(for: name, in: ShowMode.allCases.map(\.rawValue)))
                ok = false
            }
        }
        if let entry = value("fields"), show != .fields {
            reader.problem(at: entry.keyNode, "fields only apply to show: fields (this pane shows \(show.rawValue)\(show == .table ? "; use columns" : ""))")
            ok = false
        }
        if let entry = value("columns"), show != .table {
            reader.problem(at: entry.keyNode, "columns only apply to show: table (this pane shows \(show.rawValue)\(show == .fields ? "; use fields" : ""))")
            ok = false
        }
        var format: ValueFormat?
        if let entry = value("format") {
            if show != .value {
                reader.problem(at: entry.keyNode, "format applies to show: value (for fields and columns, give each entry its own: { path: size, format: bytes })")
                ok = false
            } else if let parsed = readFormat(entry.value, reader: &reader) {
                format = parsed
            } else {
                ok = false
            }
        }
        var decimals: Int?
        if let entry = value("decimals") {
            if show != .value {
                reader.problem(at: entry.keyNode, "decimals apply to show: value (for fields and columns, give each entry its own: { path: total, decimals: 2 })")
                ok = false
            } else if let parsed = readDecimals(entry, format: &format, reader: &reader) {
                decimals = parsed
            } else {
                ok = false
            }
        }
        var thresholds: Thresholds?
        if let entry = value("thresholds") {
            if show != .value {
                reader.problem(at: entry.keyNode, "thresholds apply to show: value (this pane shows \(show.rawValue))")
                ok = false
            } else if let parsed = readThresholds(entry.value, reader: &reader) {
                thresholds = parsed
            } else {
                ok = false
            }
        }
        var select: String?
        if let entry = value("select"), let path = reader.string(entry.value, "select") {
            do {
                _ = try JSONPath(path)
                select = path
            } catch {
                reader.problem(at: entry.value, "select: \(error)")
                ok = false
            }
        }
        var overlay: [OverlayRule]?
        if let entry = value("overlay"), let names = reader.stringList(entry.value, "overlay") {
            var rules: [OverlayRule] = []
            for name in names {
                if let rule = OverlayRule(rawValue: name) {
                    rules.append(rule)
                } else {
                    reader.problem(at: entry.value, "unknown overlay rule \"\(name)\" (one of \(OverlayRule.allCases.map(\.rawValue).joined(separator: ", ")))" + Suggestions.hint(for: name, in: OverlayRule.allCases.map(\.rawValue)))
                    ok = false
                }
            }
            overlay = rules
        }
        var history = defaultHistory
        if let entry = value("history") {
            if let count = reader.int(entry.value, "history", range: 2...10_000) { history = count } else { ok = false }
        }
        var expectations: [Expectation] = []
        if let entry = value("expect") {
            let items: [Node]
            switch entry.value {
            case .sequence(let sequence): items = Array(sequence)
            case .scalar: items = [entry.value]
            default:
                items = []
                reader.problem(at: entry.value, "expect must be a list of conditions like \"status == 200\"")
                ok = false
            }
            for item in items {
                guard case .scalar(let scalar) = item else {
                    reader.problem(at: item, "expect: each condition is text like \"status == 200\", not \(reader.describe(item))")
                    ok = false
                    continue
                }
                guard let text = reader.string(item, "expect") else {
                    ok = false
                    continue
                }
                do {
                    expectations.append(try Expectation(text))
                } catch {
                    // Point at the character inside the string (after an opening quote, if any).
                    let quoted = scalar.style == .singleQuoted || scalar.style == .doubleQuoted
                    let mark = item.mark
                    reader.problem(line: mark?.line ?? line, column: (mark?.column ?? 1) + (quoted ? 1 : 0) + error.offset, "expect: \(error.message)")
                    ok = false
                }
            }
        }
        var headers: [HeaderSpec] = []
        if let entry = value("headers") { headers = readHeaders(entry.value, "headers", reader: &reader) }
        var timeout: TimeInterval?
        if let entry = value("timeout") {
            if let seconds = reader.duration(entry.value, "timeout", minimum: 0.001) { timeout = seconds } else { ok = false }
        }
        var withoutAuth = false
        if let entry = value("auth"), let text = reader.string(entry.value, "auth") {
            if text == "none" {
                withoutAuth = true
            } else {
                reader.problem(at: entry.value, "a pane's auth can only be none (the service's auth: is used otherwise)" + Suggestions.hint(for: text, in: ["none"]))
                ok = false
            }
        }
        var pipeline: [StageSpec] = []
        if let entry = value("pipeline") {
            let problemsBefore = reader.problems.count
            pipeline = readPipeline(entry.value, reader: &reader)
            if reader.problems.count > problemsBefore { ok = false }
        }
        var alerts = defaultAlerts
        if let entry = value("alerts") {
            if let parsed = readAlerts(entry.value, base: defaultAlerts, what: "alerts", reader: &reader) { alerts = parsed } else { ok = false }
        }
        guard ok else { return nil }
        var pane = PaneSpec(
            title: title, resource: resource, params: params, method: method, body: body, every: every, show: show,
            fields: fields, columns: columns, select: select, overlay: overlay, history: history, expect: expectations, line: line)
        pane.headers = headers
        pane.timeout = timeout
        pane.service = serviceName
        pane.pipeline = pipeline
        pane.withoutAuth = withoutAuth
        pane.format = format
        pane.decimals = decimals
        pane.backoff = backoff
        pane.thresholds = thresholds
        pane.alerts = alerts
        return pane
    }
}
