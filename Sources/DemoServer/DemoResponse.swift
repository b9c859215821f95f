import NIOHTTP1

/// What a demo route answers.
struct DemoResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: [(String, String)] = []
    var body: [UInt8] = []
}
