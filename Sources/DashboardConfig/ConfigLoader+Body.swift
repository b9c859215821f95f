import FoundationEssentials
import Redaction
import ResourceEngine

extension ConfigLoader {
    static let bodyKinds = ["json", "form", "text", "file"]
    /// The largest body file sent.
    static let largestBodyFile = 1 << 20

    /// A request body: `{ json: … }`, `{ form: {…} }`, `{ text: "…" }` or `{ file: PATH }`, with an
    /// optional `contentType`; any other value is sent as JSON (the older form, `body: {…}`).
    ///
    /// Values from the environment or files are secrets. In a login's body (`credentials`), so are
    /// the values of members named like credentials (`password`, `client_secret`): they are the
    /// passwords of `auth:`. Elsewhere such a member written in the file is masked only where the
    /// body itself is shown (`RequestBodySpec.shown`), never in answers or other text.
    static func readBody(_ node: YAMLNode, _ what: String, reader: inout NodeReader, credentials: Bool = false) -> RequestBodySpec? {
        guard case .mapping(let mapping) = node, !mapping.isEmpty,
            mapping.allSatisfy({ bodyKinds.contains($0.key.scalar?.string ?? "") || $0.key.scalar?.string == "contentType" }),
            let entries = reader.mapping(node, what)
        else {
            guard let json = reader.json(node, what) else { return nil }
            if credentials { reader.bodySecrets.formUnion(RequestBodySpec.credentialValues(in: json)) }
            return RequestBodySpec(.json(json))
        }
        let kinds = entries.filter { bodyKinds.contains($0.key) }
        guard kinds.count == 1, let kind = kinds.first else {
            reader.problem(at: node, kinds.isEmpty
                ? "\(what) needs one of \(bodyKinds.joined(separator: ", ")) beside contentType"
                : "\(what) names \(kinds.map(\.key).joined(separator: " and ")); use one kind")
            return nil
        }
        var contentType: String?
        if let entry = entries.first(where: { $0.key == "contentType" }), let text = reader.string(entry.value, "\(what).contentType") {
            let scalars = text.unicodeScalars
            guard text.contains("/"), !scalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                reader.problem(at: entry.value, "\(what).contentType \"\(text)\" is not a media type like application/xml")
                return nil
            }
            contentType = text
        }
        let kindPath = "\(what).\(kind.key)"
        switch kind.key {
        case "json":
            guard let json = reader.json(kind.value, kindPath) else { return nil }
            if credentials { reader.bodySecrets.formUnion(RequestBodySpec.credentialValues(in: json)) }
            return RequestBodySpec(.json(json), contentType: contentType)
        case "form":
            guard let fields = reader.mapping(kind.value, kindPath) else { return nil }
            var pairs: [(name: String, value: String)] = []
            for field in fields {
                guard case .scalar = field.value, let value = reader.interpolated(field.value, "\(kindPath).\(field.key)") else {
                    if case .scalar = field.value {} else { reader.problem(at: field.value, "\(kindPath).\(field.key) must be text or a number") }
                    return nil
                }
                reader.bodySecrets.formUnion(value.environmentValues)
                if credentials, CredentialName.matches(field.key) { reader.bodySecrets.insert(value.value) }
                pairs.append((field.key, value.value))
            }
            return RequestBodySpec(.form(pairs), contentType: contentType)
        case "text":
            guard let text = reader.interpolated(kind.value, kindPath) else { return nil }
            reader.bodySecrets.formUnion(text.environmentValues)
            return RequestBodySpec(.text(text.value), contentType: contentType)
        default:
            guard let path = readablePath(kind.value, kindPath, reader: &reader) else { return nil }
            switch read(path, limit: largestBodyFile, what: "body file") {
            case .success(let data): return RequestBodySpec(.file(path: path, data: data), contentType: contentType)
            case .failure(let failure):
                reader.problem(at: kind.value, "\(kindPath): \(failure.message)")
                return nil
            }
        }
    }
}
