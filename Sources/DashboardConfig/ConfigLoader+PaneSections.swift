import FoundationEssentials
import Redaction
import ResourceEngine

/// One pane's entries while they are read: looked up by key, and whether all read so far was good.
struct PaneReading {
    let node: YAMLNode
    /// The pane's line in the file.
    let line: Int
    /// Looked up a dozen times per pane, for files with thousands of panes.
    private let byKey: [String: (key: String, keyNode: YAMLNode, value: YAMLNode)]
    /// False once any entry had a problem.
    var ok = true

    init(node: YAMLNode, entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)]) {
        self.node = node
        self.line = node.mark.line
        var byKey: [String: (key: String, keyNode: YAMLNode, value: YAMLNode)] = [:]
        for entry in entries { byKey[entry.key] = entry }
        self.byKey = byKey
    }

    func value(_ key: String) -> (key: String, keyNode: YAMLNode, value: YAMLNode)? { byKey[key] }
}

/// A pane's sections, read in the file's order.
extension ConfigLoader {
    /// The pane's title, its service (the one it names, else the `service:` section, else the only
    /// named one) and its resource, which that service must be able to reach.
    static func readPaneTarget(_ pane: inout PaneReading, defaultService: ServiceSpec, services: [ServiceSpec], hasServiceSection: Bool, reader: inout NodeReader) -> (title: String, serviceName: String?, resource: ConfigString) {
        var title = ""
        if let entry = pane.value("title") {
            if let text = reader.string(entry.value, "title") {
                title = text
                if let problem = ConfigLoader.titleProblem(text) {
                    reader.problem(at: entry.value, problem)
                    pane.ok = false
                }
            } else {
                pane.ok = false
            }
        } else {
            reader.problem(at: pane.node, "a pane needs a title")
            pane.ok = false
        }
        // Its service: the one it names, else the `service:` section, else the only named one.
        var serviceName: String?
        var service = defaultService
        if let entry = pane.value("service"), let name = reader.string(entry.value, "service") {
            if let named = services.first(where: { $0.name == name }) {
                service = named
                serviceName = name
            } else {
                reader.problem(at: entry.value, unknownService(name, services: services))
                pane.ok = false
            }
        } else if !hasServiceSection, services.count == 1 {
            service = services[0]
            serviceName = services[0].name
        }
        var resource = ConfigString("")
        if let entry = pane.value("resource") {
            if let text = reader.chained(entry.value, "resource", place: .resource) {
                resource = text
                let isAbsolute = WrittenURL.isAbsolute(text.value)
                if let problem = WrittenURL.problem(in: text.value) {
                    reader.problem(at: entry.value, "resource \"\(text.display)\" \(problem)")
                    pane.ok = false
                } else if isAbsolute, !isHTTPURL(text.value) {
                    reader.problem(at: entry.value, "resource \"\(text.display)\" must be a path or an http(s) URL")
                    pane.ok = false
                } else if !isAbsolute, service.baseURL == nil, pane.value("service") == nil {
                    if services.count > 1, pane.value("service") == nil, !hasServiceSection {
                        reader.problem(
                            at: entry.value,
                            "resource \"\(text.display)\" is a path: name its service (one of \(services.compactMap(\.name).joined(separator: ", ")))")
                    } else {
                        reader.problem(at: entry.value, "resource \"\(text.display)\" is a path, so service.baseURL is needed")
                    }
                    pane.ok = false
                }
            } else {
                pane.ok = false
            }
        } else {
            reader.problem(at: pane.node, "pane \"\(title)\" needs a resource (a path like /health or a URL)")
            pane.ok = false
        }
        return (title, serviceName, resource)
    }

