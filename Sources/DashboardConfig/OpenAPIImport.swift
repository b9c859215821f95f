import FoundationEssentials
import ResourceEngine
import TextBasics

/// `hammock init --from openapi.json|openapi.yaml|URL`: a config from what an API says about
/// itself (OpenAPI 3.0/3.1, Swagger 2.0), read from the document's JSON with the engine's own
/// reader (no OpenAPIKit: it would bring full Foundation's decoders into the shipped binary).
///
/// Servers become the service; each GET operation that needs no value Hammock cannot know (a path
/// parameter, a required query parameter without an example or default) a pane, shown as its
/// success response's schema suggests (a list of objects: a table of its first scalar columns; an
/// object: its scalar fields; text: text); security schemes become `auth:` or headers with
/// `${VARIABLES}`; documented success codes `expect:`; tags `tags:`.
public enum OpenAPIImport {
    typealias Problem = ImportProblem

    /// The document's text (JSON or YAML) read as JSON.
    public static func document(_ text: String) throws(ImportProblem) -> JSON {
        if let json = try? JSONParser.parse(text) { return json }
        do {
            guard let node = try YAMLDocument.compose(text) else { throw Problem(message: "the document is empty") }
            return json(of: node)
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(message: "the document is neither JSON nor YAML: \(error)")
        }
    }

    static func json(of node: YAMLNode) -> JSON {
        switch node {
        case .scalar(let scalar): return NodeReader.plainValue(node) ?? .string(scalar.string)
        case .sequence(let sequence): return .array(sequence.map(json(of:)))
        case .mapping(let mapping): return .object(JSONObject(mapping.map { ($0.key.scalar?.string ?? "", json(of: $0.value)) }))
        }
    }

    /// The config for `document`; `source` is where it came from (a relative server resolves
    /// against a URL).
    public static func config(from document: JSON, source: String) throws(ImportProblem) -> ImportedConfig {
        guard document["openapi"]?.stringValue != nil || document["swagger"]?.stringValue != nil else {
            throw Problem(message: "this is no OpenAPI document (it has neither openapi: nor swagger:)")
        }
        var variables: [String] = []
        func variable(_ name: String) -> String {
            if !variables.contains(name) { variables.append(name) }
            return "${\(name)}"
        }
        let title = document["info"]?["title"]?.stringValue ?? "API"
        var lines = ["# yaml-language-server: $schema=./hammock.schema.json", "# From \(source) (hammock init --from). Check it: hammock check", "title: \(raw(title))", "service:"]
        if let base = baseURL(document, source: source) {
            lines.append("  baseURL: \(quoted(base))")
        } else {
            lines.append("  baseURL: \(raw(variable("API_URL")))")
        }

        // Security: the document's default requirement, else its first scheme.
        let schemes = document["components"]?["securitySchemes"]?.objectValue ?? document["securityDefinitions"]?.objectValue ?? JSONObject()
        let required = document["security"]?.arrayValue?.compactMap { $0.objectValue?.members.first?.key } ?? []
        // Values Hammock chose (a key's variable) are written as they are; the document's are escaped.
        var queryKeys: [(name: String, value: String, ours: Bool)] = []
        if let name = required.first ?? schemes.members.first?.key, let scheme = schemes[name] {
            let type = scheme["type"]?.stringValue ?? ""
            let httpScheme = scheme["scheme"]?.stringValue?.lowercased()
            if type == "http" && httpScheme == "bearer" || type == "oauth2" || type == "openIdConnect" {
                lines += ["  auth:", "    bearer: \(raw(variable("API_TOKEN")))"]
            } else if type == "http" && httpScheme == "basic" || type == "basic" {
                lines += ["  auth:", "    basic: { user: \(raw(variable("API_USER"))), password: \(raw(variable("API_PASSWORD"))) }"]
            } else if type == "apiKey", let keyName = scheme["name"]?.stringValue {
                let value = variable("API_KEY")
                switch scheme["in"]?.stringValue {
                case "header": lines += ["  headers:", "    \(quoted(keyName)): \(raw(value))"]
                case "query": queryKeys.append((keyName, value, true))
                default: break
                }
            }
        }

        var panes: [String] = []
        var skipped: [String] = []
        var titles: Set<String> = []
        let paths = document["paths"]?.objectValue ?? JSONObject()
        for (path, item) in paths.members {
            guard let operation = item["get"] else { continue }
            let parameters = (item["parameters"]?.arrayValue ?? []) + (operation["parameters"]?.arrayValue ?? [])
            var params = queryKeys
            var skip: String?
            for parameter in parameters.map({ resolve($0, in: document) }) {
                let name = parameter["name"]?.stringValue ?? ""
                let place = parameter["in"]?.stringValue ?? ""
                let isRequired = parameter["required"]?.boolValue == true || place == "path"
                guard isRequired else { continue }
                let example = parameter["example"] ?? parameter["schema"]?["example"] ?? parameter["schema"]?["default"] ?? parameter["default"]
                    ?? parameter["examples"]?.objectValue?.members.first?.value["value"]
                if place == "query", let example {
                    params.append((name, scalarText(example), false))
                } else {
                    skip = "GET \(path): needs \(place) parameter \(name)\(place == "query" ? " and gives no example" : "")"
                    break
                }
            }
            if let skip {
                skipped.append(skip)
                continue
            }
            var name = operation["summary"]?.stringValue ?? operation["operationId"]?.stringValue ?? "GET \(path)"
            if name.isEmpty || titles.contains(name) { name = "GET \(path)" }
            titles.insert(name)
            // Titles are text a config shows, never interpolated: written as they are.
            var pane = ["  - title: \(raw(name))", "    resource: \(quoted(path))"]
            if !params.isEmpty {
                pane.append("    params:")
                for (key, value, ours) in params { pane.append("      \(quoted(key)): \(ours ? raw(value) : quoted(value))") }
            }
            let responses = operation["responses"]?.objectValue ?? JSONObject()
            let codes = responses.members.map(\.key).compactMap(Int.init).filter { (200..<300).contains($0) }
            pane += display(of: responses, in: document)
            if codes.count == 1 {
                pane.append("    expect: [\"status == \(codes[0])\"]")
            } else if codes.count > 1 {
                pane.append("    expect: [\"status in [\(codes.map(String.init).joined(separator: ", "))]\"]")
            }
            if let tags = ImportedConfig.tagsLine(operation["tags"]) { pane.append(tags) }
            panes += pane
        }
        return try ImportedConfig.assemble(lines, panes: panes, variables: variables, skipped: skipped)
    }

