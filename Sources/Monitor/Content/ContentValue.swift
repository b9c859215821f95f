import ResourceEngine

/// A content that can be compared cheaply and diffed: JSON or text, cast from the entity's
/// content once.
enum ContentValue {
    case json(JSON), text(String)

    init?(_ content: any Sendable) {
        switch content {
        case let json as JSON: self = .json(json)
        case let text as String: self = .text(text)
        default: return nil
        }
    }

    var value: any Sendable {
        switch self {
        case .json(let json): json
        case .text(let text): text
        }
    }

    /// The very content this was (the pipeline hands a byte-identical body the content it made
    /// before; see `JSON.isIdentical(to:)`).
    func isIdentical(to content: any Sendable) -> Bool {
        switch self {
        case .json(let json): (content as? JSON).map(json.isIdentical(to:)) ?? false
        case .text(let text): (content as? String) == text
        }
    }

    /// The same, for a content already cast.
    func isSame(as other: ContentValue) -> Bool {
        switch (self, other) {
        case (.json(let a), .json(let b)): a.isIdentical(to: b)
        case (.text(let a), .text(let b)): a == b
        default: false
        }
    }
}
