/// The staged transformation every response goes through before it reaches a resource.
///
/// Stages run in `order`; a stage with transformers that is missing from `order` does not run.
/// Runs off the main actor, once per response, however many observers and hooks there are.
public struct Pipeline: Sendable {
    /// The stages in run order. Each key may appear once.
    public var order: [PipelineStageKey] = [.rawData, .decoding, .parsing, .model, .cleanup] {
        didSet {
            precondition(Set(order).count == order.count, "Pipeline.order has duplicate stages: \(order)")
            plan()
        }
    }

    private var stages: [PipelineStageKey: PipelineStage] = [:] {
        didSet { plan() }
    }

    /// The stages `process` runs, in order (those with transformers), and the stages with
    /// transformers that `order` leaves out: worked out when the pipeline changes, not per response.
    private var runs: [PipelineStage] = []
    private var skipped: [PipelineStageKey] = []

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
    public var isEmpty: Bool { runs.isEmpty }

    /// Runs every stage in order.
    public func process(_ response: Response) -> Response {
        for key in skipped {
            EngineLog.log(.pipeline, "stage \(key) has transformers but is not in the pipeline order; skipped")
        }
        var response = response
        for stage in runs { stage.transform(&response) }
        return response
    }

    private mutating func plan() {
        runs = order.compactMap { stages[$0] }.filter { !$0.transformers.isEmpty }
        skipped = stages.filter { !order.contains($0.key) && !$0.value.transformers.isEmpty }.map(\.key)
    }
}
