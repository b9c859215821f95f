import FlyingSocks
import Glibc

/// FlyingFox's socket pool with Nagle's algorithm turned off on every socket it waits for.
///
/// FlyingFox writes a response's header and body in two writes. With Nagle on, the body waits
/// for the client's delayed ACK of the header — 40 ms on Linux — on every request after the
/// first on a kept-alive connection, so latencies read 40 ms and throughput caps near 25
/// requests a second per connection. The listening socket is set too, and accepted sockets
/// inherit it.
public struct NoDelaySocketPool<Base: AsyncSocketPool>: AsyncSocketPool {
    let base: Base

    public init(_ base: Base) {
        self.base = base
    }

    public func prepare() async throws {
        try await base.prepare()
    }

    public func run() async throws {
        try await base.run()
    }

    public func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: Int32(TCP_NODELAY)))
        try await base.suspendSocket(socket, untilReadyFor: events)
    }
}
