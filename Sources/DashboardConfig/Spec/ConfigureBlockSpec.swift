import FoundationEssentials
import ResourceEngine

/// One `configure:` block: a URL pattern, optional methods, and what to set for matching requests.
public struct ConfigureBlockSpec: Sendable {
    /// The glob; absolute when the block names a service (its path under the base URL).
    public var pattern: String
    /// The named service the pattern is under, and the pattern as written (a path under its base).
    public var service: String?
    public var writtenPattern: String?
    public var methods: [RequestMethod]?
    public var expiration: TimeInterval?
    public var retry: TimeInterval?
    public var timeout: TimeInterval?
    public var headers: [HeaderSpec]
    /// Stages the block sets, in file order; each replaces that stage's transformers.
    public var pipeline: [StageSpec]
    /// Where the block starts in the file, for messages.
    public var line: Int

    /// True when the block applies to requests with `method` (every method when it names none).
    public func applies(to method: RequestMethod) -> Bool { methods?.contains(method) ?? true }
}

/// The transformers a block puts at one stage (an empty list clears the stage).
public struct StageSpec: Sendable {
    public var stage: StageName
    public var transformers: [TransformerSpec]
}

/// The pipeline stages a config file may name.
public enum StageName: String, CaseIterable, Sendable {
    case rawData, decoding, parsing, model, cleanup

    public var key: PipelineStageKey {
        switch self {
        case .rawData: .rawData
        case .decoding: .decoding
        case .parsing: .parsing
        case .model: .model
        case .cleanup: .cleanup
        }
    }
}
