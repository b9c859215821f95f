import LoopbackHTTP

/// A real HTTP server on 127.0.0.1, on a free port, for integration tests.
public typealias LocalTestServer = LoopbackServer

extension LoopbackServer {
    /// Why a test server could not start.
    public struct ServerError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
