import FoundationEssentials
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
            let lowered = Entity.lowercased(newValue)
            storage.value.headers = lowered
            storage.value.contentTypeHeader = lowered["content-type"]
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
        var lowered = Entity.lowercased(headers)
        if let contentType { lowered["content-type"] = contentType }
        storage = CopyOnWrite(Fields(
            content: content, headers: lowered, contentTypeHeader: lowered["content-type"],
            charset: charset ?? Entity.charset(in: lowered["content-type"]), timestamp: timestamp ?? SystemClock().now))
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
    public var etag: String? { headers["etag"] }

    /// The `Last-Modified` header, which `load()` sends back as `If-Modified-Since`.
    public var lastModified: String? { headers["last-modified"] }

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

    private static func lowercased(_ headers: [String: String]) -> [String: String] {
        guard headers.keys.contains(where: { !isLowercased($0) }) else { return headers }
        var result: [String: String] = [:]
        for (key, value) in headers { result[key.lowercased()] = value }
        return result
    }

    /// True if `key` has no upper-case letter; ASCII checked byte by byte, only other text through
    /// `lowercased()` (this runs for every header of every response).
    private static func isLowercased(_ key: String) -> Bool {
        let ascii = key.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte >= 0x41, byte <= 0x5A { return false }
            }
            return true
        }
        if let ascii, let ascii { return ascii }
        return key == key.lowercased()
    }

    static func charset(in contentType: String?) -> String? {
        // Most content types have no parameters: no splitting (by grapheme) for those.
        guard let contentType, contentType.utf8.contains(UInt8(ascii: ";")) else { return nil }
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
