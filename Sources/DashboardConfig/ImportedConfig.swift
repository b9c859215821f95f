/// A config made from something else (`hammock init --from`, `--from-curl`): the text, what
/// the user must set before running it, and what was seen but left out.
public struct ImportedConfig: Sendable, Equatable {
    /// The config, ready to check.
    public let yaml: String
    /// The variables it reads in place of credentials (and of a server the source does not name).
    public let variables: [String]
    /// What was left out, each said in a few words (an option, an operation and why).
    public let leftOut: [String]
}

/// Why something cannot become a config.
public struct ImportProblem: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    public var description: String { message }
}
