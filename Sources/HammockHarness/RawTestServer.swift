import Foundation
import Glibc

/// A raw TCP server on 127.0.0.1 that answers every connection with the bytes a test chose,
/// HTTP or not, then closes it: for answers no HTTP server library would send (garbage status
/// lines, HTTP/0.9, a mail server's banner, a megabyte of header, lying Content-Lengths).
public final class RawTestServer: Sendable {
    private let listener: LoopbackListener
    /// The port it listens on.
    public var port: UInt16 { listener.port }

    /// `http://127.0.0.1:PORT/`
    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// Listens; each connection's request is read up to its blank line, then `answer(path)` is
    /// written and the connection closed.
    public convenience init(answer: @escaping @Sendable (String) -> Data) throws {
        try self.init { path, _ in answer(path) }
    }

    /// As above, with the request's head as it came (request line and header lines, CRLF
    /// separated) for answers about exactly what a client sent.
    public init(answerRequest answer: @escaping @Sendable (_ path: String, _ head: String) -> Data) throws {
        listener = try LoopbackListener("the raw server") { client in
            var request = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while request.range(of: Data("\r\n\r\n".utf8)) == nil {
                let count = recv(client, &buffer, buffer.count, 0)
                if count <= 0 { break }
                request.append(contentsOf: buffer[0..<count])
            }
            let head = String(decoding: request, as: UTF8.self)
            let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self)
            let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let bytes = answer(path, head)
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let sent = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if sent <= 0 { break }
                    offset += sent
                }
            }
            shutdown(client, Int32(SHUT_WR))
            // Let the client read everything before the socket goes.
            while recv(client, &buffer, buffer.count, 0) > 0 {}
            close(client)
        }
    }

    public func stop() {
        listener.stop()
    }
}
