import Foundation

/// Matches MIME types against patterns such as `*/json`, `text/*` and `*/*+json`.
///
/// `*` stands for one or more characters other than `/` and `+`; parameters after `;` are ignored;
/// matching ignores case. Unlike Siesta's matcher, every alternative is anchored at both ends.
public struct ContentTypeMatcher: Sendable, CustomStringConvertible {
    public let patterns: [String]
    /// Each pattern as lower-case bytes: matching runs for every response, so no regex, no
    /// Foundation, no allocation beyond the content type's bytes.
    private let compiled: [[UInt8]]

    public init(_ patterns: [String]) {
        self.patterns = patterns
        compiled = patterns.map { Array($0.utf8).map(ContentTypeMatcher.lowercased) }
    }

    /// True if `contentType` matches any pattern; parameters after `;` and spaces before it are
    /// ignored.
    public func matches(_ contentType: String) -> Bool {
        var bytes = Array(contentType.utf8.prefix { $0 != UInt8(ascii: ";") })
        while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { bytes.removeLast() }
        for index in bytes.indices { bytes[index] = ContentTypeMatcher.lowercased(bytes[index]) }
        return compiled.contains { ContentTypeMatcher.match($0[...], bytes[...]) }
    }

    /// `*` is one or more bytes other than `/` and `+`; every other byte stands for itself.
    private static func match(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        if head == UInt8(ascii: "*") {
            var index = text.startIndex
            while index < text.endIndex, text[index] != UInt8(ascii: "/"), text[index] != UInt8(ascii: "+") {
                index += 1
                if match(pattern.dropFirst(), text[index...]) { return true }
            }
            return false
        }
        guard text.first == head else { return false }
        return match(pattern.dropFirst(), text.dropFirst())
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
