import NIOCore
import NIOHTTP1

/// Reads one request at a time (NIO's pipelining assistance holds the next until this one is
/// answered) and answers it from a task, so a slow route never blocks the event loop.
final class DemoRequestHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let routes: DemoRoutes
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(routes: DemoRoutes) {
        self.routes = routes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(var buffer):
            guard head != nil else { return }
            if body.count + buffer.readableBytes > DemoHTTPServer.maximumBody {
                head = nil
                write(DemoResponse(status: .payloadTooLarge), keepAlive: false, version: .http1_1, context: context)
                return
            }
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            self.head = nil
            let request = DemoRequest(head: head, body: body)
            body = []
            let routes = routes
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            Task {
                let response = await routes.respond(to: request)
                loop.execute {
                    let (handler, context) = bound.value
                    guard context.channel.isActive else { return }
                    handler.write(response, keepAlive: head.isKeepAlive, version: head.version, context: context)
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func write(_ response: DemoResponse, keepAlive: Bool, version: HTTPVersion, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(response.headers)
        if response.status != .notModified { headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count)) }
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: response.status, headers: headers))), promise: nil)
        if !response.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        }
        let done = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
        if !keepAlive {
            let channel = context.channel
            done.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
