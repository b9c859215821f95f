import FoundationEssentials
import Synchronization

/// Matches MIME types against patterns such as `*/json`, `text/*` and `*/*+json`.
///
/// `*` stands for one or more characters other than `/` and `+`; parameters after `;` are ignored;
/// matching ignores case. Unlike Siesta's matcher, every alternative is anchored at both ends.
public struct ContentTypeMatcher: Sendable, CustomStringConvertible {
    /// The patterns as given.
    public let patterns: [String]
    /// Each pattern as lower-case bytes: matching runs for every response, so no regex, no
    /// Foundation, no allocation beyond the content type's bytes.
    private let compiled: [[UInt8]]
    /// The last few content types asked about and the answers: a service's responses carry the
    /// same one or two, and each response is asked about once per gated pipeline stage.
    private let recent = RecentAnswers()

    /// A matcher for any of `patterns`.
    public init(_ patterns: [String]) {
        self.patterns = patterns
        compiled = patterns.map { Array($0.utf8).map(ContentTypeMatcher.lowercased) }
    }

    /// True if `contentType` matches any pattern; parameters after `;` and spaces before it are
    /// ignored.
    public func matches(_ contentType: String) -> Bool {
        if let known = recent.answer(for: contentType) { return known }
        let answer = match(contentType)
        recent.note(answer, for: contentType)
        return answer
    }

    private final class RecentAnswers: Sendable {
        private let answers = Mutex<[(contentType: String, matches: Bool)]>([])
        private static let capacity = 4

        func answer(for contentType: String) -> Bool? {
            answers.withLock { $0.first { $0.contentType == contentType }?.matches }
        }

        func note(_ answer: Bool, for contentType: String) {
            answers.withLock { answers in
                if answers.count == RecentAnswers.capacity { answers.removeFirst() }
                answers.append((contentType, answer))
            }
        }
    }

    private func match(_ contentType: String) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { utf8 in
            var end = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.count
            while end > 0, utf8[end - 1] == 0x20 || utf8[end - 1] == 0x09 || utf8[end - 1] == 0x0A || utf8[end - 1] == 0x0D { end -= 1 }
            let text = UnsafeBufferPointer(rebasing: utf8[..<end])
            for pattern in compiled {
                if pattern.withUnsafeBufferPointer({ ContentTypeMatcher.match($0, 0, text, 0) }) { return true }
            }
            return false
        }
    }

    /// `*` is one or more bytes other than `/` and `+`; every other byte stands for itself, the
    /// text's letters compared in lower case (the pattern is lower case already).
    private static func match(_ pattern: UnsafeBufferPointer<UInt8>, _ p: Int, _ text: UnsafeBufferPointer<UInt8>, _ t: Int) -> Bool {
        var p = p
        var t = t
        while p < pattern.count {
            let head = pattern[p]
            if head == UInt8(ascii: "*") {
                // Followed by `/`, `+` or nothing (every standard pattern), the star can only end
                // where its run of other bytes ends: no backtracking.
                if p + 1 == pattern.count || pattern[p + 1] == UInt8(ascii: "/") || pattern[p + 1] == UInt8(ascii: "+") {
                    var end = t
                    while end < text.count, text[end] != UInt8(ascii: "/"), text[end] != UInt8(ascii: "+") { end += 1 }
                    guard end > t else { return false }
                    p += 1
                    t = end
                    continue
                }
                var index = t
                while index < text.count, text[index] != UInt8(ascii: "/"), text[index] != UInt8(ascii: "+") {
                    index += 1
                    if match(pattern, p + 1, text, index) { return true }
                }
                return false
            }
            guard t < text.count, lowercased(text[t]) == head else { return false }
            p += 1
            t += 1
        }
        return t == text.count
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
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
        guard applies(to: response) else { return response }
        return wrapped.process(response)
    }

    /// In place: a response of another content type is left as it is, not copied.
    func transform(_ response: inout Response) {
        guard applies(to: response) else { return }
        wrapped.transform(&response)
    }

    private func applies(to response: Response) -> Bool {
        let contentType: String?
        switch response {
        case .success(let entity): contentType = entity.contentType
        case .failure(let error): contentType = error.entity?.contentType
        }
        guard let contentType else { return false }
        return matcher.matches(contentType)
    }

    var dependsOnContentAlone: Bool { wrapped.dependsOnContentAlone }

    var debugDescription: String { "\(wrapped.debugDescription) [\(matcher)]" }
}

extension PipelineStage {
    /// Appends a transformer that runs only for the given content types.
    public mutating func add(_ transformer: any ResponseTransformer, contentTypes: [String]) {
        add(ContentTypeGatedTransformer(matcher: ContentTypeMatcher(contentTypes), wrapped: transformer))
    }
}
