import FoundationEssentials
import Glibc
import Redaction
import ResourceEngine

extension ConfigLoader {
    static let tlsKeys = ["ca", "clientCert", "clientKey", "clientKeyPassword", "insecure"]
    static let authKinds = ["basic", "bearer", "digest", "login", "oauth2"]

    /// `tls: { ca, clientCert, clientKey, insecure }`; every file must exist and be readable now.
    static func readTLS(_ node: YAMLNode, prefix: String, reader: inout NodeReader) -> (TLSOptions, ConfigString?)? {
        let what = "\(prefix).tls"
        guard let entries = reader.mapping(node, what) else { return nil }
        reader.checkKeys(entries, allowed: tlsKeys, in: what)
        var options = TLSOptions()
        var keyPassword: ConfigString?
        var keyNode: YAMLNode?
        var keyValueNode: YAMLNode?
        for entry in entries {
            let limit = TLSOptions.largestFile
            switch entry.key {
            case "ca": options.caFile = readablePath(entry.value, "\(what).ca", allowDirectory: true, limit: limit, reader: &reader)
            case "clientCert": options.clientCertificate = readablePath(entry.value, "\(what).clientCert", limit: limit, reader: &reader)
            case "clientKey":
                options.clientKey = readablePath(entry.value, "\(what).clientKey", limit: limit, reader: &reader)
                keyNode = entry.keyNode
                keyValueNode = entry.value
            case "clientKeyPassword":
                guard let password = reader.interpolated(entry.value, "\(what).clientKeyPassword") else { continue }
                options.clientKeyPassword = password.value
                keyPassword = password
                reader.bodySecrets.formUnion(password.environmentValues + [password.value])
            case "insecure": options.insecure = reader.bool(entry.value, "\(what).insecure") ?? false
            default: break
            }
        }
        if let keyNode, !entries.contains(where: { $0.key == "clientCert" }) {
            reader.problem(at: keyNode, "\(what).clientKey needs \(what).clientCert (the certificate the key belongs to)")
        }
        // Nothing may ever ask for a passphrase on the terminal: an encrypted key needs its own.
        if let key = options.clientKey, options.clientKeyPassword == nil, case .success(let data) = RegularFile.read(key, limit: TLSOptions.largestFile),
            isEncryptedKey(data)
        {
            reader.problem(
                at: keyValueNode,
                "\(what).clientKey is encrypted: give its passphrase as \(what).clientKeyPassword (from ${VAR} or ${file:…}), or decrypt it (openssl pkey -in KEY -out KEY.plain)")
            options.clientKey = nil
        }
        return (options, keyPassword)
    }

    /// True for a PEM private key under a passphrase (PKCS#8 `ENCRYPTED PRIVATE KEY`, or the
    /// traditional `Proc-Type: 4,ENCRYPTED` header).
    static func isEncryptedKey(_ data: Data) -> Bool {
        let text = String(decoding: data.prefix(64 << 10), as: UTF8.self)
        return text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED")
    }

    /// A path as written (`~/` expanded, relative to the config file's folder) that names a
    /// regular file of at most `limit` bytes that can be read now (or a directory, for a CA
    /// folder). A FIFO, a device or a socket is refused: reading one could block every pane.
    static func readablePath(
        _ node: YAMLNode, _ what: String, allowDirectory: Bool = false, limit: Int = largestFile, reader: inout NodeReader
    ) -> String? {
        guard let written = reader.interpolated(node, what) else { return nil }
        var path = written.value
        if path.hasPrefix("~/") { path = FileManager.default.homeDirectoryForCurrentUser.path + String(path.dropFirst(1)) }
        if !path.hasPrefix("/") {
            path = URL(fileURLWithPath: reader.file).deletingLastPathComponent().appendingPathComponent(path).path
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            reader.problem(at: node, code == ENOENT ? "\(what): no file at \(written.display)" : "\(what): \(written.display): \(String(cString: strerror(code)).lowercased())")
            return nil
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            guard allowDirectory else {
                reader.problem(at: node, "\(what): \(written.display) is a directory, not a file")
                return nil
            }
            guard access(path, R_OK | X_OK) == 0 else {
                reader.problem(at: node, "\(what): \(written.display) cannot be read")
                return nil
            }
            return path
        }
        switch RegularFile.read(path, limit: limit) {
        case .success:
            return path
        case .failure(let failure):
            let reason = failure.message == "is not a regular file"
                ? "is not a regular file (a FIFO, a device or a socket could hang the reader)"
                : failure.message.hasPrefix("permission denied") ? "cannot be read" : failure.message
            reader.problem(at: node, "\(what): \(written.display) \(reason)")
            return nil
        }
    }

