import FoundationEssentials
import ResourceEngine

/// The `pipeline:` of a configure block or pane: stages and their transformers.
extension ConfigLoader {
    static func readPipeline(_ node: YAMLNode, reader: inout NodeReader) -> [StageSpec] {
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
            case .scalar where entry.value.isNull:
                break
            default:
                reader.problem(at: entry.value, "pipeline.\(entry.key) must be a list of transformers, not \(reader.describe(entry.value))")
            }
            stages.append(StageSpec(stage: stage, transformers: transformers))
        }
        return stages
    }

    static func readTransformer(_ node: YAMLNode, reader: inout NodeReader) -> TransformerSpec? {
        var name: String
        var argument: YAMLNode?
        var argumentNode: YAMLNode = node
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
        func requireArgument(_ what: String) -> YAMLNode? {
            guard let argument, !argument.isNull || argument.scalar?.style != .plain else {
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
        case "schema":
            guard let arg = requireArgument("a JSON Schema file"), let file = reader.string(arg, "schema") else { return nil }
            guard let box = readSchema(file, at: arg, reader: &reader) else { return nil }
            spec.kind = .schema(file, box)
        case "errorMessage":
            var paths: [String] = []
            if let argument, !(argument.isNull && argument.scalar?.style == .plain) {
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

    /// The JSON Schema in `file` (relative to the config's folder), or nil after a problem.
    static func readSchema(_ file: String, at node: YAMLNode, reader: inout NodeReader) -> TransformerSpec.JSONSchemaBox? {
        let path = reader.interpolator.resolve(file)
        let data: Data
        switch read(path, limit: 4 << 20, what: "schema file") {
        case .success(let contents): data = contents
        case .failure(let reason):
            reader.problem(at: node, "schema: \(reason.message)")
            return nil
        }
        let json: JSON
        do { json = try JSONParser.parse(data) } catch {
            reader.problem(at: node, "schema: \(file) is not JSON: \(error)")
            return nil
        }
        do {
            return TransformerSpec.JSONSchemaBox(try JSONSchema(json), source: json)
        } catch {
            reader.problem(at: node, "schema: \(file): \(error.message)")
            return nil
        }
    }

    static func example(for name: String) -> String {
        switch name {
        case "select": "items[0].name"
        case "regex": "\"version (\\\\S+)\""
        case "limit": "10"
        case "sort": "-total"
        case "schema": "orders.schema.json"
        default: "…"
        }
    }
}
