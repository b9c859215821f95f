/// The staged transformation every response goes through before it reaches a resource.
///
/// Stages run in `order`; a stage with transformers that is missing from `order` does not run.
/// Runs off the main actor, once per response, however many observers and hooks there are.
public struct Pipeline: Sendable {
    /// The stages in run order. Each key may appear once.
    public var order: [PipelineStageKey] = [.rawData, .decoding, .parsing, .model, .cleanup] {
        didSet {
            precondition(Set(order).count == order.count, "Pipeline.order has duplicate stages: \(order)")
        }
    }

    private var stages: [PipelineStageKey: PipelineStage] = [:]

    public init() {}

    /// The stage for `key`; an empty stage if none was configured.
    public subscript(key: PipelineStageKey) -> PipelineStage {
        get { stages[key] ?? PipelineStage() }
        set { stages[key] = newValue }
    }

    /// Removes every transformer from every stage; the order and each stage's cache stay.
    public mutating func removeAllTransformers() {
        for key in stages.keys { stages[key]?.removeTransformers() }
    }

    /// Siesta's name for `removeAllTransformers()`: the usual first step of a pipeline built from scratch.
    public mutating func clear() {
        removeAllTransformers()
    }

    /// True if no stage in `order` has a transformer.
    public var isEmpty: Bool {
        order.allSatisfy { self[$0].transformers.isEmpty }
    }

    /// Runs every stage in order.
    public func process(_ response: Response) -> Response {
        for key in stages.keys where !order.contains(key) && !(stages[key]?.transformers.isEmpty ?? true) {
            EngineLog.log(.pipeline, "stage \(key) has transformers but is not in the pipeline order; skipped")
        }
        return order.reduce(response) { response, key in
            guard let stage = stages[key], !stage.transformers.isEmpty else { return response }
            return stage.process(response)
        }
    }
}
