import Foundation
import ResourceEngine
import Yams

extension ConfigLoader {
    static let tlsKeys = ["ca", "clientCert", "clientKey", "insecure"]
    static let authKinds = ["basic", "bearer"]

    /// `tls: { ca, clientCert, clientKey, insecure }`; every file must exist and be readable now.
    static func readTLS(_ node: Node, reader: inout NodeReader) -> TLSOptions? {
        guard let entries = reader.mapping(node, "service.tls") else { return nil }
        reader.checkKeys(entries, allowed: tlsKeys, in: "service.tls")
        var options = TLSOptions()
        var keyNode: Node?
        for entry in entries {
            switch entry.key {
            case "ca": options.caFile = readablePath(entry.value, "service.tls.ca", allowDirectory: true, reader: &reader)
            case "clientCert": options.clientCertificate = readablePath(entry.value, "service.tls.clientCert", reader: &reader)
            case "clientKey":
                options.clientKey = readablePath(entry.value, "service.tls.clientKey", reader: &reader)
                keyNode = entry.keyNode
            case "insecure": options.insecure = reader.bool(entry.value, "service.tls.insecure") ?? false
            default: break
            }
        }
        if let keyNode, !entries.contains(where: { $0.key == "clientCert" }) {
            reader.problem(at: keyNode, "service.tls.clientKey needs service.tls.clientCert (the certificate the key belongs to)")
        }
        return options
    }

    /// A path as written (`~/` expanded, relative to the config file's folder) that names a
    /// readable file (or directory, for a CA folder).
    static func readablePath(_ node: Node, _ what: String, allowDirectory: Bool = false, reader: inout NodeReader) -> String? {
        guard let written = reader.interpolated(node, what) else { return nil }
        var path = written.value
        if path.hasPrefix("~/") { path = NSHomeDirectory() + String(path.dropFirst(1)) }
        if !path.hasPrefix("/") {
            path = URL(fileURLWithPath: reader.file).deletingLastPathComponent().appendingPathComponent(path).path
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            reader.problem(at: node, "\(what): no file at \(written.display)")
            return nil
        }
        if isDirectory.boolValue && !allowDirectory {
            reader.problem(at: node, "\(what): \(written.display) is a directory, not a file")
            return nil
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            reader.problem(at: node, "\(what): \(written.display) cannot be read")
            return nil
        }
        return path
    }

    /// `auth: { basic: { user, password } }` or `auth: { bearer: TOKEN }`: exactly one kind, as
    /// the `Authorization` header it becomes, and how it may be shown.
    static func readAuth(_ node: Node, reader: inout NodeReader) -> (HeaderSpec, String)? {
        guard let entries = reader.mapping(node, "service.auth") else { return nil }
        reader.checkKeys(entries, allowed: authKinds, in: "service.auth")
        let kinds = entries.filter { authKinds.contains($0.key) }
        guard kinds.count == 1, let kind = kinds.first else {
            if kinds.count > 1 {
                reader.problem(at: node, "service.auth names \(kinds.map(\.key).joined(separator: " and ")); use one kind")
            } else if entries.isEmpty {
                reader.problem(at: node, "service.auth needs one of \(authKinds.joined(separator: ", "))")
            }
            return nil
        }
        switch kind.key {
        case "basic":
            guard let fields = reader.mapping(kind.value, "service.auth.basic") else { return nil }
            reader.checkKeys(fields, allowed: ["user", "password"], in: "service.auth.basic")
            let user = fields.first { $0.key == "user" }.flatMap { reader.interpolated($0.value, "service.auth.basic.user") }
            let password = fields.first { $0.key == "password" }.flatMap { reader.interpolated($0.value, "service.auth.basic.password") }
            guard let user, let password else {
                if !fields.contains(where: { $0.key == "user" }) { reader.problem(at: kind.value, "service.auth.basic needs a user") }
                if !fields.contains(where: { $0.key == "password" }) { reader.problem(at: kind.value, "service.auth.basic needs a password") }
                return nil
            }
            if user.value.contains(":") {
                reader.problem(at: kind.value, "service.auth.basic.user must not contain \":\"")
                return nil
            }
            let encoded = Data("\(user.value):\(password.value)".utf8).base64EncodedString()
            let value = ConfigString(
                template: "Basic base64(\(user.display):\(password.template))", value: "Basic \(encoded)",
                environmentValues: user.environmentValues + password.environmentValues + [password.value])
            return (HeaderSpec(name: "Authorization", value: value), "basic \(user.display):\(password.fromEnvironment ? password.template : "‹redacted›")")
        default:
            guard let token = reader.interpolated(kind.value, "service.auth.bearer") else { return nil }
            if token.value.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) {
                reader.problem(at: kind.value, "service.auth.bearer must be one word, without spaces or control characters")
                return nil
            }
            let value = ConfigString(
                template: "Bearer \(token.template)", value: "Bearer \(token.value)", environmentValues: token.environmentValues + [token.value])
            return (HeaderSpec(name: "Authorization", value: value), "bearer \(token.fromEnvironment ? token.template : "‹redacted›")")
        }
    }
}
