import NIOCore
import NIOHTTP1
import NIOPosix

/// The demo API's HTTP/1.1 server on 127.0.0.1, on SwiftNIO (one event loop thread): keep-alive,
/// pipelined requests answered in order, Nagle off so latencies are the handlers' own.
final class DemoHTTPServer: Sendable {
    /// The largest request body read; a larger one is answered 413 and the connection closed.
    static let maximumBody = 1 << 20

    let port: UInt16
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    private init(port: UInt16, group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.port = port
        self.group = group
        self.channel = channel
    }

    /// Listens on 127.0.0.1:`port` (0: a free one).
    static func start(port: UInt16, routes: DemoRoutes) async throws -> DemoHTTPServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true).flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(DemoRequestHandler(routes: routes))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: "127.0.0.1", port: Int(port)).get()
            return DemoHTTPServer(port: channel.localAddress?.port.map(UInt16.init) ?? port, group: group, channel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Stops listening and closes every connection, answered or not.
    func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}
