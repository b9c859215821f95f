import FoundationEssentials

/// `HOST:PORT` for `--listen`: an IPv4 address (or `localhost`) and a port. Loopback unless the
/// user names another address.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: UInt16

    public struct Problem: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public init(parsing text: String) throws(Problem) {
        let example = "give an IPv4 address and a port, e.g. 127.0.0.1:9464 (0.0.0.0:9464 to listen on every interface)"
        guard let colon = text.lastIndex(of: ":") else { throw Problem(message: "\"\(text)\" has no port: \(example)") }
        var host = String(text[..<colon])
        if host == "localhost" { host = "127.0.0.1" }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }) else {
            throw Problem(message: "\"\(text)\": \(host.isEmpty ? "no address" : "\"\(host)\" is not an IPv4 address"); \(example)")
        }
        guard let port = UInt16(text[text.index(after: colon)...]) else {
            throw Problem(message: "\"\(text)\": the port must be a number from 0 to 65535; \(example)")
        }
        self.host = host
        self.port = port
    }

    public var isLoopback: Bool { host.hasPrefix("127.") }
    public var description: String { "\(host):\(port)" }
}