    /// What the pane sends: its params, method and body.
    static func readPaneRequest(_ pane: inout PaneReading, reader: inout NodeReader) -> (params: [(name: String, value: ConfigString)], method: RequestMethod, body: RequestBodySpec?) {
        var params: [(name: String, value: ConfigString)] = []
        if let entry = pane.value("params"), let paramEntries = reader.mapping(entry.value, "params") {
            for param in paramEntries {
                if let text = reader.chained(param.value, "params.\(param.key)", place: .param(param.key)) { params.append((param.key, text)) } else { pane.ok = false }
            }
        }
        var method = RequestMethod.get
        if let entry = pane.value("method"), let name = reader.string(entry.value, "method") {
            if let parsed = RequestMethod(rawValue: name.lowercased()) {
                method = parsed
            } else {
                reader.problem(at: entry.value, "unknown method \"\(name)\"" + Suggestions.hint(for: name.uppercased(), in: RequestMethod.allCases.map(\.httpName)))
                pane.ok = false
            }
        }
        var body: RequestBodySpec?
        if let entry = pane.value("body") {
            body = readBody(entry.value, "body", reader: &reader)
            if body == nil { pane.ok = false }
            if [.get, .head, .options, .delete].contains(method) {
                reader.problem(at: entry.keyNode, "body needs method POST, PUT or PATCH (this pane uses \(method.httpName))")
                pane.ok = false
            }
        }
        return (params, method, body)
    }

    /// How often the pane loads, and how far a failing one backs off.
    static func readPaneCadence(_ pane: inout PaneReading, reader: inout NodeReader) -> (every: TimeInterval?, backoff: TimeInterval?) {
        var every: TimeInterval?
        if let entry = pane.value("every") {
            if let seconds = reader.duration(entry.value, "every", minimum: minimumEvery) { every = seconds } else { pane.ok = false }
        }
        var backoff: TimeInterval?
        if let entry = pane.value("backoff") {
            if let seconds = reader.duration(entry.value, "backoff", minimum: minimumEvery) { backoff = seconds } else { pane.ok = false }
        }
        return (every, backoff)
    }

    /// How the pane shows its data: the show mode with its fields, columns, format, decimals and
    /// thresholds, `select`, and the overlay's rules.
    static func readPaneDisplay(_ pane: inout PaneReading, reader: inout NodeReader) -> (fields: [DisplayField]?, columns: [DisplayField]?, show: ShowMode, format: ValueFormat?, decimals: Int?, thresholds: Thresholds?, select: String?, overlay: [OverlayRule]?) {
        let fields = pane.value("fields").flatMap { readDisplayFields($0.value, "fields", reader: &reader) }
        let columns = pane.value("columns").flatMap { readDisplayFields($0.value, "columns", reader: &reader) }
        if pane.value("fields") != nil, fields == nil { pane.ok = false }
        if pane.value("columns") != nil, columns == nil { pane.ok = false }
        var show: ShowMode = pane.value("fields") != nil ? .fields : pane.value("columns") != nil ? .table : .json
        if let entry = pane.value("show"), let name = reader.string(entry.value, "show") {
            if let mode = ShowMode(rawValue: name) {
                show = mode
            } else {
                reader.problem(at: entry.value, "unknown show mode \"\(name)\" (one of \(ShowMode.allCases.map(\.rawValue).joined(separator: ", ")))" + Suggestions.hint(for: name, in: ShowMode.allCases.map(\.rawValue)))
                pane.ok = false
            }
        }
        if let entry = pane.value("fields"), show != .fields {
            reader.problem(at: entry.keyNode, "fields only apply to show: fields (this pane shows \(show.rawValue)\(show == .table ? "; use columns" : ""))")
            pane.ok = false
        }
        if let entry = pane.value("columns"), show != .table {
            reader.problem(at: entry.keyNode, "columns only apply to show: table (this pane shows \(show.rawValue)\(show == .fields ? "; use fields" : ""))")
            pane.ok = false
        }
        var format: ValueFormat?
        if let entry = pane.value("format") {
            if show != .value {
                reader.problem(at: entry.keyNode, "format applies to show: value (for fields and columns, give each entry its own: { path: size, format: bytes })")
                pane.ok = false
            } else if let parsed = readFormat(entry.value, reader: &reader) {
                format = parsed
            } else {
                pane.ok = false
            }
        }
        var decimals: Int?
        if let entry = pane.value("decimals") {
            if show != .value {
                reader.problem(at: entry.keyNode, "decimals apply to show: value (for fields and columns, give each entry its own: { path: total, decimals: 2 })")
                pane.ok = false
            } else if let parsed = readDecimals(entry, format: &format, reader: &reader) {
                decimals = parsed
            } else {
                pane.ok = false
            }
        }
        var thresholds: Thresholds?
        if let entry = pane.value("thresholds") {
            if show != .value {
                reader.problem(at: entry.keyNode, "thresholds apply to show: value (this pane shows \(show.rawValue))")
                pane.ok = false
            } else if let parsed = readThresholds(entry.value, reader: &reader) {
                thresholds = parsed
            } else {
                pane.ok = false
            }
        }
        var select: String?
        if let entry = pane.value("select"), let path = reader.string(entry.value, "select") {
            do {
                _ = try JSONPath(path)
                select = path
            } catch {
                reader.problem(at: entry.value, "select: \(error)")
                pane.ok = false
            }
        }
        var overlay: [OverlayRule]?
        if let entry = pane.value("overlay"), let names = reader.stringList(entry.value, "overlay") {
            var rules: [OverlayRule] = []
            for name in names {
                if let rule = OverlayRule(rawValue: name) {
                    rules.append(rule)
                } else {
                    reader.problem(at: entry.value, "unknown overlay rule \"\(name)\" (one of \(OverlayRule.allCases.map(\.rawValue).joined(separator: ", ")))" + Suggestions.hint(for: name, in: OverlayRule.allCases.map(\.rawValue)))
                    pane.ok = false
                }
            }
            overlay = rules
        }
        return (fields, columns, show, format, decimals, thresholds, select, overlay)
    }

