import ResourceEngine

/// One step of a pipeline list, e.g. `json`, `{ select: items }`, `{ regex: "(\\d+)", contentTypes: [text/*] }`.
public struct TransformerSpec: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case json, ndjson, text, lines, count, base64
        case select(String)
        case regex(String)
        case limit(Int)
        case sort(String)
        case errorMessage([String])
        /// `{ schema: orders.schema.json }`: the file as written, and its schema, read at load.
        case schema(String, JSONSchemaBox)
    }

    /// A schema in a spec: equal when read from the same file text.
    public struct JSONSchemaBox: Sendable, Equatable {
        public let schema: JSONSchema
        let source: JSON

        public init(_ schema: JSONSchema, source: JSON) {
            self.schema = schema
            self.source = source
        }

        public static func == (a: JSONSchemaBox, b: JSONSchemaBox) -> Bool { a.source == b.source }
    }

    /// Names a pipeline list may use.
    public static let names = ["json", "ndjson", "text", "select", "lines", "regex", "count", "limit", "sort", "errorMessage", "base64", "schema"]

    public var kind: Kind
    public var contentTypes: [String]?
    public var transformErrors: Bool

    /// Builds the transformer; throws with a message for a bad argument (invalid regex or path).
    public func makeTransformer() throws -> any ResponseTransformer {
        let built: any ResponseTransformer
        switch kind {
        case .json: built = Transformers.json(transformErrors: transformErrors)
        case .ndjson: built = Transformers.ndjson(transformErrors: transformErrors)
        case .text: built = Transformers.text(transformErrors: transformErrors)
        case .lines: built = Transformers.lines(transformErrors: transformErrors)
        case .count: built = Transformers.count(transformErrors: transformErrors)
        case .base64: built = Transformers.base64(transformErrors: transformErrors)
        case .select(let path): built = try Transformers.select(path, transformErrors: transformErrors)
        case .regex(let pattern): built = try Transformers.regex(pattern, transformErrors: transformErrors)
        case .limit(let n): built = try Transformers.limit(n, transformErrors: transformErrors)
        case .sort(let path): built = try Transformers.sort(by: path, transformErrors: transformErrors)
        case .errorMessage(let paths): built = try ErrorMessageTransformer(pathTexts: paths)
        case .schema(let file, let box): built = Transformers.schema(box.schema, named: file, transformErrors: transformErrors)
        }
        guard let contentTypes else { return built }
        var stage = PipelineStage()
        stage.add(built, contentTypes: contentTypes)
        return stage.transformers[0]
    }
}
