import ResourceEngine

/// Parsed JSON paths by their text, so a frame does not parse every pane's paths again.
@MainActor
public enum PathCache {
    private static var parsed: [String: JSONPath] = [:]

    /// The path `text` writes, parsed once; nil when it is not one.
    public static func path(_ text: String) -> JSONPath? {
        if let cached = parsed[text] { return cached }
        guard let path = try? JSONPath(text) else { return nil }
        if parsed.count > 10_000 { parsed.removeAll() }
        parsed[text] = path
        return path
    }
}
