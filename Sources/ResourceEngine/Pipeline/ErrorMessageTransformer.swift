import FoundationEssentials
import TextBasics

/// `errorMessage: [PATH…]` — lifts a message out of an error body into `userMessage`.
///
/// Tries the given paths first, then what common APIs use: ServiceStack's `responseStatus.message`
/// (with its field `errors`, "Validation failed (Name: must not be empty)"), `message`, `error`
/// (a string, or an object with `message`), problem+json's `title`/`detail`, and `errors[0].message`.
/// Works on a parsed JSON body or on raw bytes that parse as JSON. Successes pass through.
public struct ErrorMessageTransformer: ResponseTransformer {
    /// The paths tried before the common ones, in order.
    public let paths: [JSONPath]

    /// A transformer that tries `paths` first.
    public init(paths: [JSONPath] = []) {
        self.paths = paths
    }

    /// Builds the transformer from path texts, failing on a path that does not parse.
    public init(pathTexts: [String]) throws {
        var parsed: [JSONPath] = []
        for text in pathTexts {
            do { parsed.append(try JSONPath(text)) } catch {
                throw Transformers.TransformerError(message: "errorMessage: \(error)")
            }
        }
        self.init(paths: parsed)
    }

    /// A success passes through untouched.
    public var dependsOnContentAlone: Bool { true }

    /// Sets a failure's `userMessage` from its body: the configured paths first, then the
    /// conventions above.
    public func process(_ response: Response) -> Response {
        guard case .failure(var error) = response, let body = error.entity.flatMap(Self.json(in:)) else {
            return response
        }
        if let message = message(in: body) {
            error.userMessage = message
        }
        return .failure(error)
    }

    /// The message `body` carries, by the configured paths then the known conventions.
    func message(in body: JSON) -> String? {
        for path in paths {
            if let found = describe(path.lookup(body)) {
                return withFieldErrors(found, near: path, in: body)
            }
        }
        if let status = body["responseStatus"], let message = nonEmpty(status["message"]?.stringValue) {
            return withFieldErrors(message, from: status)
        }
        if let message = nonEmpty(body["message"]?.stringValue) { return message }
        if let error = body["error"] {
            if let message = nonEmpty(error.stringValue) ?? nonEmpty(error["message"]?.stringValue) {
                return message
            }
        }
        let title = nonEmpty(body["title"]?.stringValue)
        let detail = nonEmpty(body["detail"]?.stringValue)
        switch (title, detail) {
        case let (title?, detail?): return title == detail ? title : "\(title): \(detail)"
        case let (title?, nil): return title
        case let (nil, detail?): return detail
        default: break
        }
        return nonEmpty(body["errors"]?[0]?["message"]?.stringValue)
    }

    private func describe(_ value: JSON?) -> String? {
        guard let value else { return nil }
        switch value {
        case .string(let s): return nonEmpty(s)
        case .int, .double, .bool: return (try? value.serialized()).flatMap { String(data: $0, encoding: .utf8) }
        default: return nil
        }
    }

    private func nonEmpty(_ s: String?) -> String? {
        guard let s = s?.trimmingWhitespaceAndNewlines(), !s.isEmpty else { return nil }
        return s
    }

    /// Appends field errors from an `errors` array beside the message, ServiceStack style.
    private func withFieldErrors(_ message: String, near path: JSONPath, in body: JSON) -> String {
        guard path.segments.count > 1 else { return withFieldErrors(message, from: body) }
        let parentPath = JSONPath(segments: Array(path.segments.dropLast()))
        guard let parent = parentPath.lookup(body) else { return message }
        return withFieldErrors(message, from: parent)
    }

    private func withFieldErrors(_ message: String, from container: JSON) -> String {
        guard let errors = container["errors"]?.arrayValue, !errors.isEmpty else { return message }
        let details = errors.compactMap { item -> String? in
            guard let text = nonEmpty(item["message"]?.stringValue) else { return nil }
            if let field = nonEmpty(item["fieldName"]?.stringValue ?? item["field"]?.stringValue) {
                return "\(field): \(text)"
            }
            return text
        }
        return details.isEmpty ? message : "\(message) (\(details.joined(separator: "; ")))"
    }

    private static func json(in entity: Entity) -> JSON? {
        switch entity.content {
        case let json as JSON: return json
        case let data as Data: return try? JSONParser.parse(data)
        case let text as String: return try? JSONParser.parse(text)
        default: return nil
        }
    }

    public var debugDescription: String {
        "errorMessage" + (paths.isEmpty ? "" : " [" + paths.map(\.text).joined(separator: ", ") + "]")
    }
}
