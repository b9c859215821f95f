import FoundationEssentials
import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import TextBasics

/// The built-in demo API: real HTTP on 127.0.0.1, with an endpoint for everything the dashboard
/// shows — healthy JSON, a list with ETag/304, a slow report, a flaky endpoint, a 503 with a JSON
/// message, plain-text metrics, a bearer-token endpoint, and a POST search.
public final class DemoAPI: Sendable {
    /// The token `/secure/profile` accepts.
    public static let token = "demo-token"

    private let server: DemoHTTPServer
    /// The port it listens on.
    public var port: UInt16 { server.port }

    /// `http://127.0.0.1:PORT/`
    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    private init(_ server: DemoHTTPServer) {
        self.server = server
    }

    /// Starts the API on a free port of 127.0.0.1 (or `port`), and waits until it listens.
    ///
    /// A port that is taken fails at once with a message that says so.
    public static func start(port: UInt16 = 0, slowDelay: Duration = .milliseconds(1500)) async throws -> DemoAPI {
        let state = DemoState()
        var table = DemoRoutes()
        routes(&table, state: state, slowDelay: slowDelay)
        sampleRoutes(&table, state: state)
        do {
            return DemoAPI(try await DemoHTTPServer.start(port: port, routes: table))
        } catch {
            throw DemoError(message: "the demo API cannot listen on 127.0.0.1:\(port): \(Self.reason(error))")
        }
    }

    /// Starts the API on `preferredPort` when it is free, else on any free port — at once, with
    /// no wait. A stable address lets a restarted demo show its cached data straight away.
    public static func start(preferredPort: UInt16, slowDelay: Duration = .milliseconds(1500)) async throws -> DemoAPI {
        do {
            return try await start(port: preferredPort, slowDelay: slowDelay)
        } catch {
            return try await start(port: 0, slowDelay: slowDelay)
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let io = error as? IOError {
            return io.errnoCode == EADDRINUSE ? "the port is taken" : String(cString: strerror(io.errnoCode))
        }
        return String(describing: error)
    }

    /// Stops the API.
    public func stop() async {
        await server.stop()
    }

    struct DemoError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static func json(_ status: HTTPResponseStatus, _ body: String, headers: [(String, String)] = []) -> DemoResponse {
        DemoResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(body.utf8))
    }

