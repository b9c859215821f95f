import Foundation
import Redaction
import ResourceEngine
import Yams

/// A pane: its request, display, expectations and alerts, checked one key at a time.
extension ConfigLoader {
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
