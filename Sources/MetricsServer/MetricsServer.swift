import Dispatch
import Glibc
import Monitor
import NIOCore
import NIOHTTP1
import NIOPosix
import ResourceEngine
import Synchronization

/// Serves a running dashboard's state over HTTP, reads only:
/// - `GET /metrics`: every pane in Prometheus's text format (`MetricsExposition`);
/// - `GET /healthz`: `ok`, while Hammock runs;
/// - `GET /api/panes`: the panes as `snapshot --json` gives them, live.
/// Anything else is 404; nothing can change the dashboard through it.
///
/// Built so that no client can stop the probing or the listener: SwiftNIO on a thread of its
/// own; answers are bytes rendered on the main actor only when a request finds the dashboard
/// changed since the last render, and then at most four times a second however many requests
/// come (`PublishedAnswers`): nobody asking costs nothing, a flood costs the main actor little; at most `maximumConnections` at once (more are closed at once); a
/// request must arrive whole within `requestTimeout`; a client that stops reading stops being
/// read (its queue is bounded by the channel's write buffer) and is closed after
/// `writeTimeout`; running out of descriptors pauses accepting, then it goes on (NIO's accept
/// back-off), instead of closing the listener for good.
public final class MetricsServer: Sendable {
    public let address: ListenAddress
    /// The most connections served at once.
    public static let maximumConnections = 128
    /// How long a client has to send a whole request (headers), from its connection or from the
    /// previous answer.
    public static let requestTimeout: TimeAmount = .seconds(10)
    /// How long an answer may wait for a client that does not read it.
    public static let writeTimeout: TimeAmount = .seconds(10)

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let published: PublishedAnswers

    private init(address: ListenAddress, group: MultiThreadedEventLoopGroup, channel: any Channel, published: PublishedAnswers) {
        self.address = address
        self.group = group
        self.channel = channel
        self.published = published
    }

    /// Listens on `address` (port 0: any free one, reported in `address`) until `stop()`.
    @MainActor
    public static func start(on address: ListenAddress, monitor: Monitor, location: String?) async throws -> MetricsServer {
        try await start(on: address, location: location) { monitor }
    }

    /// The same for a monitor made later (the dashboard's, once the terminal is set up): until
    /// `monitor` gives one, the endpoints answer 503. Tell it of every change (`stateChanged()`).
    @MainActor
    public static func start(
        on address: ListenAddress, location: String?, monitor: @escaping @MainActor @Sendable () -> Monitor?
    ) async throws -> MetricsServer {
        let published = PublishedAnswers {
            guard let monitor = monitor() else { return nil }
            let metrics = Array(MetricsExposition.render(monitor, location: location).utf8)
            let panes = (try? PaneStates.json(of: monitor).serialized()).map(Array.init) ?? Array("{}".utf8)
            return (metrics, panes)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let connections = ConnectionLimit(maximum: maximumConnections)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler(shouldForwardIOErrorCaught: false))
                    try channel.pipeline.syncOperations.addHandler(connections)
                }
            }
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 32 << 10, high: 256 << 10))
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: true).flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(MetricsResponder(published: published))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: address.host, port: Int(address.port)).get()
        } catch {
            try? await group.shutdownGracefully()
            throw ListenAddress.Problem(message: "cannot listen on \(address): \(reason(error))")
        }
        let port = channel.localAddress?.port.map(UInt16.init) ?? address.port
        return MetricsServer(address: ListenAddress(host: address.host, port: port), group: group, channel: channel, published: published)
    }

    /// The dashboard changed: the next request that needs its state renders it again.
    public func stateChanged() {
        published.markStale()
    }

    /// The dashboard has started (its panes are there): the next request renders them.
    public func publishNow() {
        published.markStale()
    }

    public func stop() async {
        published.stop()
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    private static func reason(_ error: any Error) -> String {
        if let io = error as? IOError {
            switch io.errnoCode {
            case EADDRINUSE: return "the port is taken"
            case EADDRNOTAVAIL: return "no interface of this machine has that address"
            case EACCES: return "permission denied (ports under 1024 need privileges)"
            default: return String(cString: strerror(io.errnoCode))
            }
        }
        return "\(error)"
    }
}
