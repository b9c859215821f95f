import FlyingFox
import FlyingSocks
import Foundation
import LoopbackHTTP

/// A real HTTP server on 127.0.0.1, on a free port, for integration tests and the demo.
///
/// Wraps FlyingFox. Routes are added before the server starts; `stop()` ends it. Never listens
/// anywhere but the loopback address.
public final class LocalTestServer: Sendable {
    public let server: HTTPServer
    private let task: Task<Void, any Error>
    /// The port the server listens on.
    public let port: UInt16

    /// `http://127.0.0.1:PORT/`
    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// The absolute URL for `path` ("/health" → "http://127.0.0.1:PORT/health").
    public func url(_ path: String) -> String {
        baseURL + (path.hasPrefix("/") ? String(path.dropFirst()) : path)
    }

    private init(server: HTTPServer, task: Task<Void, any Error>, port: UInt16) {
        self.server = server
        self.task = task
        self.port = port
    }

    /// Starts a server, lets `routes` add its routes, and waits until it is listening.
    ///
    /// - Parameter handlerTimeout: how long a handler may run before FlyingFox answers 500.
    public static func start(
        handlerTimeout: TimeInterval = 60,
        routes: @Sendable (HTTPServer) async -> Void
    ) async throws -> LocalTestServer {
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0), timeout: handlerTimeout,
            pool: NoDelaySocketPool(HTTPServer.defaultPool()), logger: .disabled)
        await routes(server)
        let (task, port) = try await server.launch()
        return LocalTestServer(server: server, task: task, port: port)
    }

    /// Stops the server and closes its connections, including ones whose handlers still run.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }

    public struct ServerError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
