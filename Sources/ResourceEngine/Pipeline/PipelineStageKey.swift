/// Names a stage of the response pipeline. An open set: compare by identity, add your own.
///
/// The built-in stages run in the order `rawData → decoding → parsing → model → cleanup`.
public final class PipelineStageKey: Sendable, Hashable, CustomStringConvertible {
    public let description: String

    /// Creates a new, distinct stage key.
    public init(description: String) {
        self.description = description
    }

    public static func == (lhs: PipelineStageKey, rhs: PipelineStageKey) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Raw bytes, before anything else (e.g. decompression, size checks).
    public static let rawData = PipelineStageKey(description: "rawData")
    /// Bytes to bytes decoding (e.g. base64).
    public static let decoding = PipelineStageKey(description: "decoding")
    /// Bytes to structure: where the standard JSON and text parsers live.
    public static let parsing = PipelineStageKey(description: "parsing")
    /// Structure to the app's model (e.g. `select`).
    public static let model = PipelineStageKey(description: "model")
    /// Last touches, e.g. better error messages.
    public static let cleanup = PipelineStageKey(description: "cleanup")
}
