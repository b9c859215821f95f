import NIOHTTP1

/// A request as a demo route reads it: the path and its decoded query apart, header names
/// matched without regard to case, the body whole.
struct DemoRequest: Sendable {
    let method: HTTPMethod
    let path: String
    let query: [String: String]
    let headers: HTTPHeaders
    let body: [UInt8]

    init(head: HTTPRequestHead, body: [UInt8]) {
        method = head.method
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts[0])
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.percentDecoded(nameValue[0])
                if query[name] == nil { query[name] = nameValue.count > 1 ? Self.percentDecoded(nameValue[1]) : "" }
            }
        }
        self.query = query
        headers = head.headers
        self.body = body
    }

    /// The first value of the header `name`.
    func header(_ name: String) -> String? { headers.first(name: name) }

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
