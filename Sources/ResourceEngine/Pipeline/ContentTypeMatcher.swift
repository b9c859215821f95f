import Foundation

/// Matches MIME types against patterns such as `*/json`, `text/*` and `*/*+json`.
///
/// `*` stands for one or more characters other than `/` and `+`; parameters after `;` are ignored;
/// matching ignores case. Unlike Siesta's matcher, every alternative is anchored at both ends.
public struct ContentTypeMatcher: Sendable, CustomStringConvertible {
    public let patterns: [String]
    private let regex: NSRegularExpression

    public init(_ patterns: [String]) {
        self.patterns = patterns
        let alternatives = patterns.map { pattern in
            NSRegularExpression.escapedPattern(for: pattern).replacingOccurrences(of: "\\*", with: "[^/+]+")
        }
        // Escaped literals plus a fixed wildcard always form a valid pattern.
        regex = try! NSRegularExpression(
            pattern: "^(?:" + alternatives.joined(separator: "|") + ")\\s*(?:$|;)", options: .caseInsensitive)
    }

    /// True if `contentType` matches any pattern.
    public func matches(_ contentType: String) -> Bool {
        regex.firstMatch(in: contentType, range: NSRange(contentType.startIndex..., in: contentType)) != nil
    }

    public var description: String { patterns.joined(separator: ", ") }
}

/// Runs a transformer only for responses whose content type matches; others pass through.
///
/// Looks at the success entity's content type, or the error body's for a failure, so error bodies
/// get parsed too. A failure without a body passes through.
struct ContentTypeGatedTransformer: ResponseTransformer {
    let matcher: ContentTypeMatcher
    let wrapped: any ResponseTransformer

    func process(_ response: Response) -> Response {
        let contentType: String?
        switch response {
        case .success(let entity): contentType = entity.contentType
        case .failure(let error): contentType = error.entity?.contentType
        }
        guard let contentType, matcher.matches(contentType) else { return response }
        return wrapped.process(response)
    }

    var debugDescription: String { "\(wrapped.debugDescription) [\(matcher)]" }
}

extension PipelineStage {
    /// Appends a transformer that runs only for the given content types.
    public mutating func add(_ transformer: any ResponseTransformer, contentTypes: [String]) {
        add(ContentTypeGatedTransformer(matcher: ContentTypeMatcher(contentTypes), wrapped: transformer))
    }
}
