extension Service {
    /// The methods `configureTransformer` applies to when none are given: all but HEAD and OPTIONS.
    public static let transformerMethods: [RequestMethod] = [.get, .put, .post, .patch, .delete]

    /// Configures a content transformer for URLs matching `pattern`, at `stage` (`.model` by default).
    ///
    /// By default it replaces whatever that stage had, applies to GET, PUT, POST, PATCH and DELETE,
    /// and fails the request when the content is not `In`.
    public func configureTransformer<In: Sendable, Out: Sendable>(
        _ pattern: any ConfigurationPatternConvertible,
        requestMethods: [RequestMethod]? = nil,
        atStage stage: PipelineStageKey = .model,
        action: PipelineStage.MutationAction = .replaceExisting,
        onInputTypeMismatch: ResponseContentTransformer<In, Out>.InputTypeMismatchAction = .error,
        transformErrors: Bool = false,
        description: String? = nil,
        contentTransform: @escaping ResponseContentTransformer<In, Out>.Processor
    ) {
        let transformer = ResponseContentTransformer(
            name: description, onInputTypeMismatch: onInputTypeMismatch, transformErrors: transformErrors,
            processor: contentTransform)
        configureTransformer(
            pattern, requestMethods: requestMethods, atStage: stage, action: action,
            description: description ?? "\(pattern.configurationPatternDescription) : \(In.self) → \(Out.self)",
            transformer: transformer)
    }

    /// Configures any `ResponseTransformer` for URLs matching `pattern`, at `stage`.
    public func configureTransformer(
        _ pattern: any ConfigurationPatternConvertible,
        requestMethods: [RequestMethod]? = nil,
        atStage stage: PipelineStageKey = .model,
        action: PipelineStage.MutationAction = .replaceExisting,
        description: String? = nil,
        transformer: any ResponseTransformer
    ) {
        configure(
            pattern, requestMethods: requestMethods ?? Service.transformerMethods,
            description: description ?? "\(pattern.configurationPatternDescription) : \(transformer.debugDescription)"
        ) {
            if action == .replaceExisting { $0.pipeline[stage].removeTransformers() }
            $0.pipeline[stage].add(transformer)
        }
    }
}
