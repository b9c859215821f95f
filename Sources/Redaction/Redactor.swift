import FoundationEssentials
import Glibc
import ResourceEngine
import Synchronization

/// The one place secrets are taken out of text: everything Hammock shows, prints, logs or writes
/// (screen, zoom, events, snapshot text and JSON, logs, the cache, error messages) passes through
/// `redact`, which puts `•••` where a secret was.
///
/// Only what is truly secret is searched for everywhere: the values a config took from the
/// environment or files (`${VAR}`, `${file:…}`) for headers, request bodies and the parts of URLs
/// that can carry credentials (user-info, path, query — not the scheme, host or port, nor the
/// path of a whole base URL from the environment), the passwords and tokens of `auth:` (a
/// login's credential-named body members included), the values of headers whose names say they
/// are credentials, passwords written into URLs, and the tokens logins and OAuth2 return (`live`);
/// each also in its percent-encoded forms, as it travels in a URL. Anything else a file writes
/// (a body member `key: alpha`, a title, a label) and what servers answer are shown as they are;
/// a literal named like a credential is masked only in its own place (`redactURL`,
/// `RequestBodySpec.shown`).
public struct Redactor: Sendable {
    /// What a secret becomes.
    public static let mask = "•••"
    /// Values shorter than this are not searched for in free text (a two-character value would
    /// blank out half a screen); where their place is known (URLs, headers) they show as written.
    public static let shortest = 3

    /// The values searched for, longest first (so a secret containing another goes whole).
    public let secrets: [String]
    /// Secrets learnt while running (a rotated token file, a login's token), searched too.
    public let live: LiveSecrets?
    /// The config's own secrets, in all their forms: what the redactor of the next reload keeps.
    public let ownSecrets: [String]

    public static let none = Redactor(secrets: [])

    public init(secrets: some Sequence<String>, live: LiveSecrets? = nil) {
        self.init(forms: Redactor.allForms(of: secrets), kept: [], live: live)
    }

    private init(forms own: Set<String>, kept: Set<String>, live: LiveSecrets?) {
        self.ownSecrets = own.sorted()
        self.secrets = own.union(kept).sorted { ($0.count, $0) > ($1.count, $1) }
        self.live = live
    }

    /// Every secret long enough to search for, in every form it travels in.
    private static func allForms(of secrets: some Sequence<String>) -> Set<String> {
        var unique = Set<String>()
        for secret in secrets where secret.count >= Redactor.shortest {
            unique.formUnion(Redactor.forms(of: secret))
        }
        return unique
    }

    /// The schemes an `Authorization` value starts with, whose credentials follow a space.
    static let authorizationSchemes: Set<String> = ["basic", "bearer", "token", "digest", "negotiate", "apikey", "key", "jwt", "oauth", "sso-key", "splunk"]

    /// A secret as written and in the encodings it travels in (in a URL, in a form body); an
    /// authorization value (`Basic b3BzOnB3`, `Bearer tok`) also without its scheme, as a server
    /// may echo the credentials alone.
    static func forms(of secret: String) -> [String] {
        var forms = [secret]
        if let space = secret.firstIndex(of: " "), authorizationSchemes.contains(secret[..<space].lowercased()) {
            let credentials = String(secret[secret.index(after: space)...])
            if credentials.count >= shortest, !credentials.contains(" ") { forms.append(credentials) }
        }
        for form in forms {
            for encoded in [WrittenURL.encodingWhatCannotTravel(form), WrittenURL.formEscaped(form)] where !forms.contains(encoded) {
                forms.append(encoded)
            }
        }
        return forms
    }

    /// A redactor for `secrets` (searched in all their forms), those it learns while running
    /// (`live`), and `retired`: the `ownSecrets` of the redactor it replaces, kept as they are (a
    /// credential just replaced stays masked until the next reload; older ones do not pile up).
    public init(secrets: some Sequence<String>, retired: some Sequence<String>, live: LiveSecrets?) {
        self.init(forms: Redactor.allForms(of: secrets), kept: Set(retired), live: live)
    }

    /// Changes whenever the secrets do: text redacted while it read the same needs no second pass.
    public var secretsVersion: Int { live?.version ?? 0 }

    /// `text` with every secret masked; the rest, a server's words included, as it is.
    public func redact(_ text: String) -> String {
        redact(text, live: live?.all ?? [])
    }

    /// A URL as it was sent, as it may be shown: its secrets masked, and in their own place the
    /// password of its user-info and the values of query parameters named like credentials
    /// (`token=`, `api_key=`) even when the file wrote them.
    public func redactURL(_ url: String) -> String {
        let out = redact(url)
        return Redactor.mayCarryURLCredentials(out) ? Redactor.maskURLCredentials(out) : out
    }

    /// `redact(_:)` with the live secrets read once by the caller (a body has many strings).
    private func redact(_ text: String, live: [String]) -> String {
        var out = text
        for secret in secrets where Redactor.occurs(secret, in: out) {
            out = out.replacing(secret, with: Redactor.mask)
        }
        for secret in live where Redactor.occurs(secret, in: out) {
            out = out.replacing(secret, with: Redactor.mask)
        }
        return out
    }

