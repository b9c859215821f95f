import FoundationEssentials
import TextBasics

extension URL {
    /// Bytes a path segment may carry unescaped (a path's allowed set but `%` and `;`): `%` is
    /// escaped so nothing arrives pre-encoded.
    private static func verbatimPathAllowed(_ byte: UInt8) -> Bool {
        byte.isURIUnreserved || "!$&'()*+,=:@/".utf8.contains(byte)
    }

    /// This URL with `component` appended to its path exactly as written.
    ///
    /// Nothing in `component` is interpreted: `..`, `//`, `?` and `scheme:` stay part of the path,
    /// and every character outside a path's allowed set (including `%`) is percent-escaped. A `/`
    /// is put between the two unless the path already ends in one or `component` starts with one;
    /// no slashes are merged (Foundation on Linux merges `v1/` + `/x` into `v1/x`). The query is kept.
    func appendingVerbatimPathComponent(_ component: String) -> URL? {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return nil }
        let escaped = component.percentEncoded(allowing: Self.verbatimPathAllowed)
        var path = components.percentEncodedPath
        if !path.hasSuffix("/") && !escaped.hasPrefix("/") { path += "/" }
        path += escaped
        // A path that starts with `//` would read as an authority in a URL without a host.
        if components.host == nil && path.hasPrefix("//") { return nil }
        components.percentEncodedPath = path
        return components.url
    }

    /// `string` parsed strictly: characters a URL may not contain make it nil, rather than being
    /// percent-encoded into something the user did not write (`"\0"` → `%00`).
    static func strict(_ string: String) -> URL? {
        URL(string: string, encodingInvalidCharacters: false)
    }
}
