import FoundationEssentials

extension Resource {
    /// The resource at `subpath` below this one. Nothing in `subpath` is interpreted: `..`, `?`
    /// and `//` are kept or escaped. `""` and `"/"` give this URL with a trailing slash.
    public func child(_ subpath: String) -> Resource {
        guard !isInvalid else { return self }
        return service.resource(absoluteURL: url.appendingVerbatimPathComponent(subpath))
    }

    /// The resource at `href` resolved against this URL, as a browser resolves a link:
    /// `./`, `../`, `/abs`, `//host` and `?query` (which replaces the query) all work.
    public func relative(_ href: String) -> Resource {
        guard !isInvalid else { return self }
        return service.resource(absoluteURL: URL(string: href, relativeTo: url)?.absoluteURL)
    }

    /// `relative(href)`, or nil when `href` is nil.
    public func optionalRelative(_ href: String?) -> Resource? {
        href.map(relative)
    }

    /// This resource with query parameter `name` set to `value` (nil removes it, "" gives a bare
    /// `?name`). Parameters are sorted by name so equivalent URLs share one resource.
    public func withParam(_ name: String, _ value: String?) -> Resource {
        withParams([name: value])
    }

    /// `withParam` for several parameters at once.
    public func withParams(_ params: [String: String?]) -> Resource {
        guard !isInvalid, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return self }
        var items: [String: String?] = [:]
        for item in components.queryItems ?? [] { items[item.name] = item.value ?? "" }
        for (name, value) in params {
            if let value { items[name] = value } else { items.removeValue(forKey: name) }
        }
        if items.isEmpty {
            components.queryItems = nil
        } else {
            components.queryItems = items.sorted { $0.key < $1.key }.map { name, value in
                URLQueryItem(name: name, value: value == "" ? nil : value)
            }
            components.percentEncodedQuery = components.percentEncodedQuery?
                .replacing("+", with: "%2B")
        }
        return service.resource(absoluteURL: components.url)
    }
}