    /// True when `text` has a `://` or an `=`, without which `maskURLCredentials` changes nothing.
    static func mayCarryURLCredentials(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count > 0, let base = bytes.baseAddress else { return false }
            if memchr(base, Int32(UInt8(ascii: "=")), bytes.count) != nil { return true }
            var start = 0
            while start + 3 <= bytes.count, let colon = memchr(base + start, Int32(UInt8(ascii: ":")), bytes.count - start - 2) {
                let at = UnsafeRawPointer(colon) - UnsafeRawPointer(base)
                if bytes[at + 1] == UInt8(ascii: "/"), bytes[at + 2] == UInt8(ascii: "/") { return true }
                start = at + 1
            }
            return false
        }
    }

    /// True when `needle` occurs in `haystack`, byte for byte in UTF-8 (`memchr` and `memcmp`). Every string of
    /// every response shown passes here: Foundation's `contains` bridges both to `NSString`
    /// (two allocations per call), which was the largest allocator per probe.
    static func occurs(_ needle: String, in haystack: String) -> Bool {
        var needle = needle
        var haystack = haystack
        return needle.withUTF8 { needleBytes in
            haystack.withUTF8 { haystackBytes in
                guard !needleBytes.isEmpty else { return true }
                guard let base = haystackBytes.baseAddress, let wanted = needleBytes.baseAddress,
                    haystackBytes.count >= needleBytes.count
                else { return false }
                let last = haystackBytes.count - needleBytes.count  // the last index a match can start at
                var start = 0
                while start <= last {
                    guard let found = memchr(base + start, Int32(wanted.pointee), last - start + 1) else { return false }
                    if memcmp(found, wanted, needleBytes.count) == 0 { return true }
                    start = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
                }
                return false
            }
        }
    }

    /// `json` with every string (member names included) redacted.
    public func redact(_ json: JSON) -> JSON {
        redacted(json, live: live?.all ?? []) ?? json
    }

    /// The redacted value, or nil when nothing in it changes (so a large body is not rebuilt).
    private func redacted(_ json: JSON, live: [String]) -> JSON? {
        switch json {
        case .string(let text):
            let out = redact(text, live: live)
            return out == text ? nil : .string(out)
        case .array(let items):
            var copy: [JSON]?
            for (index, item) in items.enumerated() {
                guard let changed = redacted(item, live: live) else { continue }
                if copy == nil { copy = items }
                copy![index] = changed
            }
            return copy.map(JSON.array)
        case .object(let object):
            var copy: [(String, JSON)]?
            for (index, member) in object.members.enumerated() {
                let key = redact(member.key, live: live)
                let value = redacted(member.value, live: live)
                guard key != member.key || value != nil else { continue }
                if copy == nil { copy = object.members.map { ($0.key, $0.value) } }
                copy![index] = (key, value ?? member.value)
            }
            return copy.map { .object(JSONObject($0)) }
        default:
            return nil
        }
    }

    /// Content as it may be shown or stored: JSON and text redacted; bytes that are UTF-8 text too.
    public func redact(content: any Sendable) -> any Sendable {
        switch content {
        case let json as JSON: return redact(json)
        case let text as String: return redact(text)
        case let data as Data:
            guard let text = String(validating: data, as: UTF8.self) else { return data }
            let redacted = redact(text)
            return redacted == text ? data : Data(redacted.utf8)
        default: return content
        }
    }

    // MARK: In a URL's own place

    /// Masks `user:password@` in URLs and the values of credential-named query parameters.
    static func maskURLCredentials(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        var changed = false
        // user:password@host — after "://", before the first "/", "?", "#" or space.
        var index = 0
        while index + 2 < scalars.count {
            guard scalars[index] == ":", scalars[index + 1] == "/", scalars[index + 2] == "/" else { index += 1; continue }
            let start = index + 3
            var end = start
            while end < scalars.count, !"/?# \n\t\"'<>".unicodeScalars.contains(scalars[end]) { end += 1 }
            if let at = scalars[start..<end].lastIndex(of: "@"), let colon = scalars[start..<at].firstIndex(of: ":"), at > colon + 1 {
                scalars.replaceSubrange((colon + 1)..<at, with: Redactor.mask.unicodeScalars)
                changed = true
                end -= (at - colon - 1) - Redactor.mask.unicodeScalars.count
            }
            index = end
        }
        // ?token=value and &api_key=value
        index = 0
        while index < scalars.count {
            guard scalars[index] == "?" || scalars[index] == "&" else { index += 1; continue }
            var equals = index + 1
            while equals < scalars.count, !"=&?# \n\t\"'".unicodeScalars.contains(scalars[equals]) { equals += 1 }
            guard equals < scalars.count, scalars[equals] == "=" else { index = equals; continue }
            let name = String(String.UnicodeScalarView(scalars[(index + 1)..<equals])).lowercased()
            var end = equals + 1
            while end < scalars.count, !"&# \n\t\"'<>".unicodeScalars.contains(scalars[end]) { end += 1 }
            if end > equals + 1, CredentialName.matches(name),
                String(String.UnicodeScalarView(scalars[(equals + 1)..<end])) != Redactor.mask
            {
                scalars.replaceSubrange((equals + 1)..<end, with: Redactor.mask.unicodeScalars)
                changed = true
                end = equals + 1 + Redactor.mask.unicodeScalars.count
            }
            index = end
        }
        return changed ? String(String.UnicodeScalarView(scalars)) : text
    }
}
