import FoundationEssentials
import TextBasics

/// A pane's URL as its file writes it: the path joined to the base URL, the query kept byte for
/// byte (`%2F` stays `%2F`), `params` appended after it.
///
/// Only characters that cannot travel in a URL at all are changed, each to its one percent-encoded
/// form (a space to `%20`, `é` to `%C3%A9`); what cannot be sent as written is a config problem:
/// a `#fragment` (never sent to a server), a control character, a `%` that starts no escape.
public enum WrittenURL {
    /// Why `text` cannot be sent as a URL or path, or nil.
    public static func problem(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        if let index = scalars.firstIndex(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "contains a control character (U+\(String(printf: "%04X", scalars[index].value)))"
        }
        if let hash = text.firstIndex(of: "#") {
            return "has a fragment (\(text[hash...])), which is never sent to the server; remove it"
        }
        var i = 0
        while i < scalars.count {
            if scalars[i] == "%" {
                let hex = i + 2 < scalars.count && scalars[i + 1].properties.isASCIIHexDigit && scalars[i + 2].properties.isASCIIHexDigit
                guard hex else {
                    return "has a % that starts no escape (write %25 for a literal %)"
                }
                i += 3
            } else {
                i += 1
            }
        }
        return nil
    }

    /// `text` with every character that may not appear in a URL percent-encoded as UTF-8; escapes
    /// already written, reserved characters (`/?&=:@…`) and the rest are kept as they are. `[` and
    /// `]` stay only in a URL's host (`http://[::1]:8080/`); in a path or query (PromQL's `[1m]`)
    /// they are encoded, as a URL may not hold them there.
    public static func encodingWhatCannotTravel(_ text: String) -> String {
        var out = ""
        // Where the authority ends: brackets before it belong to an IPv6 host.
        var authorityEnd = text.unicodeScalars.startIndex
        if let schemeEnd = text.firstRange(of: "://"), isAbsolute(text) {
            authorityEnd = text.unicodeScalars[schemeEnd.upperBound...].firstIndex { "/?#".unicodeScalars.contains($0) } ?? text.unicodeScalars.endIndex
        }
        for index in text.unicodeScalars.indices {
            let scalar = text.unicodeScalars[index]
            let bracketOutsideHost = (scalar == "[" || scalar == "]") && index >= authorityEnd
            if scalar.isASCII, scalar.value > 0x20, scalar.value < 0x7F, !"\"<>\\^`{|}".unicodeScalars.contains(scalar), !bracketOutsideHost {
                out.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { out += "%" + String.hex(byte, digits: 2) }
            }
        }
        return out
    }

    /// The absolute URL for a pane: `written` as is if it has a scheme, else joined to `base`
    /// (whose query is dropped and whose path ends in `/`), then `params` appended in file order,
    /// each name and value percent-encoded except for unreserved characters.
    /// With `encoding` false, nothing is encoded: for showing a URL whose secrets are still
    /// `${VAR}` templates. `baseEndsInSlash` says the base's value ends in `/` where its text
    /// cannot show it (`${API_URL}`): no second `/` is added then.
    public static func absolute(
        base: String?, written: String, params: [(name: String, value: String)] = [], encoding: Bool = true, baseEndsInSlash: Bool = false
    ) -> String? {
        func encodingWhatCannotTravel(_ text: String) -> String { encoding ? WrittenURL.encodingWhatCannotTravel(text) : text }
        func formEscape(_ text: String) -> String { encoding ? WrittenURL.formEscape(text) : text }
        var url: String
        if isAbsolute(written) {
            url = encodingWhatCannotTravel(written)
        } else {
            guard let base else { return nil }
            // The base as it travels too: a user-info password may hold a space or `é`.
            var root = encodingWhatCannotTravel(base)
            if let cut = root.firstIndex(where: { $0 == "?" || $0 == "#" }) { root = String(root[..<cut]) }
            if !root.hasSuffix("/"), !baseEndsInSlash { root += "/" }
            url = root + encodingWhatCannotTravel(written.hasPrefix("/") ? String(written.dropFirst()) : written)
        }
        if !params.isEmpty {
            let pairs = params.map { formEscape($0.name) + "=" + formEscape($0.value) }.joined(separator: "&")
            url += paramJoiner(after: url) + pairs
        }
        return url
    }

    /// What goes between a URL and the params appended to it: `?`, `&`, or nothing after a
    /// query that ends in either.
    public static func paramJoiner(after url: String) -> String {
        url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?"
    }

    /// `url` with the password of its user-info (`ops:hunter2@`) masked, unless it is a reference
    /// (`${PASSWORD}`); the rest as it is.
    public static func maskingPassword(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let authorityEnd = url[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        let authority = url[schemeEnd.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
        let password = authority[authority.index(after: colon)..<at]
        guard !password.isEmpty, !(password.hasPrefix("${") && password.hasSuffix("}")) else { return url }
        return String(url[..<authority.index(after: colon)]) + Redactor.mask + String(url[at...])
    }

    /// True when `text` starts with a scheme and `//`.
    public static func isAbsolute(_ text: String) -> Bool {
        guard let colon = text.firstRange(of: "://") else { return false }
        let scheme = text[..<colon.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// `text` with everything but unreserved characters percent-encoded, as params are sent.
    public static func formEscaped(_ text: String) -> String { formEscape(text) }

    private static func formEscape(_ text: String) -> String {
        text.percentEncoded(allowing: \.isURIUnreserved)
    }
}
