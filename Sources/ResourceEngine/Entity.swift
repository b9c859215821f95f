import FoundationEssentials
import Glibc
import TextBasics

/// A response body with its metadata: the unit of data a resource holds.
///
/// Network responses start with `Data` content; the pipeline replaces `content` with parsed values
/// (a `JSON`, a `String`, a model) while keeping headers, charset and timestamp. Header keys are
/// stored lower-cased so lookups ignore case.
public struct Entity: Sendable {
    /// The body, raw or transformed.
    public var content: any Sendable {
        get { storage.value.content }
        _modify { yield &storage.value.content }
    }

    /// Response headers, keys lower-cased.
    public var headers: [String: String] {
        get { storage.value.headers }
        set {
            let (lowered, facts) = Entity.lowercased(newValue)
            storage.value.headers = lowered
            storage.value.contentTypeHeader = facts.contentType
            storage.value.hasValidators = facts.hasValidators
        }
    }

    /// The charset named by the response, if any.
    public var charset: String? {
        get { storage.value.charset }
        _modify { yield &storage.value.charset }
    }

    /// When this data was received (or last confirmed by a 304), on the service's clock.
    public var timestamp: TimeInterval {
        get { storage.value.timestamp }
        _modify { yield &storage.value.timestamp }
    }

    /// The parts, shared between copies until one changes: an entity is copied many times on its
    /// way from the transfer to the observers (pipeline stages, the resource, hooks, the cache),
    /// and each copy of the parts themselves retained the content, the headers and two strings.
    private struct Fields {
        var content: any Sendable
        var headers: [String: String]
        /// `headers["content-type"]`, kept: every content-type gate of the pipeline asks for it.
        var contentTypeHeader: String?
        /// An `etag` or `last-modified` header is among `headers` (every load asks for both).
        var hasValidators: Bool
        var charset: String?
        var timestamp: TimeInterval
    }

    private var storage: CopyOnWrite<Fields>

    /// Creates an entity from explicit parts.
    ///
    /// Without a timestamp the entity is stamped now on the system clock, as in Siesta; a service
    /// with an injected clock should pass `service.clock.now`.
    public init(
        content: any Sendable,
        contentType: String? = nil,
        charset: String? = nil,
        headers: [String: String] = [:],
        timestamp: TimeInterval? = nil
    ) {
        var (lowered, facts) = Entity.lowercased(headers)
        if let contentType {
            lowered["content-type"] = contentType
            facts.contentType = contentType
        }
        storage = CopyOnWrite(Fields(
            content: content, headers: lowered, contentTypeHeader: facts.contentType, hasValidators: facts.hasValidators,
            charset: charset ?? Entity.charset(in: facts.contentType), timestamp: timestamp ?? SystemClock().now))
    }

    /// Creates an entity from an HTTP response head and its body.
    public init(response: HTTPResponseHead?, content: any Sendable, timestamp: TimeInterval) {
        self.init(content: content, headers: response?.headers ?? [:], timestamp: timestamp)
    }

    /// The `Content-Type` header with its parameters, or `application/octet-stream`.
    public var contentType: String {
        storage.value.contentTypeHeader ?? "application/octet-stream"
    }

    /// The `Content-Type` header as the response sent it, or nil.
    var contentTypeHeader: String? { storage.value.contentTypeHeader }

    /// The `ETag` header, which `load()` sends back as `If-None-Match`.
    public var etag: String? { storage.value.hasValidators ? headers["etag"] : nil }

    /// The `Last-Modified` header, which `load()` sends back as `If-Modified-Since`.
    public var lastModified: String? { storage.value.hasValidators ? headers["last-modified"] : nil }

    /// A header by name, ignoring case.
    public func header(forKey key: String) -> String? {
        headers[key.lowercased()]
    }

    /// Marks the entity as confirmed fresh at `now`.
    public mutating func touch(_ now: TimeInterval) {
        timestamp = now
    }

    /// The content cast to `T`, or nil.
    public func typedContent<T>(as type: T.Type = T.self) -> T? {
        content as? T
    }

    /// What one pass over the header names finds, so no name is hashed to look it up again.
    private struct HeaderFacts {
        var contentType: String?
        var hasValidators = false
    }

    /// The headers with lower-cased names (themselves when they already are, as a transport's
    /// are), and what they say of the content type and validators.
    private static func lowercased(_ headers: [String: String]) -> ([String: String], HeaderFacts) {
        var facts = HeaderFacts()
        var allLowercased = true
        for (key, value) in headers {
            switch kind(of: key) {
            case .notLowercased: allLowercased = false
            case .contentType: facts.contentType = value
            case .validator: facts.hasValidators = true
            case .other: break
            }
        }
        guard !allLowercased else { return (headers, facts) }
        var result: [String: String] = [:]
        for (key, value) in headers { result[key.lowercased()] = value }
        return (result, HeaderFacts(contentType: result["content-type"], hasValidators: result["etag"] != nil || result["last-modified"] != nil))
    }

    private enum NameKind {
        case notLowercased, contentType, validator, other
    }

    /// Whether `key` has an upper-case letter, else whether it is one of the names an entity
    /// keeps facts of; ASCII checked byte by byte, only other text through `lowercased()` (this
    /// runs for every header of every response).
    private static func kind(of key: String) -> NameKind {
        let ascii = key.utf8.withContiguousStorageIfAvailable { bytes -> NameKind? in
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte >= 0x41, byte <= 0x5A { return .notLowercased }
            }
            if equals(bytes, "content-type") { return .contentType }
            return equals(bytes, "etag") || equals(bytes, "last-modified") ? .validator : .other
        }
        if let ascii, let ascii { return ascii }
        return key == key.lowercased() ? .other : .notLowercased
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        bytes.count == name.utf8CodeUnitCount && memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
    }

    static func charset(in contentType: String?) -> String? {
        // Most content types have no parameters: no splitting (by grapheme) for those.
        guard let contentType,
            contentType.utf8.withContiguousStorageIfAvailable({ bytes in bytes.baseAddress.map { memchr($0, 0x3B, bytes.count) != nil } ?? false })
                ?? contentType.contains(";")
        else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                parts[0].trimmingWhitespace().lowercased() == "charset"
            else { continue }
            return parts[1].trimmingWhitespace()
                .trimming(charactersIn: "\"").lowercased()
        }
        return nil
    }
}
