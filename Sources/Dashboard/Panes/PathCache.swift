import ResourceEngine

/// Parsed JSON paths by their text, so a frame does not parse every pane's paths again.
@MainActor
enum PathCache {
    private static var parsed: [String: JSONPath] = [:]

    static func path(_ text: String) -> JSONPath? {
        if let cached = parsed[text] { return cached }
        guard let path = try? JSONPath(text) else { return nil }
        if parsed.count > 10_000 { parsed.removeAll() }
        parsed[text] = path
        return path
    }
}
