import Foundation
import Glibc

/// A raw TCP listener on 127.0.0.1, a free port, each accepted connection handed to `serve` on a
/// thread of its own (never the global queues, which the test process's servers need): the one
/// socket listener under the servers that answer what no HTTP library would.
public final class LoopbackListener: Sendable {
    /// The port it listens on.
    public let port: UInt16
    private let fd: Int32

    /// Listens; `serve` gets each connection's descriptor and closes it.
    public init(_ what: String, serve: @escaping @Sendable (_ client: Int32) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else {
            if fd >= 0 { close(fd) }
            throw LocalTestServer.ServerError(message: "cannot listen for \(what)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        let listener = fd
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                Thread.detachNewThread { serve(client) }
            }
        }
    }

    /// Stops accepting; connections being served run to their end.
    public func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
