import FoundationEssentials
import ResourceEngine

/// `hammock init --from servicestack URL`: a config from a ServiceStack service's own metadata,
/// its `/metadata/app.json` (the API list its Admin UI and Locode read), with the engine's JSON
/// reader.
///
/// Each operation with a GET route that needs no value Hammock cannot know (no `{Id}` in the path,
/// no required property) becomes a pane, shown as its response type suggests (a list, or a
/// `Results` list as AutoQuery answers: a table of its first scalar columns; an object: its
/// scalar fields); `requiresApiKey` or `requiresAuth` becomes a bearer token from `${API_KEY}` or
/// `${API_TOKEN}` (how ServiceStack takes API keys); `ResponseStatus` errors are lifted by
/// `errorMessage`; tags become tags.
public enum ServiceStackImport {
    /// Whether `document` is a ServiceStack metadata document (it lists `api.operations`).
    public static func isMetadata(_ document: JSON) -> Bool {
        document["api"]?["operations"]?.arrayValue != nil
    }

    /// Where a service's metadata is: `URL` as given when it names a `.json` document, else
    /// `metadata/app.json` under it.
    public static func metadataURL(for url: String) -> String {
        let bare = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if bare.hasSuffix(".json") { return url }
        return (url.hasSuffix("/") ? url : url + "/") + "metadata/app.json"
    }

    /// The config for `document`, fetched from `source` (whose folder above `metadata/` is the
    /// service's base when it is a URL; else the document's `app.baseUrl`).
    public static func config(from document: JSON, source: String) throws(ImportProblem) -> ImportedConfig {
        guard let operations = document["api"]?["operations"]?.arrayValue else {
            throw ImportProblem(message: "this is no ServiceStack metadata document (it has no api.operations)")
        }
        let types = typeIndex(document)
        var variables: [String] = []
        func variable(_ name: String) -> String {
            if !variables.contains(name) { variables.append(name) }
            return "${\(name)}"
        }
        let title = document["app"]?["serviceName"]?.stringValue ?? "ServiceStack API"
        var lines = [
            "# yaml-language-server: $schema=./hammock.schema.json", "# From \(source) (hammock init --from servicestack). Check it: hammock check",
            "title: \(OpenAPIImport.raw(title))", "service:",
        ]
        lines.append("  baseURL: " + (baseURL(document, source: source).map(OpenAPIImport.quoted) ?? OpenAPIImport.raw(variable("API_URL"))))
        if operations.contains(where: { $0["requiresApiKey"]?.boolValue == true }) {
            lines += ["  auth:", "    bearer: \(OpenAPIImport.raw(variable("API_KEY")))   # ServiceStack takes an API key as a bearer token"]
        } else if operations.contains(where: { $0["requiresAuth"]?.boolValue == true }) {
            lines += ["  auth:", "    bearer: \(OpenAPIImport.raw(variable("API_TOKEN")))"]
        }
        lines += [
            "configure:", "  - pattern: /**", "    pipeline:",
            "      cleanup: [ errorMessage ]   # a ResponseStatus's message (and its field errors) is the error line",
        ]

        var panes: [String] = []
        var skipped: [String] = []
        var titles: Set<String> = []
        for operation in operations {
            let name = operation["request"]?["name"]?.stringValue ?? "operation"
            guard let path = getPath(of: operation) else {
                skipped.append("\(name): no GET route")
                continue
            }
            if path.contains("{") {
                skipped.append("\(name): \(path) needs a value in its path")
                continue
            }
            let required = (operation["request"]?["properties"]?.arrayValue ?? []).filter { $0["isRequired"]?.boolValue == true }
            if let first = required.first {
                skipped.append("\(name): needs \(first["name"]?.stringValue ?? "a value")")
                continue
            }
            let written = operation["request"]?["description"]?.stringValue ?? words(name)
            let paneTitle = titles.contains(written) || written.isEmpty ? "GET \(path)" : written
            titles.insert(paneTitle)
            // Titles are text a config shows, never interpolated: written as they are.
            var pane = ["  - title: \(OpenAPIImport.raw(paneTitle))", "    resource: \(OpenAPIImport.quoted(path))"]
            pane += display(of: operation, types: types)
            pane.append("    expect: [\"status == 200\"]")
            if let tags = ImportedConfig.tagsLine(operation["tags"]) { pane.append(tags) }
            panes += pane
        }
        return try ImportedConfig.assemble(lines, panes: panes, variables: variables, skipped: skipped)
    }

    /// The service's base: the document's URL above `metadata/`, else `app.baseUrl`, ending in `/`.
    static func baseURL(_ document: JSON, source: String) -> String? {
        var base: String?
        if source.hasPrefix("http://") || source.hasPrefix("https://"), let range = source.ranges(of: "metadata/").last {
            base = String(source[..<range.lowerBound])
        } else if let written = document["app"]?["baseUrl"]?.stringValue, written.hasPrefix("http://") || written.hasPrefix("https://") {
            base = written
        }
        guard var url = base else { return nil }
        if !url.hasSuffix("/") { url += "/" }
        return url
    }

