import Foundation
import ResourceEngine

/// A pane's request as a `curl` command line to paste into a shell: values the config took from
/// the environment stay references (`${SHOP_TOKEN}`, `$(cat token.txt)` for `${file:…}`), so the
/// command carries no secret; a secret written in the file itself shows as `•••` with a note.
public enum CurlCommand {
    public static func make(for pane: PaneSpec, in spec: DashboardSpec, redactor: Redactor) -> String {
        let service = spec.serviceSpec(for: pane)
        var lines: [String] = []
        var options: [String] = ["curl -sS"]
        if pane.method != .get || pane.body != nil { options[0] += " -X \(pane.method.httpName)" }

        var urlTemplate = spec.displayURL(for: pane)
        // `${BASE}/path` where BASE's value ends in "/" (as the config resolved it) would send
        // `//path`: the reference keeps its slash, the path loses its own.
        if let base = service.baseURL, base.fromEnvironment, base.value.hasSuffix("/"), !base.template.hasSuffix("/"),
            urlTemplate.hasPrefix(base.template + "/")
        {
            urlTemplate = base.template + urlTemplate.dropFirst(base.template.count + 1)
        }
        // Headers in the order the engine applies them; later ones win, names compared without case.
        let blocks = spec.blocks(for: pane)
        // The service's own headers and credentials go only under its base URL.
        let credentials = spec.isUnderItsServiceBase(pane)
        var headers: [HeaderSpec] = credentials ? service.headers : []
        for block in blocks { headers += block.headers }
        if credentials, !pane.withoutAuth, case .header(let header)? = service.auth { headers.append(header) }
        headers += pane.headers
        var byName: [String: HeaderSpec] = [:]
        var order: [String] = []
        for header in headers {
            let key = header.name.lowercased()
            if byName[key] == nil { order.append(key) }
            byName[key] = header
        }
        if let body = pane.body, byName["content-type"] == nil {
            byName["content-type"] = HeaderSpec(name: "Content-Type", value: ConfigString(body.effectiveContentType))
            order.append("content-type")
        }
        if pane.withoutAuth { order.removeAll { $0 == "authorization" } }
        for key in order {
            guard let header = byName[key] else { continue }
            // Basic auth is written `Basic base64(USER:PASSWORD)`: curl's -u does the encoding.
            let template = header.value.template
            if key == "authorization", template.hasPrefix("Basic base64("), template.hasSuffix(")") {
                options.append("-u " + doubleQuoted(String(template.dropFirst(13).dropLast())))
            } else {
                options.append("-H " + doubleQuoted(header.name + ": " + template))
            }
        }
        if credentials, !pane.withoutAuth {
            switch service.auth {
            case .digest(let user, let password)?:
                options.append("--digest -u " + doubleQuoted(user.template + ":" + password.template))
            case .session(let login)?:
                let endpoint = spec.loginURL(login, of: service) ?? login.url.display
                lines.append("# The service logs in first (\(login.kind) at \(endpoint)); put its token in TOKEN.")
                options.append(#"-H "Authorization: Bearer $TOKEN""#)
            default:
                break
            }
        }
        if let body = pane.body {
            options.append("--data-binary " + singleQuoted(body.shown))
        }
        let transport = credentials ? service.tls : nil
        if transport?.insecure == true { options.append("-k") }
        if let ca = transport?.caFile { options.append("--cacert " + singleQuoted(ca)) }
        if let certificate = transport?.clientCertificate { options.append("--cert " + singleQuoted(certificate)) }
        if let key = transport?.clientKey { options.append("--key " + singleQuoted(key)) }
        if let timeout = pane.timeout ?? blocks.compactMap(\.timeout).last ?? service.timeout, timeout.isFinite, timeout > 0 {
            options.append("--max-time " + JSON.format(timeout))
        }
        let redirects = (credentials ? service.redirects : nil) ?? 10
        if redirects > 0 { options.append("-L --max-redirs \(redirects)") }
        options.append(doubleQuoted(urlTemplate))
        var command = options.joined(separator: " \\\n  ")
        // A secret written into the file (not a reference) never reaches the command.
        let redacted = redactor.redact(command)
        if redacted != command {
            lines.append("# ••• marks secrets written in the config itself: fill them in before running.")
            command = redacted
        }
        return (lines + [command]).joined(separator: "\n")
    }

    /// `text` in double quotes for a POSIX shell: `${NAME}` and `${NAME:-default}` stay
    /// references, `${file:PATH}` becomes `$(cat 'PATH')`, everything else is literal.
    static func doubleQuoted(_ text: String) -> String {
        var result = "\""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += escaped(rest[..<start.lowerBound])
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                rest = rest[start.lowerBound...]
                break
            }
            let inside = rest[start.upperBound..<end]
            if inside.hasPrefix("file:") {
                result += "$(cat " + singleQuoted(String(inside.dropFirst(5))) + ")"
            } else {
                result += "${" + inside + "}"
            }
            rest = rest[rest.index(after: end)...]
        }
        return result + escaped(rest) + "\""
    }

    private static func escaped(_ text: Substring) -> String {
        var result = ""
        for character in text {
            if "\\\"`$".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// `text` in single quotes: nothing inside is expanded.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
