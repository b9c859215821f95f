import NIOHTTP1

/// The demo API's routes: a method and a path, or a path's start (`/orders/*`).
struct DemoRoutes: Sendable {
    typealias Handler = @Sendable (DemoRequest) async -> DemoResponse
    private var routes: [(method: HTTPMethod, path: String, prefix: Bool, handler: Handler)] = []

    /// Adds `pattern`, written `GET /path` or `GET /path/*`.
    mutating func add(_ pattern: String, _ handler: @escaping Handler) {
        let parts = pattern.split(separator: " ", maxSplits: 1)
        let path = String(parts[1])
        let prefix = path.hasSuffix("/*")
        routes.append((HTTPMethod(rawValue: String(parts[0])), prefix ? String(path.dropLast()) : path, prefix, handler))
    }

    func respond(to request: DemoRequest) async -> DemoResponse {
        let route = routes.first { route in
            route.method == request.method && (route.prefix ? request.path.hasPrefix(route.path) && request.path.count > route.path.count : request.path == route.path)
        }
        guard let route else { return DemoResponse(status: .notFound) }
        return await route.handler(request)
    }
}
