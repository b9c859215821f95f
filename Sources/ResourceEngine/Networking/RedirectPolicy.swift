import FoundationEssentials

/// What a redirect may carry, for every transport: a request's headers (and the credentials among
/// them) belong to the origin — scheme, host and port — the request was made for.
///
/// A redirect within the origin keeps every header. A redirect to another origin is followed
/// with only the headers that say nothing about the sender (`User-Agent`, `Accept…`, and the body's
/// `Content-Type` when the body goes along), so a configured `Authorization`, `X-Api-Key` or cookie
/// never reaches another host, port or scheme. A redirect from https to http, or to anything but
/// http(s), is refused, and so is a 307 or 308 to another origin that would send the request's
/// body there again: a body cannot be stripped as headers are, and it holds what a login or a
/// query sends (a password, a token).
public enum RedirectPolicy {
    /// Scheme, host and port, lower-cased, with the scheme's default port filled in.
    public struct Origin: Equatable, Sendable, CustomStringConvertible {
        /// The scheme, lower-cased.
        public let scheme: String
        /// The host, lower-cased.
        public let host: String
        /// The port, or the scheme's default (80, 443; -1 for another scheme).
        public let port: Int

        /// The origin of `url`; nil when it has no scheme or host.
        public init?(_ url: URL) {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        }

        public var description: String { "\(scheme)://\(host):\(port)" }
    }

    /// Headers that may follow a request to another origin.
    static let crossOriginHeaders: Set<String> = ["user-agent", "accept", "accept-encoding", "accept-language"]

    /// Why the redirect from `from` to `to` must not be followed, or nil. `status`, `method` and
    /// `hasBody` describe the answer and the request it redirects: a body is never sent to another
    /// origin.
    public static func refusal(from: URL, to: URL, status: Int = 302, method: String = "GET", hasBody: Bool = false) -> RequestError.Cause.RedirectRefused? {
        let target = to.scheme?.lowercased() ?? ""
        guard target == "http" || target == "https" else {
            return .init(from: from.absoluteString, to: to.absoluteString, reason: "\(target.isEmpty ? "a URL without a scheme" : target + ":") is not http or https")
        }
        if from.scheme?.lowercased() == "https", target == "http" {
            return .init(from: from.absoluteString, to: to.absoluteString, reason: "https to plain http (\(Origin(to).map(\.description) ?? to.absoluteString))")
        }
        if hasBody, self.method(after: status, was: method).keepsBody, !sameOrigin(from, to) {
            let place = Origin(to).map(\.description) ?? to.absoluteString
            return .init(from: from.absoluteString, to: to.absoluteString, reason: "a \(status) would send the request's body to another origin (\(place))")
        }
        return nil
    }

    /// True when both URLs have the same scheme, host and port.
    public static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        guard let first = Origin(a), let second = Origin(b) else { return false }
        return first == second
    }

    /// The headers to send on the redirected request: all of them within the origin, only the
    /// anonymous ones (and `Content-Type` when the body is kept) across origins.
    public static func headers(_ headers: [(name: String, value: String)], from: URL, to: URL, keepsBody: Bool) -> [(name: String, value: String)] {
        let same = sameOrigin(from, to)
        return headers.filter { header in
            let name = header.name.lowercased()
            if !keepsBody, name == "content-type" || name == "content-length" { return false }
            if same { return true }
            return crossOriginHeaders.contains(name) || (keepsBody && name == "content-type")
        }
    }

    /// The method (and whether the body goes along) after a redirect with `status`: 307 and 308
    /// keep both; 303 becomes GET; 301 and 302 turn a POST into a GET, as browsers and curl do.
    public static func method(after status: Int, was method: String) -> (method: String, keepsBody: Bool) {
        switch status {
        case 307, 308: return (method, true)
        case 303: return (method == "HEAD" ? "HEAD" : "GET", false)
        default: return method == "POST" ? ("GET", false) : (method, method != "GET" && method != "HEAD")
        }
    }
}