    /// The operation's first route a GET reaches (verbs absent, `ANY` or naming `GET`), relative
    /// to the base; an operation without routes whose method is GET answers at `/api/NAME`.
    static func getPath(of operation: JSON) -> String? {
        for route in operation["routes"]?.arrayValue ?? [] {
            guard let path = route["path"]?.stringValue else { continue }
            let verbs = (route["verbs"]?.stringValue ?? "").uppercased().split(whereSeparator: { $0 == "," || $0 == " " })
            if verbs.isEmpty || verbs.contains("GET") || verbs.contains("ANY") { return String(path.drop(while: { $0 == "/" })) }
        }
        let routes = operation["routes"]?.arrayValue ?? []
        let method = operation["method"]?.stringValue?.uppercased()
        if routes.isEmpty, method == "GET", let name = operation["request"]?["name"]?.stringValue { return "api/\(name)" }
        return nil
    }

    /// `show:` and its columns or fields, from the response type: a list of a type, or a type
    /// with a list property (AutoQuery's `Results`), as a table; else its scalar properties.
    static func display(of operation: JSON, types: [String: JSON]) -> [String] {
        let returned = operation["returnType"] ?? operation["response"]
        if let element = listElement(returned, kind: returned?["name"]), let type = types[element] {
            let columns = scalarProperties(of: type).prefix(4)
            if !columns.isEmpty { return ["    show: table", "    columns: [\(columns.map(OpenAPIImport.pathText).joined(separator: ", "))]"] }
        }
        let response = operation["response"] ?? returned.flatMap { types[$0["name"]?.stringValue ?? ""] }
        let properties = response?["properties"]?.arrayValue ?? []
        let returnedArgs = returned?["genericArgs"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for property in properties {
            guard var element = listElement(property, kind: property["type"]) else { continue }
            // A generic response (`QueryResponse<T>`) names its element where it is returned.
            if types[element] == nil, let bound = returnedArgs.first { element = bound }
            guard let type = types[element], let name = property["name"]?.stringValue else { continue }
            let columns = scalarProperties(of: type).prefix(4)
            if !columns.isEmpty {
                return [
                    "    show: table", "    select: \(OpenAPIImport.pathText(camelCase(name)))",
                    "    columns: [\(columns.map(OpenAPIImport.pathText).joined(separator: ", "))]",
                ]
            }
        }
        let fields = response.map(scalarProperties(of:))?.prefix(6) ?? []
        if !fields.isEmpty { return ["    show: fields", "    fields: [\(fields.map(OpenAPIImport.pathText).joined(separator: ", "))]"] }
        return ["    show: json"]
    }

    /// The element type's name of a `List<T>`, `IEnumerable<T>`, `ICollection<T>` or `T[]`:
    /// `kind` is the type's name (a type's `name`, a property's `type`), `type` holds its arguments.
    static func listElement(_ type: JSON?, kind: JSON?) -> String? {
        guard let name = kind?.stringValue else { return nil }
        if name.hasSuffix("[]") { return String(name.dropLast(2)) }
        let lists = ["List`1", "IList`1", "IEnumerable`1", "ICollection`1", "IReadOnlyList`1"]
        guard lists.contains(name) else { return nil }
        return type?["genericArgs"]?.arrayValue?.first?.stringValue
    }

    /// A type's scalar properties, as the JSON names them (ServiceStack writes camelCase).
    static func scalarProperties(of type: JSON) -> [String] {
        let scalars: Set<String> = [
            "String", "Int16", "Int32", "Int64", "UInt16", "UInt32", "UInt64", "Decimal", "Double", "Single", "Boolean", "DateTime",
            "DateTimeOffset", "DateOnly", "TimeSpan", "Guid", "Byte", "Char",
        ]
        return (type["properties"]?.arrayValue ?? []).compactMap { property in
            guard let name = property["name"]?.stringValue, let kind = property["type"]?.stringValue else { return nil }
            let scalar = scalars.contains(kind) || property["isEnum"]?.boolValue == true
                || kind == "Nullable`1" && scalars.contains(property["genericArgs"]?[0]?.stringValue ?? "")
            return scalar ? camelCase(name) : nil
        }
    }

    /// A request DTO's name as words: `GetDueInvoices` is "Get due invoices".
    static func words(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase, let last = out.last, last.isLowercase || last.isNumber {
                out += " " + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }

    static func camelCase(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// The document's types by name: `api.types`, and each operation's request and response.
    static func typeIndex(_ document: JSON) -> [String: JSON] {
        var types: [String: JSON] = [:]
        for type in document["api"]?["types"]?.arrayValue ?? [] {
            if let name = type["name"]?.stringValue { types[name] = types[name] ?? type }
        }
        for operation in document["api"]?["operations"]?.arrayValue ?? [] {
            for part in ["request", "response"] {
                if let type = operation[part], let name = type["name"]?.stringValue, types[name] == nil { types[name] = type }
            }
        }
        return types
    }
}
