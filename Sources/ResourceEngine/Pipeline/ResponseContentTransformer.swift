/// A transformer that replaces an entity's content, typed: `In` content in, `Out` content out.
///
/// Headers, charset and timestamp are kept. Content of another type than `In` is a failed request
/// naming both types (or passes through, per `onInputTypeMismatch`). Returning nil fails the
/// request; a thrown `RequestError` fails it as is; any other thrown error fails it with the
/// error's description as the message, so throw errors whose description reads well on screen. With `transformErrors`, error bodies are transformed too
/// (a failure to do so leaves the error body as it was).
public struct ResponseContentTransformer<In: Sendable, Out: Sendable>: ResponseTransformer {
    /// What to do with content that is not `In`.
    public enum InputTypeMismatchAction: Sendable {
        /// Fail the request.
        case error
        /// Pass the response through unchanged.
        case skip
        /// Pass through if the content is already `Out`, else fail.
        case skipIfOutputTypeMatches
    }

    /// The processor: content and its entity in, new content (or nil for "no value") out.
    public typealias Processor = @Sendable (_ content: In, _ entity: Entity) throws -> Out?

    /// How logs and errors name it.
    public let name: String
    /// What happens to content of another type than `In`.
    public let onInputTypeMismatch: InputTypeMismatchAction
    /// Whether error bodies are transformed too.
    public let transformErrors: Bool
    /// Whether the processor's answer depends on the content, its content type and charset
    /// alone (see `ResponseTransformer`); the built-in parsers and transformers do.
    public let dependsOnContentAlone: Bool
    /// The work on one entity, made in `init`: where the transformer is made with concrete types
    /// this closure is specialised for them. Run through the `ResponseTransformer` witness, generic
    /// code looked up the metadata of `In?` and `Out?` for every response (~1k instructions each).
    private let processEntity: @Sendable (Entity) -> Response

    /// A transformer that runs `processor` on each entity whose content is an `In`.
    ///
    /// - Parameters:
    ///   - name: for debugging output; `In → Out` by default.
    ///   - onInputTypeMismatch: what to do with content of another type.
    ///   - transformErrors: whether failures' entities are transformed too.
    ///   - dependsOnContentAlone: whether the answer depends on the content alone (see `ResponseTransformer`).
    ///   - processor: the work on one entity's content.
    public init(
        name: String? = nil,
        onInputTypeMismatch: InputTypeMismatchAction = .error,
        transformErrors: Bool = false,
        dependsOnContentAlone: Bool = false,
        processor: @escaping Processor
    ) {
        self.name = name ?? "\(In.self) → \(Out.self)"
        self.onInputTypeMismatch = onInputTypeMismatch
        self.transformErrors = transformErrors
        self.dependsOnContentAlone = dependsOnContentAlone
        let name = self.name
        self.processEntity = { entity in
            Self.process(entity, name: name, onInputTypeMismatch: onInputTypeMismatch, processor: processor)
        }
    }

    /// Transforms a success's entity (and a failure's, with `transformErrors`).
    public func process(_ response: Response) -> Response {
        switch response {
        case .success(let entity):
            return processEntity(entity)
        case .failure(var error):
            guard transformErrors, let body = error.entity else { return response }
            switch processEntity(body) {
            case .success(let transformed): error.entity = transformed
            case .failure(let transformError):
                EngineLog.log(.pipeline, "\(name) could not transform an error body: \(transformError.userMessage)")
            }
            return .failure(error)
        }
    }

    private static func process(
        _ entity: Entity, name: String, onInputTypeMismatch: InputTypeMismatchAction, processor: Processor
    ) -> Response {
        guard let content = entity.content as? In else {
            switch onInputTypeMismatch {
            case .skip:
                return .success(entity)
            case .skipIfOutputTypeMatches where entity.content is Out:
                return .success(entity)
            default:
                let cause = RequestError.Cause.WrongInputTypeInTransformerPipeline(
                    expectedType: ContentTypeName.of(In.self), actualType: ContentTypeName.of(entity.content),
                    transformer: name)
                return .failure(RequestError(userMessage: cause.description, cause: cause, entity: entity))
            }
        }
        do {
            guard let output = try processor(content, entity) else {
                let cause = RequestError.Cause.TransformerReturnedNil(transformer: name)
                return .failure(RequestError(userMessage: cause.description, cause: cause, entity: entity))
            }
            var result = entity
            result.content = output
            return .success(result)
        } catch let error as RequestError {
            return .failure(error)
        } catch {
            let message = String(describing: error)
            return .failure(RequestError(userMessage: message, cause: error, entity: entity))
        }
    }

    public var debugDescription: String { name }
}

/// Readable names for content types in error messages ("JSON", "text", "bytes").
enum ContentTypeName {
    static func of(_ type: Any.Type) -> String {
        switch type {
        case is JSON.Type: "JSON"
        case is String.Type: "text"
        case is [UInt8].Type, is Data.Type: "bytes"
        default: "\(type)"
        }
    }

    static func of(_ value: any Sendable) -> String {
        switch value {
        case let json as JSON: json.isNull ? "JSON null" : "JSON \(json.kindName)"
        default: of(type(of: value))
        }
    }
}

import FoundationEssentials
