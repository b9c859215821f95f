/// The transformers of one pipeline stage, run in the order added.
public struct PipelineStage: Sendable {
    /// What to do with the transformers already in a stage when adding more.
    public enum MutationAction: Sendable {
        /// The new transformers take the place of those there.
        case replaceExisting
        /// The new transformers run after those there.
        case appendToExisting
    }

    /// The transformers, in run order.
    public private(set) var transformers: [any ResponseTransformer] = []

    /// A stage with no transformers.
    public init() {}

    /// Appends a transformer.
    public mutating func add(_ transformer: any ResponseTransformer) {
        transformers.append(transformer)
    }

    /// Removes every transformer from the stage.
    public mutating func removeTransformers() {
        transformers.removeAll()
    }

    /// Runs the stage's transformers over `response`, in place.
    func transform(_ response: inout Response) {
        for transformer in transformers { transformer.transform(&response) }
    }
}
