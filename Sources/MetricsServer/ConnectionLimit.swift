import NIOCore

/// Closes connections beyond `maximum` as they arrive (on the server channel's loop).
final class ConnectionLimit: ChannelInboundHandler, @unchecked Sendable {
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
