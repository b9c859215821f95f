import FoundationEssentials
import Redaction
import ResourceEngine
import TextBasics

/// `hammock init --from-curl 'curl …'`: one pane from a pasted curl command, the inverse of the
/// dashboard's `c`. Credentials (an Authorization header, a header, query parameter or form field
/// whose name says it is one, `-u`'s password) are never written: they become `${VARIABLES}` the
/// user sets, named in `variables`.
public enum CurlImport {
    typealias Problem = ImportProblem

    /// Options that take a value and that a config has no use for.
    static let ignoredWithValue: Set<String> = ["-o", "--output", "-w", "--write-out", "--connect-timeout", "-e", "--referer", "--retry", "-c", "--cookie-jar"]

    /// The config for `command` (its words, as a shell would split them).
    public static func config(from command: String) throws(ImportProblem) -> ImportedConfig {
        var words = try shellWords(command)
        if words.first == "curl" { words.removeFirst() }
        var url: String?
        var method: String?
        var headers: [(String, String)] = []
        var data: [String] = []
        var json = false
        var get = false
        var user: String?
        var queries: [String] = []
        var insecure = false
        var timeout: String?
        var ignored: [String] = []
        var index = 0
        func value(_ option: String) throws(Problem) -> String {
            index += 1
            guard index < words.count else { throw Problem(message: "\(option) needs a value") }
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            switch word {
            case "-X", "--request": method = try value(word).uppercased()
            case "-H", "--header":
                let header = try value(word)
                guard let colon = header.firstIndex(of: ":") else { throw Problem(message: "header \"\(header)\" has no colon") }
                headers.append((String(header[..<colon]).trimmingWhitespace(), String(header[header.index(after: colon)...]).trimmingWhitespace()))
            case "-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode": data.append(try value(word))
            case "--json":
                data.append(try value(word))
                json = true
            case "-G", "--get": get = true
            case "-u", "--user": user = try value(word)
            case "--url": url = try value(word)
            case "--url-query": queries.append(try value(word))
            case "-k", "--insecure": insecure = true
            case "-m", "--max-time": timeout = try value(word)
            case "-A", "--user-agent": headers.append(("User-Agent", try value(word)))
            case "-b", "--cookie": headers.append(("Cookie", try value(word)))
            case _ where ignoredWithValue.contains(word):
                ignored.append(word)
                index += 1
            case _ where word.hasPrefix("-") && word.count > 1:
                // -s, -S, -L, -g, -v, -i, --compressed, --fail…: how curl behaves, not what it asks.
                ignored.append(word)
            default:
                guard url == nil else { throw Problem(message: "two URLs (\(url!) and \(word)); give one") }
                url = word
            }
            index += 1
        }
        guard let written = url else { throw Problem(message: "no URL in the command") }
        let address = written.contains("://") ? written : "http://" + written
        guard let parsed = URLComponents(string: address), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = parsed.host, !host.isEmpty
        else { throw Problem(message: "\"\(written)\" is not an http or https URL") }

        var variables: [String] = []
        func secret(_ name: String) -> String {
            var variable = name.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            if variable.first?.isNumber == true { variable = "_" + variable }
            if !variable.hasPrefix("API_") { variable = "API_" + variable }
            if !variables.contains(variable) { variables.append(variable) }
            return "${\(variable)}"
        }
        var lines = ["# yaml-language-server: $schema=./hammock.schema.json", "# From a curl command (hammock init --from-curl). Check it: hammock check"]
        let base = "\(scheme)://\(host)\(parsed.port.map { ":\($0)" } ?? "")/"
        lines += ["title: \(yamlString(host))", "service:", "  baseURL: \(yamlString(base))"]
        if insecure { lines += ["  tls: { insecure: true }"] }
        if let user {
            let parts = user.split(separator: ":", maxSplits: 1).map(String.init)
            lines += ["  auth:", "    basic: { user: \(yamlString(parts[0])), password: \(yamlString(secret("password"))) }"]
        }
        var path = parsed.percentEncodedPath.isEmpty ? "/" : parsed.percentEncodedPath
        path = path.percentDecoded ?? path
        lines += ["panes:", "  - title: \(yamlString(method.map { "\($0) \(path)" } ?? path))", "    resource: \(yamlString(path))"]
        var params: [(String, String)] = (parsed.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        for query in queries + (get ? data : []) {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).percentDecoded ?? String($0) }
                params.append((parts[0], parts.count > 1 ? parts[1] : ""))
            }
        }
        if !params.isEmpty {
            lines.append("    params:")
            for (name, value) in params {
                lines.append("      \(yamlString(name)): \(yamlString(CredentialName.matches(name) ? secret(name) : escaped(value)))")
            }
        }
        let body = get ? [] : data
        let sentMethod = method ?? (body.isEmpty ? "GET" : "POST")
        if sentMethod != "GET" { lines.append("    method: \(sentMethod)") }
        if !body.isEmpty {
            let text = body.joined(separator: "&")
            let contentType = headers.first { $0.0.lowercased() == "content-type" }?.1.lowercased()
            if json || contentType?.contains("json") == true, let parsedBody = try? JSONParser.parse(text) {
                lines.append("    body: { json: \(yamlJSON(parsedBody, secret: secret)) }")
            } else if contentType == nil || contentType?.contains("x-www-form-urlencoded") == true, text.contains("=") {
                lines.append("    body:")
                lines.append("      form:")
                for pair in text.split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).percentDecoded ?? String($0) }
                    let value = parts.count > 1 ? parts[1] : ""
                    lines.append("        \(yamlString(parts[0])): \(yamlString(CredentialName.matches(parts[0]) ? secret(parts[0]) : escaped(value)))")
                }
            } else {
                lines.append("    body: { text: \(yamlString(escaped(text)))\(contentType.map { ", contentType: \(yamlString($0))" } ?? "") }")
            }
        }
        let sentHeaders = headers.filter { !(json && $0.0.lowercased() == "content-type") && !($0.0.lowercased() == "content-type" && !body.isEmpty && !json && $0.1.contains("x-www-form-urlencoded")) }
        if !sentHeaders.isEmpty {
            lines.append("    headers:")
            for (name, value) in sentHeaders {
                let shown: String
                if name.lowercased() == "authorization", let space = value.firstIndex(of: " ") {
                    shown = String(value[..<space]) + " " + secret("token")
                } else if CredentialName.matches(name) {
                    shown = secret(name)
                } else {
                    shown = escaped(value)
                }
                lines.append("      \(yamlString(name)): \(yamlString(shown))")
            }
        }
        if let timeout { lines.append("    timeout: \(yamlString(timeout.contains(where: \.isLetter) ? timeout : timeout + "s"))") }
        lines.append("    show: json")
        return ImportedConfig(yaml: lines.joined(separator: "\n") + "\n", variables: variables, leftOut: ignored)
    }

    /// A value as the config writes it: `${` doubled, so it stays text.
    static func escaped(_ text: String) -> String { EnvironmentInterpolator.literal(text) }

    /// A double-quoted YAML string (JSON's escaping, which YAML reads).
    static func yamlString(_ text: String) -> String {
        JSON.string(text).description
    }

    /// A JSON body as YAML flow (JSON is YAML), credentials by name made variables.
    static func yamlJSON(_ json: JSON, secret: (String) -> String) -> String {
        func clean(_ value: JSON, name: String?) -> JSON {
            switch value {
            case .object(let object):
                return .object(JSONObject(object.members.map { ($0.key, clean($0.value, name: $0.key)) }))
            case .array(let items): return .array(items.map { clean($0, name: name) })
            case .string(let text): return .string(name.map(CredentialName.matches) == true ? secret(name!) : escaped(text))
            default: return value
            }
        }
        return clean(json, name: nil).description
    }

    /// `command` split into words as a POSIX shell would: single quotes, double quotes with `\`
    /// escapes, backslashes, and line continuations.
    static func shellWords(_ command: String) throws(Problem) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var iterator = Array(command).makeIterator()
        while let c = iterator.next() {
            if let open = quote {
                if c == open {
                    quote = nil
                } else if open == "\"", c == "\\", let next = iterator.next() {
                    if !"\"\\$`\n".contains(next) { current.append("\\") }
                    if next != "\n" { current.append(next) }
                } else {
                    current.append(c)
                }
                continue
            }
            switch c {
            case "'", "\"":
                quote = c
                inWord = true
            case "\\":
                guard let next = iterator.next() else { break }
                if next != "\n" {
                    current.append(next)
                    inWord = true
                }
            case " ", "\t", "\n", "\r":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(c)
                inWord = true
            }
        }
        if quote != nil { throw Problem(message: "a quote is not closed") }
        if inWord { words.append(current) }
        return words
    }
}
