import Monitor
import NIOCore
import NIOHTTP1

/// Answers one connection's requests in order, one at a time, from the published bytes (a
/// request for the dashboard's state may wait for them to be rendered). A client that sends
/// requests faster than it reads the answers gets answers only as it reads them; more than
/// `maximumQueued` requests waiting, and it is closed.
final class MetricsResponder: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let maximumQueued = 16

    let published: PublishedAnswers
    private var request: HTTPRequestHead?
    /// Requests waiting for the client to read earlier answers, or for the one being answered.
    private var queued = CircularBuffer<HTTPRequestHead>()
    /// A request is waiting for its answer's bytes.
    private var answering = false
    /// Closes a connection that does not send a whole request in time.
    private var requestDeadline: Scheduled<Void>?
    /// Closes a connection whose client does not read what it was sent.
    private var writeDeadline: Scheduled<Void>?

    init(published: PublishedAnswers) {
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
            queued.append(head)
            if queued.count > MetricsResponder.maximumQueued {
                context.close(promise: nil)
                return
            }
            answerNext(context)
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
        answerNext(context)
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Answers the first queued request, and the next once it is written, while the client reads.
    private func answerNext(_ context: ChannelHandlerContext) {
        guard !answering, context.channel.isWritable, let head = queued.popFirst() else { return }
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        guard path == "/metrics" || path == "/api/panes" else {
            respond(to: head, path: path, answers: PublishedAnswers.Answers(), context: context)
            return answerNext(context)
        }
        answering = true
        published.answers(on: context.eventLoop).assumeIsolated().whenSuccess { answers in
            self.answering = false
            guard context.channel.isActive else { return }
            self.respond(to: head, path: path, answers: answers, context: context)
            self.answerNext(context)
        }
    }

    private func respond(to head: HTTPRequestHead, path: String, answers: PublishedAnswers.Answers, context: ChannelHandlerContext) {
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
                body = allocator.buffer(string: answers.stopping ? "stopping\n" : "starting\n")
            }
        case (.GET, "/healthz"), (.HEAD, "/healthz"):
            body = allocator.buffer(string: "ok\n")
        case (.GET, "/api/panes"), (.HEAD, "/api/panes"):
            if let panes = answers.panes {
                type = "application/json"
                body = panes
            } else {
                status = .serviceUnavailable
                body = allocator.buffer(string: answers.stopping ? "stopping\n" : "starting\n")
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
