import FlyingFox
import FlyingSocks
import Foundation

/// A FlyingFox server on 127.0.0.1 and the task that runs it: the tests' and the bench's.
///
/// Routes are added before it starts; it never listens anywhere but the loopback address.
public final class LoopbackServer: Sendable {
    /// The FlyingFox server, for routes added while it runs.
    public let server: HTTPServer
    private let task: Task<Void, any Error>
    /// The port it listens on.
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

    /// Starts a server on `port` (0: a free one), lets `routes` add its routes, and waits until
    /// it listens; a port that is taken fails at once.
    ///
    /// - Parameters:
    ///   - handlerTimeout: how long a handler may run before FlyingFox answers 500.
    ///   - listenTimeout: how long it may take to listen (a test's server, beside CPU hogs, took
    ///     over 10 s); a taken port fails at once whatever it is.
    public static func start(
        port: UInt16 = 0, handlerTimeout: TimeInterval = 60, listenTimeout: TimeInterval = 60, routes: @Sendable (HTTPServer) async -> Void
    ) async throws -> LoopbackServer {
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: port), timeout: handlerTimeout,
            pool: NoDelaySocketPool(HTTPServer.defaultPool()), logger: .disabled)
        await routes(server)
        let (task, actual) = try await server.launch(timeout: listenTimeout)
        return LoopbackServer(server: server, task: task, port: actual)
    }

    /// Stops the server and closes its connections, including ones whose handlers still run.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}
