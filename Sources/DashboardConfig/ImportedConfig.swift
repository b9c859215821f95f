import ResourceEngine

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

extension ImportedConfig {
    /// A pane's `tags:` line from a document's tags (cleaned to what a tag may hold), or nil.
    static func tagsLine(_ tags: JSON?) -> String? {
        let names = (tags?.arrayValue ?? []).compactMap(\.stringValue).map(OpenAPIImport.tagName).filter { !$0.isEmpty }
        return names.isEmpty ? nil : "    tags: [\(Array(Set(names)).sorted().map(OpenAPIImport.quoted).joined(separator: ", "))]"
    }

    /// The config of `head` (title, service…) and `panes`, or why there is none when no
    /// operation became a pane (`skipped` says why each was left out).
    static func assemble(_ head: [String], panes: [String], variables: [String], skipped: [String]) throws(ImportProblem) -> ImportedConfig {
        guard !panes.isEmpty else {
            throw ImportProblem(message: "no GET operation Hammock can call without values it cannot know" + (skipped.isEmpty ? "" : ": " + skipped.joined(separator: "; ")))
        }
        return ImportedConfig(yaml: (head + ["panes:"] + panes).joined(separator: "\n") + "\n", variables: variables, leftOut: skipped)
    }
}