    /// The pane's `expect:` conditions, each problem at its line and column inside the string.
    static func readPaneExpectations(_ pane: inout PaneReading, reader: inout NodeReader) -> [Expectation] {
        var expectations: [Expectation] = []
        if let entry = pane.value("expect") {
            let read = reader.items(of: entry.value, or: "expect must be a list of conditions like \"status == 200\"")
            if read == nil { pane.ok = false }
            let items = read ?? []
            for item in items {
                guard case .scalar(let scalar) = item else {
                    reader.problem(at: item, "expect: each condition is text like \"status == 200\", not \(reader.describe(item))")
                    pane.ok = false
                    continue
                }
                guard let text = reader.string(item, "expect") else {
                    pane.ok = false
                    continue
                }
                do {
                    expectations.append(try Expectation(text))
                } catch {
                    // Point at the character inside the string (after an opening quote, if any).
                    let quoted = scalar.style == .singleQuoted || scalar.style == .doubleQuoted
                    let mark = item.mark
                    reader.problem(line: mark.line, column: mark.column + (quoted ? 1 : 0) + error.offset, "expect: \(error.message)")
                    pane.ok = false
                }
            }
        }
        return expectations
    }

    /// The pane's own headers, timeout, and whether it goes without its service's auth.
    static func readPaneTransport(_ pane: inout PaneReading, reader: inout NodeReader) -> (headers: [HeaderSpec], timeout: TimeInterval?, withoutAuth: Bool) {
        var headers: [HeaderSpec] = []
        if let entry = pane.value("headers") { headers = readHeaders(entry.value, "headers", chained: true, reader: &reader) }
        var timeout: TimeInterval?
        if let entry = pane.value("timeout") {
            if let seconds = reader.duration(entry.value, "timeout", minimum: 0.001) { timeout = seconds } else { pane.ok = false }
        }
        var withoutAuth = false
        if let entry = pane.value("auth"), let text = reader.string(entry.value, "auth") {
            if text == "none" {
                withoutAuth = true
            } else {
                reader.problem(at: entry.value, "a pane's auth can only be none (the service's auth: is used otherwise)" + Suggestions.hint(for: text, in: ["none"]))
                pane.ok = false
            }
        }
        return (headers, timeout, withoutAuth)
    }

    /// The pane's own pipeline steps and alerts (over the file's).
    static func readPaneProcessing(_ pane: inout PaneReading, defaultAlerts: AlertSpec, reader: inout NodeReader) -> (pipeline: [StageSpec], alerts: AlertSpec) {
        var pipeline: [StageSpec] = []
        if let entry = pane.value("pipeline") {
            let problemsBefore = reader.problems.count
            pipeline = readPipeline(entry.value, reader: &reader)
            if reader.problems.count > problemsBefore { pane.ok = false }
        }
        var alerts = defaultAlerts
        if let entry = pane.value("alerts") {
            if let parsed = readAlerts(entry.value, base: defaultAlerts, what: "alerts", reader: &reader) { alerts = parsed } else { pane.ok = false }
        }
        return (pipeline, alerts)
    }
}
