import FoundationEssentials
import Redaction
import ResourceEngine

/// A request body as the config writes it: JSON, a form, text or a file's bytes, with the
/// content type it is sent as.
public struct RequestBodySpec: Sendable {
    public enum Content: Sendable {
        case json(JSON)
        /// Form fields in file order, sent `application/x-www-form-urlencoded`.
        case form([(name: String, value: String)])
        case text(String)
        /// A file's bytes, read when the config was loaded.
        case file(path: String, data: Data)
    }

    public var content: Content
    /// The `Content-Type` to send instead of the kind's own.
    public var contentType: String?

    public init(_ content: Content, contentType: String? = nil) {
        self.content = content
        self.contentType = contentType
    }

    /// The JSON sent, for a JSON body.
    public var json: JSON? {
        if case .json(let json) = content { json } else { nil }
    }

    /// The bytes sent.
    public var data: Data {
        switch content {
        case .json(let json): (try? json.serialized()) ?? Data()
        case .form(let fields): Data(fields.map { "\(WrittenURL.formEscaped($0.name))=\(WrittenURL.formEscaped($0.value))" }.joined(separator: "&").utf8)
        case .text(let text): Data(text.utf8)
        case .file(_, let data): data
        }
    }

    /// The body as the request view and the curl command show it: the values of members and
    /// form fields named like credentials (`password`, `api_key`) masked, the rest as sent.
    public var shown: String {
        switch content {
        case .json(let json): (try? RequestBodySpec.maskingCredentials(in: json).serialized()).map { String(decoding: $0, as: UTF8.self) } ?? ""
        case .form(let fields):
            fields.map { field in
                let value = CredentialName.matches(field.name) && !field.value.isEmpty ? Redactor.mask : WrittenURL.formEscaped(field.value)
                return "\(WrittenURL.formEscaped(field.name))=\(value)"
            }.joined(separator: "&")
        case .text, .file: String(decoding: data, as: UTF8.self)
        }
    }

    /// `json` with the string values of members named like credentials masked, at any depth.
    public static func maskingCredentials(in json: JSON) -> JSON {
        switch json {
        case .object(let object):
            return .object(JSONObject(object.members.map { member -> (String, JSON) in
                if CredentialName.matches(member.key), case .string(let value) = member.value, !value.isEmpty { return (member.key, .string(Redactor.mask)) }
                return (member.key, maskingCredentials(in: member.value))
            }))
        case .array(let items): return .array(items.map(maskingCredentials(in:)))
        default: return json
        }
    }

    /// The string values of members named like credentials, at any depth.
    static func credentialValues(in json: JSON) -> [String] {
        switch json {
        case .object(let object):
            return object.members.flatMap { member -> [String] in
                if CredentialName.matches(member.key), case .string(let value) = member.value { return [value] }
                return credentialValues(in: member.value)
            }
        case .array(let items): return items.flatMap(credentialValues(in:))
        default: return []
        }
    }

    /// The content type sent: the one written, else the kind's.
    public var effectiveContentType: String {
        if let contentType { return contentType }
        switch content {
        case .json: return "application/json"
        case .form: return "application/x-www-form-urlencoded"
        case .text: return "text/plain; charset=utf-8"
        case .file: return "application/octet-stream"
        }
    }

    /// `json`, `form`, `text` or `file PATH`, for summaries.
    public var kindDescription: String {
        switch content {
        case .json: "json"
        case .form: "form"
        case .text: "text"
        case .file(let path, _): "file \(path)"
        }
    }
}
