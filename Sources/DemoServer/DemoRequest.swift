import NIOHTTP1
import TextBasics

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

    /// `%XX` decoded; a malformed escape is kept as written.
    private static func percentDecoded(_ text: Substring) -> String {
        text.percentDecoded ?? String(text)
    }
}
