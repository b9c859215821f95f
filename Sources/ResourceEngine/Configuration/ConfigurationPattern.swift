import FoundationEssentials
import TextBasics

/// Anything that can say which URLs a configuration block (or a wipe) applies to.
///
/// Strings are globs: `*` matches within one path segment, `**` across segments, `?` one
/// character; a glob not starting with a scheme is relative to the service's base URL, and the
/// query string is ignored. Regular expressions match anywhere in the whole URL. A `Resource`
/// matches exactly its own URL.
public protocol ConfigurationPatternConvertible {
    /// A predicate over absolute URLs.
    func configurationPattern(baseURL: URL?) -> @Sendable (URL) -> Bool

    /// How the pattern reads in logs.
    var configurationPatternDescription: String { get }
}

extension String: ConfigurationPatternConvertible {
    public func configurationPattern(baseURL: URL?) -> @Sendable (URL) -> Bool {
        let regex = GlobPattern(self, baseURL: baseURL).regex
        return { url in (try? regex.firstMatch(in: url.absoluteString)) != nil }
    }

    public var configurationPatternDescription: String { self }
}

/// A regular expression matched anywhere in the URL's absolute string (anchor it with `^` and `$`);
/// a URL that takes the engine longer than its budget to match counts as not matching.
extension LinearRegex: ConfigurationPatternConvertible {
    public func configurationPattern(baseURL: URL?) -> @Sendable (URL) -> Bool {
        let regex = self
        return { url in (try? regex.firstMatch(in: url.absoluteString)) != nil }
    }

    public var configurationPatternDescription: String { "/\(pattern)/" }
}

/// A URL glob compiled to an anchored regular expression, following Siesta's rules.
struct GlobPattern {
    let regex: LinearRegex

    init(_ glob: String, baseURL: URL?) {
        var absolute = glob
        let hasScheme = glob.leadingScheme != nil
        if !hasScheme, let baseURL {
            var base = baseURL.absoluteString
            if let query = base.firstIndex(of: "?") { base = String(base[..<query]) }
            if !base.hasSuffix("/") { base += "/" }
            absolute = base + (glob.hasPrefix("/") ? String(glob.dropFirst()) : glob)
        }
        let pattern = "^" + GlobPattern.translate(absolute) + "($|\\?)"
        // The translation escapes every literal, so the pattern is always valid.
        regex = try! LinearRegex(pattern)
    }

    /// Glob syntax to regex syntax; every other character is escaped.
    static func translate(_ glob: String) -> String {
        var out = ""
        let chars = Array(glob)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "*", i + 1 < chars.count, chars[i + 1] == "*" {
                if i + 2 < chars.count, chars[i + 2] == "/" {
                    out += "(?:[^?]*/)?"
                    i += 3
                } else {
                    out += "[^?]*"
                    i += 2
                }
                continue
            }
            switch c {
            case "*": out += "[^/?]*"
            case "?": out += "[^/?]"
            case _ where "\\^$.|+()[]{}".contains(c): out += "\\" + String(c)
            default: out.append(c)
            }
            i += 1
        }
        return out
    }
}
