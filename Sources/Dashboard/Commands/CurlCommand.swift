import DashboardConfig
import FoundationEssentials
import Redaction
import ResourceEngine

/// A pane's request as a `curl` command line to paste into a shell: it sends what Hammock sends
/// (the URL encoded as Hammock encodes it, with curl's globbing off), and pasting it runs nothing
/// but curl.
///
/// Every text is single-quoted, so nothing in it is expanded; values the config took from the
/// environment stay references, each alone in double quotes (`"${SHOP_TOKEN}"`), and a file's
/// value is read by `"$(cat 'PATH')"`. A reference's `:-fallback` becomes a line before the
/// command that sets the variable, single-quoted, when it is unset. Secrets written in the file
/// itself (and values named like credentials, in their own place) show as `•••` with a note.
public enum CurlCommand {
    /// One part of a shell word.
    enum Piece: Equatable {
        case literal(String)
        case variable(String)
        case file(String)
    }

    /// A shell word: pieces written side by side, each quoted on its own.
    struct Word {
        var pieces: [Piece] = []

        init(_ pieces: [Piece] = []) { self.pieces = pieces }
        init(literal: String) { self.pieces = [.literal(literal)] }

        static func + (a: Word, b: Word) -> Word { Word(a.pieces + b.pieces) }
    }

    public static func make(for pane: PaneSpec, in spec: DashboardSpec, redactor: Redactor) -> String {
        var builder = Builder(redactor: redactor)
        return builder.command(for: pane, in: spec)
    }

    private struct Builder {
        let redactor: Redactor
        /// Fallbacks of references, by name, in the order met.
        var fallbacks: [(name: String, value: String)] = []
        /// True once a literal had a secret masked.
        var masked = false
        /// True once a value named like a credential was masked in its own place (not a secret).
        var maskedInPlace = false

        init(redactor: Redactor) {
            self.redactor = redactor
        }

        mutating func command(for pane: PaneSpec, in spec: DashboardSpec) -> String {
            let service = spec.serviceSpec(for: pane)
            var notes: [String] = []
            var options: [String] = ["curl -sS -g"]
            if pane.method != .get || pane.body != nil { options[0] += " -X \(pane.method.httpName)" }

            let (urlWord, queryWords) = self.urlWord(for: pane, in: spec)
            let url = quoted(urlWord)
            let query = queryWords.map { "--url-query " + quoted($0) }
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
                    options.append("-u " + quoted(word(String(template.dropFirst(13).dropLast()))))
                } else {
                    options.append("-H " + quoted(Word(literal: header.name + ": ") + word(template)))
                }
            }
            if credentials, !pane.withoutAuth {
                switch service.auth {
                case .digest(let user, let password)?:
                    options.append("--digest -u " + quoted(word(user.template) + Word(literal: ":") + word(password.template)))
                case .session(let login)?:
                    let endpoint = spec.loginURL(login, of: service).map(redactor.redactURL) ?? login.url.display
                    notes.append("# The service logs in first (\(login.kind) at \(endpoint)); put its token in TOKEN.")
                    let prefix = login.scheme.isEmpty ? "" : login.scheme + " "
                    options.append("-H " + quoted(Word([.literal(login.header + ": " + prefix), .variable("TOKEN")])))
                default:
                    break
                }
            }
            if let body = pane.body {
                // In its own place, a member named like a credential is masked whatever wrote it.
                let shown = body.shown
                if shown != String(decoding: body.data, as: UTF8.self) { maskedInPlace = true }
                options.append("--data-binary " + quoted(Word(literal: shown)))
            }
            let transport = credentials ? service.tls : nil
            if transport?.insecure == true { options.append("-k") }
            if let ca = transport?.caFile { options.append("--cacert " + quoted(Word(literal: ca))) }
            if let certificate = transport?.clientCertificate { options.append("--cert " + quoted(Word(literal: certificate))) }
            if let key = transport?.clientKey {
                options.append("--key " + quoted(Word(literal: key)))
                if let password = service.clientKeyPassword { options.append("--pass " + quoted(word(password.template))) }
            }
            if let timeout = pane.timeout ?? blocks.compactMap(\.timeout).last ?? service.timeout, timeout.isFinite, timeout > 0 {
                options.append("--max-time " + JSON.format(timeout))
            }
            let redirects = (credentials ? service.redirects : nil) ?? 10
            if redirects > 0 { options.append("-L --max-redirs \(redirects)") }
            options += query
            options.append(url)

