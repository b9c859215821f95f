import Dashboard
import Dispatch
import Glibc
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
/// own; answers are bytes rendered on the main actor once per change of the dashboard
/// (`stateChanged()`, coalesced), so a request never waits for the main actor and a flood of
/// them costs it nothing; at most `maximumConnections` at once (more are closed at once); a
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
    private let published: Published
    private let render: @MainActor @Sendable () -> (metrics: [UInt8], panes: [UInt8])?

    /// The answers as last rendered, shared with the server's thread.
    final class Published: Sendable {
        /// Bodies as buffers every answer shares (an answer writes a reference, not a copy).
        struct Answers {
            var metrics: ByteBuffer?
            var panes: ByteBuffer?
        }

        private let answers = Mutex(Answers())
        /// A render is scheduled on the main actor (changes meanwhile are taken in by it).
        let scheduled = Atomic<Bool>(false)
        /// When the last render was, in uptime nanoseconds.
        let lastRender = Atomic<UInt64>(0)

        var current: Answers { answers.withLock { $0 } }

        func set(metrics: [UInt8]?, panes: [UInt8]?) {
            let allocator = ByteBufferAllocator()
            let answers = Answers(metrics: metrics.map { allocator.buffer(bytes: $0) }, panes: panes.map { allocator.buffer(bytes: $0) })
            self.answers.withLock { $0 = answers }
        }
    }

    private init(
        address: ListenAddress, group: MultiThreadedEventLoopGroup, channel: any Channel, published: Published,
        render: @escaping @MainActor @Sendable () -> (metrics: [UInt8], panes: [UInt8])?
    ) {
        self.address = address
        self.group = group
        self.channel = channel
        self.published = published
        self.render = render
    }

    /// Listens on `address` (port 0: any free one, reported in `address`) until `stop()`.
    @MainActor
    public static func start(on address: ListenAddress, app: DashboardApp, location: String?) async throws -> MetricsServer {
        try await start(on: address, location: location) { app }
    }

    /// The same for an app made later (the dashboard's, once the terminal is set up): until
    /// `app` gives one, the endpoints answer 503. Tell it of every change (`stateChanged()`).
    @MainActor
    public static func start(
        on address: ListenAddress, location: String?, app: @escaping @MainActor @Sendable () -> DashboardApp?
    ) async throws -> MetricsServer {
        let published = Published()
        let render: @MainActor @Sendable () -> (metrics: [UInt8], panes: [UInt8])? = {
            guard let app = app() else { return nil }
            let metrics = Array(MetricsExposition.render(app, location: location).utf8)
            let panes = (try? Snapshot.state(of: app).serialized()).map(Array.init) ?? Array("{}".utf8)
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
                    try channel.pipeline.syncOperations.addHandler(Responder(published: published))
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
        let server = MetricsServer(
            address: ListenAddress(host: address.host, port: port), group: group, channel: channel, published: published, render: render)
        server.renderNow()
        return server
    }

    /// The dashboard changed: the answers are rendered again on the main actor — at once after a
    /// quiet spell, else once more when a quarter second has passed since the last render,
    /// however many changes came meanwhile.
    @MainActor
    public func stateChanged() {
        let now = DispatchTime.now().uptimeNanoseconds
        let since = now &- published.lastRender.load(ordering: .relaxed)
        if since >= MetricsServer.renderInterval, !published.scheduled.load(ordering: .relaxed) {
            renderNow()
            return
        }
        guard !published.scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let wait = Double(MetricsServer.renderInterval &- min(since, MetricsServer.renderInterval)) / 1e9
        DispatchQueue.main.asyncAfter(deadline: .now() + wait) { @Sendable [self] in
            MainActor.assumeIsolated {
                published.scheduled.store(false, ordering: .releasing)
                renderNow()
            }
        }
    }

    /// Renders the answers now (once the dashboard has started: its panes are there).
    @MainActor
    public func publishNow() {
        renderNow()
    }

    /// The least time between two renders, in nanoseconds.
    static let renderInterval: UInt64 = 250_000_000

    @MainActor
    private func renderNow() {
        let answers = render()
        published.set(metrics: answers?.metrics, panes: answers?.panes)
        published.lastRender.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }

    public func stop() async {
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

/// Closes connections beyond `maximum` as they arrive (on the server channel's loop).
private final class ConnectionLimit: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    let maximum: Int
    private var open = 0

    init(maximum: Int) {
        self.maximum = maximum
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        guard open < maximum else {
            child.close(promise: nil)
            return
        }
        open += 1
        let loop = context.eventLoop
        child.closeFuture.whenComplete { _ in loop.execute { self.open -= 1 } }
        context.fireChannelRead(data)
    }
}

/// Answers one connection's requests in order, from the published bytes. A client that sends
/// requests faster than it reads the answers gets answers only as it reads them; more than
/// `maximumQueued` requests waiting, and it is closed.
private final class Responder: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let maximumQueued = 16

    let published: MetricsServer.Published
    private var request: HTTPRequestHead?
    /// Requests waiting for the client to read earlier answers.
    private var queued = CircularBuffer<HTTPRequestHead>()
    /// Closes a connection that does not send a whole request in time.
    private var requestDeadline: Scheduled<Void>?
    /// Closes a connection whose client does not read what it was sent.
    private var writeDeadline: Scheduled<Void>?

    init(published: MetricsServer.Published) {
        self.published = published
    }

    func channelActive(context: ChannelHandlerContext) {
        awaitRequest(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestDeadline?.cancel()
        writeDeadline?.cancel()
        context.fireChannelInactive()
    }

    private func awaitRequest(_ context: ChannelHandlerContext) {
        requestDeadline?.cancel()
        let channel = context.channel
        requestDeadline = context.eventLoop.scheduleTask(in: MetricsServer.requestTimeout) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            break
        case .end:
            guard let head = request else { return }
            request = nil
            if context.channel.isWritable, queued.isEmpty {
                respond(to: head, context: context)
            } else {
                queued.append(head)
                if queued.count > Responder.maximumQueued {
                    context.close(promise: nil)
                    return
                }
            }
            awaitRequest(context)
        }
    }

    /// A client that does not read: stop reading its requests until it does, and close it if
    /// it does not within the write timeout.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let writable = context.channel.isWritable
        context.channel.setOption(ChannelOptions.autoRead, value: writable).whenComplete { _ in }
        writeDeadline?.cancel()
        writeDeadline = nil
        if !writable {
            let channel = context.channel
            writeDeadline = context.eventLoop.scheduleTask(in: MetricsServer.writeTimeout) { channel.close(promise: nil) }
        }
        while context.channel.isWritable, let head = queued.popFirst() { respond(to: head, context: context) }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let answers = published.current
        var status = HTTPResponseStatus.ok
        var type = "text/plain; charset=utf-8"
        var body: ByteBuffer
        let allocator = context.channel.allocator
        switch (head.method, path) {
        case (.GET, "/metrics"), (.HEAD, "/metrics"):
            if let metrics = answers.metrics {
                type = MetricsExposition.contentType
                body = metrics
            } else {
                status = .serviceUnavailable
                body = allocator.buffer(string: "starting\n")
            }
        case (.GET, "/healthz"), (.HEAD, "/healthz"):
            body = allocator.buffer(string: "ok\n")
        case (.GET, "/api/panes"), (.HEAD, "/api/panes"):
            if let panes = answers.panes {
                type = "application/json"
                body = panes
            } else {
                status = .serviceUnavailable
                body = allocator.buffer(string: "starting\n")
            }
        default:
            status = .notFound
            body = allocator.buffer(string: "not found\n")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        let keepAlive = head.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        }
        let done = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
        if !keepAlive {
            let channel = context.channel
            done.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
