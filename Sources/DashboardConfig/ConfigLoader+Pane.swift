import FoundationEssentials
import Redaction
import ResourceEngine

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
        _ node: YAMLNode, service defaultService: ServiceSpec, services: [ServiceSpec], hasServiceSection: Bool, alerts defaultAlerts: AlertSpec = AlertSpec(),
        reader: inout NodeReader
    ) -> PaneSpec? {
        guard let entries = reader.mapping(node, "a pane") else { return nil }
        reader.checkKeys(entries, allowed: paneKeys, in: "a pane")
        reader.chainFields = []
        reader.chainReferences = []
        var pane = PaneReading(node: node, entries: entries)
        // In the file's order of sections, so problems are reported in the order they are met.
        let target = readPaneTarget(&pane, defaultService: defaultService, services: services, hasServiceSection: hasServiceSection, reader: &reader)
        let request = readPaneRequest(&pane, reader: &reader)
        let cadence = readPaneCadence(&pane, reader: &reader)
        let display = readPaneDisplay(&pane, reader: &reader)
        var history = defaultHistory
        if let entry = pane.value("history") {
            if let count = reader.int(entry.value, "history", range: 2...10_000) { history = count } else { pane.ok = false }
        }
        var size = PaneSize.columns(1)
        if let entry = pane.value("size") {
            if entry.value.scalar?.string == "full" {
                size = .full
            } else if let text = entry.value.scalar?.string, Int(text) == nil, Double(text) == nil {
                reader.problem(at: entry.value, "size must be full or a number of columns (1 to 12), not \"\(text)\"")
                pane.ok = false
            } else if let columns = reader.int(entry.value, "size", range: 1...12) {
                size = .columns(columns)
            } else {
                pane.ok = false
            }
        }
        var tags: [String] = []
        if let entry = pane.value("tags") {
            if let read = readTags(entry.value, reader: &reader) { tags = read } else { pane.ok = false }
        }
        var quiet: [QuietWindow]?
        if let entry = pane.value("quiet") {
            if let read = readQuiet(entry.value, "quiet", reader: &reader) { quiet = read } else { pane.ok = false }
        }
        var dependsOn: [PaneDependency] = []
        if let entry = pane.value("dependsOn") {
            if let read = readDependsOn(entry.value, "dependsOn", reader: &reader) { dependsOn = read } else { pane.ok = false }
        }
        let expectations = readPaneExpectations(&pane, reader: &reader)
        let transport = readPaneTransport(&pane, reader: &reader)
        let processing = readPaneProcessing(&pane, defaultAlerts: defaultAlerts, reader: &reader)
        let chain = takeChain(&reader)
        guard pane.ok else { return nil }
        var spec = PaneSpec(
            title: target.title, resource: target.resource, params: request.params, method: request.method, body: request.body,
            every: cadence.every, show: display.show, fields: display.fields, columns: display.columns, select: display.select,
            overlay: display.overlay, history: history, expect: expectations, line: pane.line)
        spec.headers = transport.headers
        spec.tags = tags
        spec.timeout = transport.timeout
        spec.service = target.serviceName
        spec.pipeline = processing.pipeline
        spec.withoutAuth = transport.withoutAuth
        spec.format = display.format
        spec.decimals = display.decimals
        spec.backoff = cadence.backoff
        spec.thresholds = display.thresholds
        spec.alerts = processing.alerts
        spec.size = size
        spec.chain = chain
        spec.dependsOn = dependsOn
        if let quiet {
            spec.quiet = quiet
            spec.quietOwn = true
        }
        return spec
    }

    /// `tags: [payments, edge]` (or one tag): letters, digits, `-`, `_` and `.`, each once.
    static func readTags(_ node: YAMLNode, reader: inout NodeReader) -> [String]? {
        guard let items = reader.items(of: node, or: "tags must be a list of names, e.g. [payments, edge], not \(reader.describe(node))") else { return nil }
        var tags: [String] = []
        var ok = true
        for item in items {
            guard let tag = reader.string(item, "a tag") else {
                ok = false
                continue
            }
            if !PaneSpec.isTag(tag) {
                reader.problem(at: item, "tag \"\(tag)\" may only use letters, digits, - _ and . (1 to 40 of them)")
                ok = false
            } else if tags.contains(where: { $0.lowercased() == tag.lowercased() }) {
                reader.problem(at: item, "tag \"\(tag)\" is given twice")
                ok = false
            } else {
                tags.append(tag)
            }
        }
        return ok ? tags : nil
    }
}