            var lines: [String] = []
            if masked { lines.append("# ••• marks secrets written in the config itself: fill them in before running.") }
            if maskedInPlace {
                lines.append("# ••• also hides values the config writes under names like key, token or password: copy them from the config.")
            }
            lines += notes
            for fallback in fallbacks {
                lines.append("[ -n \"${\(fallback.name)-}\" ] || \(fallback.name)=\(CurlCommand.singleQuoted(fallback.value))")
            }
            lines.append(options.joined(separator: " \\\n  "))
            return lines.joined(separator: "\n")
        }

        /// The URL as Hammock sends it: literal parts encoded as `WrittenURL` encodes them,
        /// references left to the shell. Params whose values come from the environment must be
        /// encoded when the command runs: then every param goes in a `--url-query` of its own, in
        /// order (curl encodes `name=VALUE`; `+name=value` is a literal one, encoded here).
        mutating func urlWord(for pane: PaneSpec, in spec: DashboardSpec) -> (url: Word, query: [Word]) {
            let service = spec.serviceSpec(for: pane)
            var url: Word
            if WrittenURL.isAbsolute(pane.resource.value) {
                url = encoded(word(pane.resource.template), WrittenURL.encodingWhatCannotTravel)
            } else {
                var root = word(service.baseURL?.template ?? "")
                // The base's query and fragment are not part of a pane's URL.
                if let cut = root.pieces.firstIndex(where: { if case .literal(let text) = $0 { text.contains { "?#".contains($0) } } else { false } }),
                    case .literal(let text) = root.pieces[cut], let mark = text.firstIndex(where: { "?#".contains($0) })
                {
                    root.pieces = Array(root.pieces[..<cut]) + (mark == text.startIndex ? [] : [.literal(String(text[..<mark]))])
                }
                // A base whose value ends in "/" from a reference (`${API_URL}`) keeps its own slash.
                let value = (service.baseURL?.value ?? "").prefix { !"?#".contains($0) }
                let rootEndsInSlash = { () -> Bool in if case .literal(let text)? = root.pieces.last { text.hasSuffix("/") } else { false } }()
                if !rootEndsInSlash, !value.hasSuffix("/") { root = root + Word(literal: "/") }
                let path = pane.resource.template.hasPrefix("/") ? String(pane.resource.template.dropFirst()) : pane.resource.template
                url = root + encoded(word(path), WrittenURL.encodingWhatCannotTravel)
            }
            guard !pane.params.isEmpty else { return (url, []) }
            let byShell = pane.params.contains { $0.value.template.contains("${") }
            var params: [Word] = []
            for param in pane.params {
                let name = WrittenURL.formEscaped(param.name)
                if CredentialName.matches(param.name), !param.value.fromEnvironment, !param.value.value.isEmpty {
                    // In the URL as sent, its own place, a value named like a credential is masked.
                    maskedInPlace = true
                    params.append(Word(literal: (byShell ? "+" : "") + name + "=" + Redactor.mask))
                } else if byShell, param.value.template.contains("${") {
                    params.append(Word(literal: name + "=") + word(param.value.template))
                } else {
                    params.append(Word(literal: (byShell ? "+" : "") + name + "=") + encoded(word(param.value.template), WrittenURL.formEscaped))
                }
            }
            if byShell { return (url, params) }
            var query = Word(literal: WrittenURL.paramJoiner(after: urlWithoutParams(pane, in: spec)))
            for (index, param) in params.enumerated() { query = query + (index == 0 ? param : Word(literal: "&") + param) }
            return (url + query, [])
        }

        /// The URL a pane sends before its params are appended.
        func urlWithoutParams(_ pane: PaneSpec, in spec: DashboardSpec) -> String {
            var bare = pane
            bare.params = []
            return spec.url(for: bare) ?? ""
        }

        /// `word` with its literal pieces passed through `encode`.
        func encoded(_ word: Word, _ encode: (String) -> String) -> Word {
            Word(word.pieces.map { piece in
                if case .literal(let text) = piece { .literal(encode(text)) } else { piece }
            })
        }

        /// A value as the config writes it: its literal text and its references.
        mutating func word(_ template: String) -> Word {
            guard case .success(let pieces) = EnvironmentInterpolator.pieces(of: template) else { return Word(literal: template) }
            return Word(pieces.map { piece in
                switch piece {
                case .literal(let text): return .literal(text)
                case .file(let path): return .file(path)
                // A chained pane still waiting: its reference, as text.
                case .pane(let written): return .literal("${pane:" + written + "}")
                case .variable(let name, let fallback):
                    if let fallback, !fallbacks.contains(where: { $0.name == name }) { fallbacks.append((name, fallback)) }
                    return .variable(name)
                }
            })
        }

        /// The shell text of `word`: literals single-quoted (secrets written in the file masked),
        /// references double-quoted alone.
        mutating func quoted(_ word: Word) -> String {
            var out = ""
            var literal = ""
            var masked = false
            func flush() {
                guard !literal.isEmpty else { return }
                let shown = redactor.redact(literal)
                if shown != literal { masked = true }
                out += CurlCommand.singleQuoted(shown)
                literal = ""
            }
            for piece in word.pieces {
                switch piece {
                case .literal(let text):
                    literal += text
                case .variable(let name):
                    flush()
                    out += "\"${\(name)}\""
                case .file(let path):
                    flush()
                    out += "\"$(cat \(CurlCommand.singleQuoted(path)))\""
                }
            }
            flush()
            if masked { self.masked = true }
            return out.isEmpty ? "''" : out
        }
    }

    /// `text` in single quotes: nothing inside is expanded.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
