import Dashboard
import FlyingFox
import FlyingSocks
import Foundation
import LoopbackHTTP
import ResourceEngine

/// Serves a running dashboard's state over HTTP, reads only:
/// - `GET /metrics`: every pane in Prometheus's text format (`MetricsExposition`);
/// - `GET /healthz`: `ok`, while Hammock runs;
/// - `GET /api/panes`: the panes as `snapshot --json` gives them, live.
/// Anything else is 404; nothing can change the dashboard through it.
public final class MetricsServer: Sendable {
    public let address: ListenAddress
    private let task: Task<Void, any Error>

    private init(address: ListenAddress, task: Task<Void, any Error>) {
        self.address = address
        self.task = task
    }

    /// Listens on `address` (port 0: any free one, reported in `address`) until `stop()`.
    public static func start(on address: ListenAddress, app: DashboardApp, location: String?) async throws -> MetricsServer {
        try await start(on: address, location: location) { app }
    }

    /// The same for an app made later (the dashboard's, once the terminal is set up): until
    /// `app` gives one, the endpoints answer 503.
    public static func start(
        on address: ListenAddress, location: String?, app: @escaping @MainActor @Sendable () -> DashboardApp?
    ) async throws -> MetricsServer {
        let server = HTTPServer(
            address: try .inet(ip4: address.host, port: address.port), timeout: 15, pool: NoDelaySocketPool(HTTPServer.defaultPool()),
            logger: .disabled)
        let metrics: @MainActor @Sendable () -> String? = { app().map { MetricsExposition.render($0, location: location) } }
        let panes: @MainActor @Sendable () -> Data? = { app().map { (try? Snapshot.state(of: $0).serialized()) ?? Data("{}".utf8) } }
        let starting = HTTPResponse(statusCode: .serviceUnavailable, headers: HTTPHeaders([.contentType: "text/plain; charset=utf-8"]), body: Data("starting\n".utf8))
        await server.appendRoute("GET /metrics") { _ in
            guard let text = await MainActor.run(body: { metrics() }) else { return starting }
            return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: MetricsExposition.contentType]), body: Data(text.utf8))
        }
        await server.appendRoute("GET /healthz") { _ in
            HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "text/plain; charset=utf-8"]), body: Data("ok\n".utf8))
        }
        await server.appendRoute("GET /api/panes") { _ in
            guard let body = await MainActor.run(body: { panes() }) else { return starting }
            return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "application/json"]), body: body)
        }
        do {
            let (task, port) = try await server.launch()
            return MetricsServer(address: ListenAddress(host: address.host, port: port), task: task)
        } catch {
            throw ListenAddress.Problem(message: "cannot listen on \(address): \(reason(error))")
        }
    }

    public func stop() async {
        task.cancel()
        _ = await task.result
    }

    private static func reason(_ error: any Error) -> String {
        if let socket = error as? SocketError, case .failed(_, let errno, _) = socket {
            switch errno {
            case EADDRINUSE: return "the port is taken"
            case EADDRNOTAVAIL: return "no interface of this machine has that address"
            case EACCES: return "permission denied (ports under 1024 need privileges)"
            default: return String(cString: strerror(errno))
            }
        }
        return "\(error)"
    }
}