    /// `auth:` with exactly one kind (`basic`, `bearer`, `digest`, `login`, `oauth2`), and how it may
    /// be shown. `prefix` names the section in messages (`service`, `services.shop`).
    static func readAuth(_ node: YAMLNode, prefix: String, reader: inout NodeReader) -> (AuthSpec, String)? {
        let what = "\(prefix).auth"
        guard let entries = reader.mapping(node, what) else { return nil }
        reader.checkKeys(entries, allowed: authKinds, in: what)
        let kinds = entries.filter { authKinds.contains($0.key) }
        guard kinds.count == 1, let kind = kinds.first else {
            if kinds.count > 1 {
                reader.problem(at: node, "\(what) names \(kinds.map(\.key).joined(separator: " and ")); use one kind")
            } else if entries.isEmpty {
                reader.problem(at: node, "\(what) needs one of \(authKinds.joined(separator: ", "))")
            }
            return nil
        }
        let kindPath = "\(what).\(kind.key)"
        switch kind.key {
        case "basic", "digest":
            guard let (user, password) = readUserPassword(kind.value, kindPath, reader: &reader) else { return nil }
            let shownPassword = password.fromEnvironment ? password.template : "‹redacted›"
            if kind.key == "digest" {
                reader.bodySecrets.formUnion(password.environmentValues + [password.value])
                return (.digest(user: user, password: password), "digest \(user.display):\(shownPassword)")
            }
            let userValue = user.value
            let encode: @Sendable (String) -> String = { "Basic " + Data("\(userValue):\($0)".utf8).base64EncodedString() }
            let value = ConfigString(
                template: "Basic base64(\(user.display):\(password.template))", value: encode(password.value),
                environmentValues: user.environmentValues + password.environmentValues + [password.value], files: password.files)
            let header = HeaderSpec(name: "Authorization", value: value, live: reader.live(password, transform: encode))
            return (.header(header), "basic \(user.display):\(shownPassword)")
        case "bearer":
            let token: ConfigString
            if case .mapping = kind.value {
                guard let fields = reader.mapping(kind.value, kindPath) else { return nil }
                reader.checkKeys(fields, allowed: ["file"], in: kindPath)
                guard let file = fields.first(where: { $0.key == "file" }), let path = reader.string(file.value, "\(kindPath).file") else {
                    reader.problem(at: kind.value, "\(kindPath) needs a file (bearer: { file: ~/.config/app/token })")
                    return nil
                }
                guard let read = interpolateSecret("${file:\(path)}", at: file.value, "\(kindPath).file", reader: &reader) else { return nil }
                token = read
            } else {
                guard let read = reader.interpolated(kind.value, kindPath) else { return nil }
                token = read
            }
            if token.value.isEmpty || token.value.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) {
                reader.problem(at: kind.value, "\(kindPath) must be one word, without spaces or control characters")
                return nil
            }
            let bearer: @Sendable (String) -> String = { "Bearer " + $0 }
            let value = ConfigString(
                template: "Bearer \(token.template)", value: bearer(token.value), environmentValues: token.environmentValues + [token.value],
                files: token.files)
            // A rotated token passes the same check as this one did.
            let oneWord: @Sendable (String) -> String? = { text in
                text.isEmpty ? "is empty" : text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) ? "is not one word" : nil
            }
            let header = HeaderSpec(name: "Authorization", value: value, live: reader.live(token, transform: bearer, validate: oneWord))
            return (.header(header), "bearer \(token.fromEnvironment ? token.template : "‹redacted›")")
        case "login":
            guard let login = readLogin(kind.value, kindPath, reader: &reader) else { return nil }
            return (.session(login), "login \(login.method.httpName) \(login.url.display)")
        default:
            guard let login = readOAuth2(kind.value, kindPath, reader: &reader) else { return nil }
            return (.session(login), "oauth2 client credentials at \(login.url.display)")
        }
    }

    /// `{ user, password }`, both required; a user cannot contain `:`.
    static func readUserPassword(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> (ConfigString, ConfigString)? {
        guard let fields = reader.mapping(node, what) else { return nil }
        reader.checkKeys(fields, allowed: ["user", "password"], in: what)
        let user = fields.first { $0.key == "user" }.flatMap { reader.interpolated($0.value, "\(what).user") }
        let password = fields.first { $0.key == "password" }.flatMap { reader.interpolated($0.value, "\(what).password") }
        guard let user, let password else {
            if !fields.contains(where: { $0.key == "user" }) { reader.problem(at: node, "\(what) needs a user") }
            if !fields.contains(where: { $0.key == "password" }) { reader.problem(at: node, "\(what) needs a password") }
            return nil
        }
        if user.value.contains(":") {
            reader.problem(at: node, "\(what).user must not contain \":\"")
            return nil
        }
        return (user, password)
    }

    /// Interpolates text the loader made up (`${file:PATH}` for `{ file: PATH }`), reporting at `node`.
    static func interpolateSecret(_ text: String, at node: YAMLNode, _ what: String, reader: inout NodeReader) -> ConfigString? {
        reader.interpolate(text, at: node, what)
    }

    static let loginKeys = ["resource", "method", "body", "token", "header", "scheme", "refreshOn"]
    static let oauth2Keys = ["tokenURL", "clientId", "clientSecret", "scopes", "audience"]

    /// `login: { resource, method, body, token, header, scheme, refreshOn }`.
    static func readLogin(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> LoginSpec? {
        guard let entries = reader.mapping(node, what) else { return nil }
        reader.checkKeys(entries, allowed: loginKeys, in: what)
        let value = { (key: String) in entries.first { $0.key == key } }
        guard let resourceEntry = value("resource") else {
            reader.problem(at: node, "\(what) needs a resource (the login request's path, e.g. /auth/token)")
            return nil
        }
        guard let url = reader.interpolated(resourceEntry.value, "\(what).resource") else { return nil }
        if let problem = WrittenURL.problem(in: url.value) {
            reader.problem(at: resourceEntry.value, "\(what).resource \"\(url.display)\" \(problem)")
            return nil
        }
        if WrittenURL.isAbsolute(url.value), !isHTTPURL(url.value) {
            reader.problem(at: resourceEntry.value, "\(what).resource \"\(url.display)\" must be a path or an http(s) URL")
            return nil
        }
        // Renewed before `expires_in` runs out when the answer has one (OAuth2's name, widely used).
        var login = LoginSpec(kind: "login", url: url, expiresInPath: "expires_in", line: node.mark.line)
        var ok = true
        if let entry = value("method"), let name = reader.string(entry.value, "\(what).method") {
            if let method = RequestMethod(rawValue: name.lowercased()) { login.method = method } else {
                reader.problem(at: entry.value, "unknown method \"\(name)\"" + Suggestions.hint(for: name.uppercased(), in: RequestMethod.allCases.map(\.httpName)))
                ok = false
            }
        }
        if let entry = value("body") {
            login.body = readBody(entry.value, "\(what).body", reader: &reader, credentials: true)
            if login.body == nil { ok = false }
            if [.get, .head, .options, .delete].contains(login.method) {
                reader.problem(at: entry.keyNode, "\(what).body needs method POST, PUT or PATCH (the login uses \(login.method.httpName))")
                ok = false
            }
        }
        if let entry = value("token"), let path = reader.string(entry.value, "\(what).token") {
            if path.hasPrefix("header.") {
                // The token comes in a response header (X-Subject-Token, Transmission's session id).
                let name = String(path.dropFirst(7))
                if isHeaderName(name) {
                    login.tokenHeader = name
                } else {
                    reader.problem(at: entry.value, "\(what).token: \"\(path)\" needs a header name after header. (token: header.X-Subject-Token)")
                    ok = false
                }
            } else if (try? JSONPath(path)) == nil {
                reader.problem(at: entry.value, "\(what).token: \"\(path)\" is not a valid path (a path in the answer's JSON, or header.NAME)")
                ok = false
            }
            login.tokenPath = path
        }
        if let entry = value("header"), let name = reader.string(entry.value, "\(what).header") {
            if isHeaderName(name) { login.header = name } else {
                reader.problem(at: entry.value, "\"\(name)\" is not a valid header name")
                ok = false
            }
        }
        if let entry = value("scheme") {
            // `scheme: ""` sends the bare token (X-Auth-Token: abc).
            if case .scalar(let scalar) = entry.value, scalar.string.isEmpty || entry.value.isNull {
                login.scheme = ""
            } else if let scheme = reader.string(entry.value, "\(what).scheme") {
                if scheme.contains(where: { $0.isWhitespace || !$0.isASCII }) {
                    reader.problem(at: entry.value, "\(what).scheme must be one word, like Bearer")
                    ok = false
                }
                login.scheme = scheme
            }
        }
        if let entry = value("refreshOn") {
            if let statuses = readStatuses(entry.value, "\(what).refreshOn", reader: &reader) { login.refreshOn = statuses } else { ok = false }
        }
        return ok ? login : nil
    }

    /// A list of HTTP statuses (400…599).
    static func readStatuses(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> [Int]? {
        guard case .sequence(let sequence) = node else {
            reader.problem(at: node, "\(what) must be a list of statuses, like [401, 403]")
            return nil
        }
        var statuses: [Int] = []
        for item in sequence {
            guard let status = reader.int(item, what, range: 400...599) else { return nil }
            statuses.append(status)
        }
        return statuses
    }

    /// `oauth2: { tokenURL, clientId, clientSecret, scopes, audience }`: the client-credentials
    /// grant (RFC 6749 §4.4), the client authenticated with HTTP Basic (§2.3.1).
    static func readOAuth2(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> LoginSpec? {
        guard let entries = reader.mapping(node, what) else { return nil }
        reader.checkKeys(entries, allowed: oauth2Keys, in: what)
        let value = { (key: String) in entries.first { $0.key == key } }
        var ok = true
        for key in ["tokenURL", "clientId", "clientSecret"] where value(key) == nil {
            reader.problem(at: node, "\(what) needs \(key)")
            ok = false
        }
        let tokenURL = value("tokenURL").flatMap { reader.interpolated($0.value, "\(what).tokenURL") }
        if let tokenURL, let node = value("tokenURL")?.value {
            if let problem = WrittenURL.problem(in: tokenURL.value) {
                reader.problem(at: node, "\(what).tokenURL \"\(tokenURL.display)\" \(problem)")
                ok = false
            } else if WrittenURL.isAbsolute(tokenURL.value), !isHTTPURL(tokenURL.value) {
                reader.problem(at: node, "\(what).tokenURL \"\(tokenURL.display)\" must be a path or an http(s) URL")
                ok = false
            }
        }
        let clientId = value("clientId").flatMap { reader.interpolated($0.value, "\(what).clientId") }
        let clientSecret = value("clientSecret").flatMap { reader.interpolated($0.value, "\(what).clientSecret") }
        var fields: [(name: String, value: String)] = [("grant_type", "client_credentials")]
        if let entry = value("scopes") {
            if let scopes = reader.stringList(entry.value, "\(what).scopes") {
                if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
            } else {
                ok = false
            }
        }
        if let entry = value("audience"), let audience = reader.interpolated(entry.value, "\(what).audience") {
            fields.append(("audience", audience.value))
        }
        guard ok, let tokenURL, let clientId, let clientSecret else { return nil }
        if clientId.value.contains(":") {
            reader.problem(at: value("clientId")?.value, "\(what).clientId must not contain \":\"")
            return nil
        }
        let basic = Data("\(clientId.value):\(clientSecret.value)".utf8).base64EncodedString()
        reader.bodySecrets.formUnion(clientSecret.environmentValues + [clientSecret.value, basic])
        let authorization = HeaderSpec(
            name: "Authorization",
            value: ConfigString(
                template: "Basic base64(\(clientId.display):\(clientSecret.template))", value: "Basic \(basic)",
                environmentValues: clientSecret.environmentValues + [clientSecret.value, basic]))
        return LoginSpec(
            kind: "oauth2", url: tokenURL, method: .post, body: RequestBodySpec(.form(fields)), headers: [authorization],
            tokenPath: "access_token", expiresInPath: "expires_in", line: node.mark.line)
    }

    /// True for a token (RFC 9110 §5.6.2): what a header name may be.
    static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_!#$%&'*+.^`|~".contains($0)) }
    }
}
