import FoundationEssentials

/// A parser the service registers for every URL at the `parsing` stage, gated by content type.
///
/// `.json` parses `*/json` and `*/*+json` into `JSON`; `.ndjson` newline-delimited JSON into a
/// `JSON` list; `.text` decodes `text/*` and XML (`application/xml`, `*/*+xml`: text unless a
/// transformer says otherwise) into `String`, honouring the charset (UTF-8 when none is named).
/// All also parse error bodies.
public struct StandardTransformer: Sendable {
    /// The parser's name in the configuration's description ("json").
    public let name: String
    /// The content types it parses (patterns as `ContentTypeMatcher` reads them).
    public let contentTypes: [String]
    /// The parser itself.
    public let transformer: any ResponseTransformer

    /// JSON bodies into `JSON`.
    public static let json = StandardTransformer(
        name: "json", contentTypes: ["*/json", "*/*+json"], transformer: Parsers.json(transformErrors: true))

    /// Newline-delimited JSON (`application/x-ndjson`, `application/jsonl`…) into a `JSON` list,
    /// one value per non-blank line.
    public static let ndjson = StandardTransformer(
        name: "ndjson", contentTypes: ["*/x-ndjson", "*/ndjson", "*/jsonl", "*/x-jsonl", "*/jsonlines", "*/x-jsonlines"],
        transformer: Parsers.ndjson(transformErrors: true))

    /// Text bodies into `String`. Leaves content alone that the JSON parser already parsed
    /// (`text/json` matches both).
    public static let text = StandardTransformer(
        name: "text", contentTypes: ["text/*", "*/xml", "*/*+xml"], transformer: UnlessParsedAsJSON(wrapped: Parsers.text(transformErrors: true)))
}

/// Passes responses through whose content (or error body) is already JSON.
struct UnlessParsedAsJSON: ResponseTransformer {
    let wrapped: any ResponseTransformer

    func process(_ response: Response) -> Response {
        switch response {
        case .success(let entity) where entity.content is JSON: response
        case .failure(let error) where error.entity?.content is JSON: response
        default: wrapped.process(response)
        }
    }

    var dependsOnContentAlone: Bool { wrapped.dependsOnContentAlone }

    var debugDescription: String { wrapped.debugDescription }
}

/// The parsers behind the standard transformers, also available by name in pipelines.
public enum Parsers {
    /// `Data` → `JSON`, in UTF-8, UTF-16 or UTF-32 (named by the charset, or detected as RFC 4627
    /// and Siesta's parser do). Errors name the position: "Invalid JSON: … at line 3, column 7".
    /// An empty body (a 204, a HEAD-like answer) is `null`, not an error. As in Siesta, content an
    /// earlier stage already turned into something else (even JSON) fails as a wrong input type.
    public static func json(transformErrors: Bool = false) -> ResponseContentTransformer<Data, JSON> {
        ResponseContentTransformer(name: "json", transformErrors: transformErrors, dependsOnContentAlone: true) {
            data, entity in try parseJSON(data, charset: entity.charset)
        }
    }

    /// `Data` → a `JSON` list: each non-blank line of the body is one JSON value. Errors name the
    /// line of the body: "Invalid JSON: … at line 3, column 7".
    public static func ndjson(transformErrors: Bool = false) -> ResponseContentTransformer<Data, JSON> {
        ResponseContentTransformer(name: "ndjson", transformErrors: transformErrors, dependsOnContentAlone: true) {
            data, _ in try parseNDJSON(data)
        }
    }

    /// Each non-blank line as JSON, in order.
    static func parseNDJSON(_ data: Data) throws -> JSON {
        var values: [JSON] = []
        var lineNumber = 0
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            do throws(JSONParser.Failure) {
                values.append(try JSONParser.parse(Data(line)))
            } catch {
                let failure = JSONParser.Failure(message: error.message, line: lineNumber, column: error.column)
                throw RequestError(userMessage: failure.description, cause: failure)
            }
        }
        return .array(values)
    }

    /// Bytes as JSON, in UTF-8, UTF-16 or UTF-32 (`JSONEncoding`); blank is `null`; a syntax
    /// error is a `RequestError` naming the position.
    static func parseJSON(_ data: Data, charset: String? = nil) throws -> JSON {
        let data = try JSONEncoding.utf8(data, charset: charset)
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .null }
        do throws(JSONParser.Failure) {
            return try JSONParser.parse(data)
        } catch {
            throw RequestError(userMessage: error.description, cause: error)
        }
    }

    /// `Data` → `String` in the entity's charset (UTF-8 if none). As in Siesta, content an earlier
    /// stage already turned into something else (even text) fails as a wrong input type.
    public static func text(
        transformErrors: Bool = false,
        onInputTypeMismatch: ResponseContentTransformer<Data, String>.InputTypeMismatchAction = .error
    ) -> ResponseContentTransformer<Data, String> {
        ResponseContentTransformer(name: "text", onInputTypeMismatch: onInputTypeMismatch, transformErrors: transformErrors, dependsOnContentAlone: true) {
            data, entity in
            try decodeText(data, charset: entity.charset)
        }
    }

    /// Decodes `data` as `charset`, or throws a `RequestError` that says which problem it was.
    ///
    /// Foundation decodes the common charsets; any other IANA name (EUC-JP, ISO-2022-JP, GB18030,
    /// Big5, KOI8-R…) goes through the C library's iconv. A name neither knows is an
    /// `InvalidTextEncoding`; bytes that are not valid in a known charset are `UndecodableText`.
    public static func decodeText(_ data: Data, charset: String?) throws -> String {
        let name = charset ?? "utf-8"
        func undecodable() -> RequestError {
            let cause = RequestError.Cause.UndecodableText(encodingName: name)
            return RequestError(userMessage: cause.description, cause: cause)
        }
        if let encoding = TextEncodingNames.encoding(forIANAName: name) {
            if encoding == .utf8 {
                guard let text = String(validating: data, as: UTF8.self) else { throw undecodable() }
                return text
            }
            if let text = String(data: data, encoding: encoding) { return text }
        }
        do throws(Iconv.Failure) {
            return try Iconv.decode(data, charset: name)
        } catch .unknownCharset where TextEncodingNames.encoding(forIANAName: name) == nil {
            let cause = RequestError.Cause.InvalidTextEncoding(encodingName: name)
            throw RequestError(userMessage: cause.description, cause: cause)
        } catch {
            throw undecodable()
        }
    }
}
