import FoundationEssentials

/// The staged transformation every response goes through before it reaches a resource.
///
/// Stages run in `order`; a stage with transformers that is missing from `order` does not run.
/// Runs off the main actor, once per response, however many observers and hooks there are.
public struct Pipeline: Sendable {
    /// The stages in run order. Each key may appear once.
    public var order: [PipelineStageKey] {
        get { parts.value.order }
        set {
            precondition(Set(newValue).count == newValue.count, "Pipeline.order has duplicate stages: \(newValue)")
            parts.value.order = newValue
            parts.value.replan()
        }
    }

    private var stages: [PipelineStageKey: PipelineStage] {
        get { parts.value.stages }
        set {
            parts.value.stages = newValue
            parts.value.replan()
        }
    }

    /// The order, the stages and their plan behind one reference: a request copies its
    /// configuration's pipeline several times.
    private var parts = CopyOnWrite(Parts())

    private struct Parts: Sendable {
        var order: [PipelineStageKey] = [.rawData, .decoding, .parsing, .model, .cleanup]
        var stages: [PipelineStageKey: PipelineStage] = [:]
        var plan = Plan(runs: [], skipped: [], remembersAnswers: false)

        mutating func replan() {
            let runs = order.compactMap { stages[$0] }.filter { !$0.transformers.isEmpty }
            plan = Plan(
                runs: runs,
                skipped: stages.filter { !order.contains($0.key) && !$0.value.transformers.isEmpty }.map(\.key),
                remembersAnswers: runs.allSatisfy { $0.transformers.allSatisfy(\.dependsOnContentAlone) })
        }
    }

    /// What `process` does, worked out when the pipeline changes, not per response: the stages it
    /// runs, in order (those with transformers), and the stages with transformers that `order`
    /// leaves out. Made anew with every change, it is also the pipeline's identity: a remembered
    /// answer (`PipelineMemo`) is reused only by the very pipeline that gave it.
    final class Plan: Sendable {
        let runs: [PipelineStage]
        let skipped: [PipelineStageKey]
        /// True when every transformer that runs depends on a success's content alone
        /// (`ResponseTransformer.dependsOnContentAlone`): its answers may be remembered.
        let remembersAnswers: Bool

        init(runs: [PipelineStage], skipped: [PipelineStageKey], remembersAnswers: Bool) {
            self.runs = runs
            self.skipped = skipped
            self.remembersAnswers = remembersAnswers
        }
    }

    /// A pipeline with every stage empty.
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
    public var isEmpty: Bool { parts.value.plan.runs.isEmpty }

    /// Runs every stage in order.
    public func process(_ response: Response) -> Response {
        logSkippedStages()
        var response = response
        for stage in parts.value.plan.runs { stage.transform(&response) }
        return response
    }

    /// Bodies up to this size are remembered with what the pipeline made of them.
    static let memoLimit = 4 << 10

    /// Runs the pipeline, or, for a success whose body, content type and charset are those of
    /// `memo` (the last answer this pipeline gave the resource), takes the content it made then:
    /// a monitored endpoint mostly answers the same bytes, and transformers that depend on the
    /// content alone make the same content of them. Returns the memo to keep for the next answer
    /// when there is a new one.
    func process(_ response: Response, reusing memo: PipelineMemo?) -> (response: Response, memo: PipelineMemo?) {
        let plan = parts.value.plan
        guard plan.remembersAnswers, case .success(var entity) = response, let body = entity.content as? Data, body.count <= Self.memoLimit else {
            return (process(response), nil)
        }
        let contentType = entity.contentTypeHeader
        let charset = entity.charset
        if let memo, memo.plan === plan, memo.contentType == contentType, memo.charset == charset, memo.body == body {
            logSkippedStages()
            entity.content = memo.content
            return (.success(entity), nil)
        }
        let processed = process(response)
        guard case .success(let result) = processed else { return (processed, nil) }
        return (processed, PipelineMemo(plan: plan, contentType: contentType, charset: charset, body: body, content: result.content))
    }

    private func logSkippedStages() {
        for key in parts.value.plan.skipped {
            EngineLog.log(.pipeline, "stage \(key) has transformers but is not in the pipeline order; skipped")
        }
    }
}

/// What a pipeline made of a success's body, kept by the resource for its next answer
/// (`Pipeline.process(_:reusing:)`). A class: it is handed from the main actor to the transfer
/// and back with every request, one retain each time.
final class PipelineMemo: Sendable {
    let plan: Pipeline.Plan
    let contentType: String?
    let charset: String?
    let body: Data
    let content: any Sendable

    init(plan: Pipeline.Plan, contentType: String?, charset: String?, body: Data, content: any Sendable) {
        self.plan = plan
        self.contentType = contentType
        self.charset = charset
        self.body = body
        self.content = content
    }
}
