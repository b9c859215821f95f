import FlyingFox
import FlyingSocks
import Foundation
import Glibc
import LoopbackHTTP

/// A test server on 127.0.0.1 whose endpoints misbehave in every way a monitor must survive.
///
/// Paths: `/good` (the recovery case: small JSON), `/hang` (never answers), `/cut` (closes the
/// connection mid-body), `/loop` (redirects to itself), `/huge` (10 MB), `/invalid-json`,
/// `/json-as-text` (JSON labelled text/plain), `/bad-utf8`, `/escapes` (terminal escape sequences),
/// `/many-headers` (1,000 headers), `/status/N` (any status code), `/drip` (one byte per second).
/// `resetURL` is a separate raw listener that resets every connection.
public final class HostileServer: Sendable {
    public let http: LocalTestServer
    private let reset: ResetListener
    private let switchable: Switchable

    /// What `/switchable` does now.
    public enum Behaviour: String, Sendable, CaseIterable {
        case good, hang, cut, loop, huge, invalidJSON, badUTF8, serverError
    }

    /// Changes what `/switchable` does from the next request on.
    public func setBehaviour(_ behaviour: Behaviour) async {
        await switchable.set(behaviour)
    }

    actor Switchable {
        var behaviour: Behaviour = .good
        func set(_ value: Behaviour) { behaviour = value }
    }

    public var baseURL: String { http.baseURL }
    /// A URL whose server answers every connection with a TCP reset.
    public var resetURL: String { "http://127.0.0.1:\(reset.port)/reset" }

    public static let escapeBody = "ok\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[31mred\u{1B}[0m\u{9B}6n\r\nsecond\u{08}line"

    private init(http: LocalTestServer, reset: ResetListener, switchable: Switchable) {
        self.http = http
        self.reset = reset
        self.switchable = switchable
    }

    public static func start() async throws -> HostileServer {
        let switchable = Switchable()
        let http = try await LocalTestServer.start { server in
            await server.appendRoute("GET /switchable") { request in
                switch await switchable.behaviour {
                case .good: return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "application/json"]), body: Data(#"{"status":"UP"}"#.utf8))
                case .hang:
                    try await Task.sleep(for: .seconds(120))
                    return HTTPResponse(statusCode: .ok)
                case .cut: return ScriptedBody([.bytes(Data("{".utf8)), .fail]).response(declaredLength: 100, contentType: "application/json")
                case .loop: return HTTPResponse(statusCode: .found, headers: HTTPHeaders([.location: "/switchable"]))
                case .huge: return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "text/plain"]), body: Data(repeating: 65, count: 10 << 20))
                case .invalidJSON: return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "application/json"]), body: Data("{nope".utf8))
                case .badUTF8: return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "text/plain"]), body: Data([0xFF, 0xFE]))
                case .serverError: return HTTPResponse(statusCode: .internalServerError, headers: HTTPHeaders([.contentType: "application/json"]), body: Data(#"{"message":"boom"}"#.utf8))
                }
            }
            await server.appendRoute("GET /good") { _ in
                HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "application/json"]), body: Data(#"{"status":"UP"}"#.utf8))
            }
            await server.appendRoute("GET /hang") { _ in
                try await Task.sleep(for: .seconds(120))
                return HTTPResponse(statusCode: .ok)
            }
            await server.appendRoute("GET /cut") { _ in
                ScriptedBody([.bytes(Data(#"{"partial":"#.utf8)), .fail]).response(declaredLength: 5000, contentType: "application/json")
            }
            await server.appendRoute("GET /loop") { _ in
                HTTPResponse(statusCode: .found, headers: HTTPHeaders([.location: "/loop"]))
            }
            await server.appendRoute("GET /huge") { _ in
                HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "text/plain"]), body: Data(repeating: UInt8(ascii: "x"), count: 10 << 20))
            }
            await server.appendRoute("GET /huge-chunked") { _ in
                let chunk = Data(repeating: UInt8(ascii: "y"), count: 64 * 1024)
                return ScriptedBody(Array(repeating: .bytes(chunk), count: 160)).response(contentType: "text/plain")
            }
            await server.appendRoute("GET /invalid-json") { _ in
                HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "application/json"]), body: Data(#"{"status": "UP", oops}"#.utf8))
            }
            await server.appendRoute("GET /json-as-text") { _ in
                HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "text/plain"]), body: Data(#"{"status":"UP"}"#.utf8))
            }
            await server.appendRoute("GET /bad-utf8") { _ in
                HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "text/plain; charset=utf-8"]), body: Data([0x6F, 0x6B, 0xC3, 0x28, 0xFF]))
            }
            await server.appendRoute("GET /escapes") { _ in
                HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "text/plain; charset=utf-8"]), body: Data(escapeBody.utf8))
            }
            await server.appendRoute("GET /many-headers") { _ in
                var headers = HTTPHeaders([.contentType: "application/json"])
                for i in 0..<1000 { headers[HTTPHeader("X-Header-\(i)")] = "value-\(i)" }
                return HTTPResponse(statusCode: .ok, headers: headers, body: Data(#"{"headers":1000}"#.utf8))
            }
            await server.appendRoute("GET /status/:code") { (request: HTTPRequest) in
                let code = Int(request.path.split(separator: "/").last ?? "") ?? 500
                // 204 and 205 carry no body (RFC 9110).
                let body = code == 204 || code == 205 ? Data() : Data(#"{"code":\#(code)}"#.utf8)
                return HTTPResponse(statusCode: HTTPStatusCode(code, phrase: "Status \(code)"), headers: HTTPHeaders([.contentType: "application/json"]), body: body)
            }
            await server.appendRoute("GET /drip") { _ in
                ScriptedBody(Array(repeating: [.bytes(Data("x".utf8)), .pause(.seconds(1))], count: 60).flatMap { $0 })
                    .response(declaredLength: 60, contentType: "text/plain")
            }
        }
        return HostileServer(http: http, reset: try ResetListener(), switchable: switchable)
    }

    public func stop() async {
        await http.stop()
        reset.stop()
    }
}

/// A raw TCP listener on 127.0.0.1 that accepts each connection and resets it (SO_LINGER 0).
final class ResetListener: Sendable {
    private let listener: LoopbackListener
    var port: UInt16 { listener.port }

    init() throws {
        listener = try LoopbackListener("the reset server") { client in
            var buffer = [UInt8](repeating: 0, count: 1024)
            _ = recv(client, &buffer, buffer.count, 0)
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(client)
        }
    }

    func stop() {
        listener.stop()
    }
}
