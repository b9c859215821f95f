import Foundation
import Glibc

/// Looks at this process's own TCP sockets, for tests of how a server configures them.
public enum SocketInspector {
    /// `TCP_NODELAY` of every TCP socket in this process whose local port is `port`: the
    /// listening socket and each accepted connection of a server running in the test process.
    public static func noDelay(localPort port: UInt16) -> [Bool] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap(Int32.init).compactMap { fd in
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0, address.sin_family == sa_family_t(AF_INET), UInt16(bigEndian: address.sin_port) == port else { return nil }
            var value: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, Int32(IPPROTO_TCP), Int32(TCP_NODELAY), &value, &size) == 0 else { return nil }
            return value != 0
        }
    }
}