    /// `servers[0]` (its variables at their defaults) or Swagger's `schemes`, `host` and
    /// `basePath`, as a base URL ending in `/`; a relative one against `source` when that is a URL.
    static func baseURL(_ document: JSON, source: String) -> String? {
        var url: String?
        if let server = document["servers"]?[0], var text = server["url"]?.stringValue {
            for (name, spec) in server["variables"]?.objectValue?.members ?? [] {
                text = text.replacing("{\(name)}", with: spec["default"]?.stringValue ?? "")
            }
            url = text
        } else if let host = document["host"]?.stringValue {
            let scheme = document["schemes"]?[0]?.stringValue ?? "https"
            url = "\(scheme)://\(host)\(document["basePath"]?.stringValue ?? "/")"
        }
        if url == nil || url?.hasPrefix("/") == true, let origin = URL(string: source), origin.scheme?.hasPrefix("http") == true {
            url = URL(string: url ?? "/", relativeTo: origin)?.absoluteString
        }
        guard var base = url, base.hasPrefix("http://") || base.hasPrefix("https://") else { return nil }
        if !base.hasSuffix("/") { base += "/" }
        return base
    }

    /// `show:` and its fields or columns, from the success response's schema.
    static func display(of responses: JSONObject, in document: JSON) -> [String] {
        guard let success = responses.members.first(where: { Int($0.key).map { (200..<300).contains($0) } ?? false })?.value else { return [] }
        let response = resolve(success, in: document)
        let content = response["content"]?.objectValue
        let json = content?.members.first { $0.key.contains("json") }?.value["schema"] ?? response["schema"]
        if json == nil, content?.members.contains(where: { $0.key.hasPrefix("text/") }) == true { return ["    show: text"] }
        guard let schemaNode = json else { return ["    show: json"] }
        let schema = resolve(schemaNode, in: document)
        if schema["type"]?.stringValue == "array", let items = schema["items"] {
            let columns = scalarProperties(of: resolve(items, in: document), in: document).prefix(4)
            if !columns.isEmpty { return ["    show: table", "    columns: [\(columns.map(pathText).joined(separator: ", "))]"] }
            return ["    show: json"]
        }
        // An object that wraps the list (`{ items: [...], page: 1 }`): the list, as a table.
        if let wrapped = schema["properties"]?.objectValue?.members.first(where: { resolve($0.value, in: document)["type"]?.stringValue == "array" }),
            let items = resolve(wrapped.value, in: document)["items"]
        {
            let columns = scalarProperties(of: resolve(items, in: document), in: document).prefix(4)
            if !columns.isEmpty {
                return ["    show: table", "    select: \(pathText(wrapped.key))", "    columns: [\(columns.map(pathText).joined(separator: ", "))]"]
            }
        }
        let fields = scalarProperties(of: schema, in: document).prefix(6)
        if !fields.isEmpty { return ["    show: fields", "    fields: [\(fields.map(pathText).joined(separator: ", "))]"] }
        return ["    show: json"]
    }

    static func scalarProperties(of schema: JSON, in document: JSON) -> [String] {
        (schema["properties"]?.objectValue?.members ?? []).compactMap { member in
            let type = resolve(member.value, in: document)["type"]?.stringValue
            return ["string", "integer", "number", "boolean"].contains(type ?? "") ? member.key : nil
        }
    }

    /// A `$ref` within the document followed (once deep), anything else as it is.
    static func resolve(_ node: JSON, in document: JSON) -> JSON {
        var current = node
        for _ in 0..<8 {
            guard case .string(let reference) = current["$ref"], reference.hasPrefix("#/") else { return current }
            var target: JSON? = document
            for token in reference.dropFirst(2).split(separator: "/") { target = target?[String(token)] }
            guard let found = target else { return current }
            current = found
        }
        return current
    }

    static func scalarText(_ value: JSON) -> String {
        switch value {
        case .string(let text): text
        case .int(let n): String(n)
        case .double(let n): JSON.format(n)
        case .bool(let b): b ? "true" : "false"
        default: value.description
        }
    }

    /// A path a config's `fields`/`columns` can name (`["odd key"]` when it must).
    static func pathText(_ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(key.first?.isNumber ?? true)
        return plain ? key : quoted("[" + quoted(key) + "]")
    }

    /// A tag as a config's tags may write it.
    static func tagName(_ text: String) -> String {
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.map { PaneSpec.isTagCharacter($0) ? $0 : "-" }))
        return String(kept.trimming(charactersIn: "-").prefix(40))
    }

    /// Text from the document, quoted for YAML with every `${` doubled: a document must never
    /// make Hammock read the environment (and send what it read to the API).
    static func quoted(_ text: String) -> String {
        raw(EnvironmentInterpolator.literal(text))
    }

    /// Hammock's own text (a `${VARIABLE}` it chose), quoted for YAML as it is.
    static func raw(_ text: String) -> String {
        JSON.string(text).description
    }
}