    private static func routes(_ routes: inout DemoRoutes, state: DemoState, slowDelay: Duration) {
        openAPIRoute(&routes)
        routes.add("GET /health") { _ in
            let uptime = await state.uptime()
            return json(.ok, #"{"status":"UP","version":"1.4.2","uptime":"\#(uptime)"}"#)
        }
        routes.add("GET /orders") { request in
            let customer = request.query["customer"]
            let (version, body) = await state.orders(of: customer)
            let etag = "\"orders-v\(version)\(customer.map { "-" + $0.unicodeScalars.filter(\.isASCII).map(String.init).joined() } ?? "")\""
            if request.header("If-None-Match") == etag {
                return DemoResponse(status: .notModified, headers: [("ETag", etag)])
            }
            return json(.ok, body, headers: [("ETag", etag)])
        }
        // One order of the list, for a pane that follows the latest (`config/chained.yaml`).
        routes.add("GET /orders/*") { request in
            let id = request.path.split(separator: "/").last.flatMap { Int($0) }
            guard let id, let body = await state.order(id) else {
                return json(.notFound, #"{"message":"No such order"}"#)
            }
            return json(.ok, body)
        }
        routes.add("GET /payments") { _ in
            json(.serviceUnavailable, #"{"message":"Payment gateway unavailable","code":"GATEWAY_DOWN"}"#)
        }
        routes.add("GET /flaky") { _ in
            let attempt = await state.nextFlaky()
            if attempt % 3 == 0 {
                return json(.internalServerError, #"{"message":"Flaked on attempt \#(attempt)"}"#)
            }
            return json(.ok, #"{"attempt":\#(attempt),"ok":true}"#)
        }
        routes.add("GET /slow") { _ in
            try? await Task.sleep(for: slowDelay)
            return json(.ok, #"{"report":"daily sales","rows":1200,"total":"48213.50"}"#)
        }
        routes.add("GET /metrics") { _ in
            let (requests, errors) = await state.metrics()
            let text = """
                # HELP http_requests_total Requests served.
                http_requests_total \(requests)
                # HELP errors_total Requests that failed.
                errors_total \(errors)

                """
            return DemoResponse(status: .ok, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")], body: Array(text.utf8))
        }
        routes.add("GET /secure/profile") { request in
            guard request.header("Authorization") == "Bearer \(token)" else {
                return json(.unauthorized, #"{"message":"Missing or invalid bearer token"}"#, headers: [("WWW-Authenticate", "Bearer")])
            }
            return json(.ok, #"{"name":"Ada Lovelace","plan":"pro","seats":12}"#)
        }
        routes.add("POST /search") { request in
            let body = request.bodyText
            let count = await state.searchCount(for: body)
            return json(.ok, #"{"count":\#(count),"took":"12ms"}"#)
        }
    }
}

/// The demo API's changing state.
actor DemoState {
    private let started = Date()
    private var flakyCalls = 0
    private var requests = 1000
    private var errors = 3
    private var shopTokens: [String: Date] = [:]

    /// A new shop token, good for `lifetime` seconds.
    func issueShopToken(lifetime: TimeInterval) -> String {
        let now = Date()
        shopTokens = shopTokens.filter { $0.value > now }
        let token = "shop-" + (0..<16).map { _ in String(printf: "%02x", UInt8.random(in: 0...255)) }.joined()
        shopTokens[token] = now.addingTimeInterval(lifetime)
        return token
    }

    /// True for a token this server issued that has not expired.
    func shopTokenIsValid(_ token: String) -> Bool {
        shopTokens[token].map { $0 > Date() } ?? false
    }

    func uptime() -> String {
        let seconds = Int(Date().timeIntervalSince(started))
        return seconds < 60 ? "\(seconds)s" : "\(seconds / 60)m \(seconds % 60)s"
    }

    /// The open orders; the list (and its ETag) changes every 20 seconds.
    /// The list, or the items of one customer's (`?customer=Ada Lovelace`).
    func orders(of customer: String? = nil) -> (Int, String) {
        let version = Int(Date().timeIntervalSince(started) / 20)
        let customers = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth"]
        let items = (0..<4).compactMap { i -> String? in
            let id = 1021 + version + i
            let total = String(printf: "%.2f", Double((id * 37) % 9000) / 100 + 5)
            let name = customers[(version + i) % customers.count]
            if let customer, customer != name { return nil }
            return #"{"id":\#(id),"customer":"\#(name)","total":"\#(total)"}"#
        }
        return (version, #"{"items":[\#(items.joined(separator: ","))],"page":1}"#)
    }

    /// One order of the list as it is now (or was, within the last hour), with its lines; nil
    /// for an id the list has never held.
    func order(_ id: Int) -> String? {
        let version = Int(Date().timeIntervalSince(started) / 20)
        guard id >= 1021, id <= 1024 + version, id >= 1021 + version - 180 else { return nil }
        let customers = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth"]
        let customer = customers[(id - 1021) % customers.count]
        let status = id >= 1021 + version ? "paid" : id >= 1021 + version - 3 ? "packed" : "shipped"
        let products = ["Keyboard", "Monitor", "Cable", "Dock", "Mouse"]
        let lines = (0..<(1 + id % 3)).map { i in #"{"product":"\#(products[(id + i) % products.count])","quantity":\#(1 + (id + i) % 4)}"# }
        return #"{"id":\#(id),"customer":"\#(customer)","status":"\#(status)","lines":[\#(lines.joined(separator: ","))]}"#
    }

    func nextFlaky() -> Int {
        flakyCalls += 1
        return flakyCalls
    }

    func metrics() -> (Int, Int) {
        requests += Int.random(in: 5...40)
        if Int.random(in: 0..<5) == 0 { errors += 1 }
        return (requests, errors)
    }

    /// Free disk space for the actuator sample; shrinks a little on every look.
    func diskFree() -> Int {
        requests += 1
        return 212_300_000_000 - requests * 4096
    }

    func searchCount(for body: String) -> Int {
        body.contains("failed") ? 17 + flakyCalls % 3 : 0
    }
}
