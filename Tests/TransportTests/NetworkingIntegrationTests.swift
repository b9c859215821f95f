import FlyingFox
import Foundation
import HammockHarness
import LoopbackHTTP
import ResourceEngine
import ResourceEngineTesting
import Synchronization
import Testing
import URLSessionNetworking

/// Both real networking providers against a real HTTP server on 127.0.0.1: every behaviour the
/// engine relies on must hold for `URLSessionProvider` (the engine's default) and `CurlProvider`
/// (what `hammock` uses).
@MainActor
@Suite(.serialized) struct NetworkingIntegrationTests {
    private func withServer(
        _ transport: Transport,
        maxResponseBytes: Int = URLSessionProvider.defaultMaxResponseBytes,
        routes: @Sendable (HTTPServer) async -> Void,
        _ body: @MainActor (LocalTestServer, Service) async throws -> Void
    ) async throws {
        let server = try await LocalTestServer.start(routes: routes)
        let service = Service(baseURL: server.baseURL, networking: transport.provider(maxResponseBytes: maxResponseBytes))
        do {
            try await body(server, service)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func theTestServerTurnsNagleOffSoKeptAliveRequestsAreNotDelayed(transport: Transport) async throws {
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /ping") { _ in HTTPResponse(statusCode: .ok, body: Data("pong".utf8)) }
        }) { server, service in
            for _ in 0..<2 { _ = try await service.resource("/ping").load().awaitResult() }
            let sockets = SocketInspector.noDelay(localPort: server.port)
            #expect(sockets.count >= 2, "the listening socket and the kept-alive connection")
            #expect(sockets.allSatisfy { $0 }, "every server socket has TCP_NODELAY: \(sockets)")
        }
    }

    @Test(arguments: Transport.allCases)
    func loadsABodyWithItsHeaders(transport: Transport) async throws {
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /health") { _ in
                HTTPResponse(
                    statusCode: .ok, headers: [.contentType: "application/json", HTTPHeader("X-Version"): "1.4.2"],
                    body: Data(#"{"status":"UP"}"#.utf8))
            }
        }) { _, service in
            let resource = service.resource("/health")
            _ = try await resource.load().awaitResult()
            let data = try #require(resource.latestData)
            #expect(data.json == ["status": "UP"])
            #expect(data.contentType == "application/json")
            #expect(data.header(forKey: "x-version") == "1.4.2")
            #expect(resource.latestMetrics?.statusCode == 200)
            #expect((resource.latestMetrics?.latency ?? -1) >= 0)
        }
    }

    /// Over either provider (libcurl's answers are parsed on its own thread, URLSession's on a
    /// background queue), the same bytes twice get the content parsed the first time; other
    /// bytes are parsed anew.
    @Test(arguments: Transport.allCases)
    func theSameBodyTwiceIsParsedOnce(transport: Transport) async throws {
        let version = Mutex(1)
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /health") { _ in
                let body = #"{"status":"UP","version":\#(version.withLock { $0 })}"#
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(body.utf8))
            }
        }) { _, service in
            let resource = service.resource("/health")
            var parsed: [JSON] = []
            for bump in [false, false, true] {
                if bump { version.withLock { $0 += 1 } }
                _ = try await resource.load().awaitResult()
                parsed.append(try #require(resource.latestData?.json))
            }
            #expect(parsed[1].isIdentical(to: parsed[0]))
            #expect(!parsed[2].isIdentical(to: parsed[1]))
            #expect(parsed[2] == ["status": "UP", "version": 2])
        }
    }

    @Test(arguments: Transport.allCases, [(404, "Not Found"), (500, "Internal Server Error"), (503, "Service Unavailable")])
    func httpErrorsCarryStatusMessageAndBody(transport: Transport, expected: (status: Int, message: String)) async throws {
        let (status, message) = expected
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /fail") { _ in
                HTTPResponse(
                    statusCode: HTTPStatusCode(status, phrase: "x"), headers: [.contentType: "application/json"],
                    body: Data(#"{"message":"gateway down"}"#.utf8))
            }
        }) { _, service in
            let resource = service.resource("/fail")
            _ = try await resource.load().awaitResult()
            let error = try #require(resource.latestError)
            #expect(error.httpStatusCode == status)
            #expect(error.userMessage == message)
            #expect(error.json == ["message": "gateway down"], "the standard JSON parser also parses error bodies")
            #expect(error.entity?.contentType == "application/json")
        }
    }

    @Test(arguments: Transport.allCases)
    func etagRoundTripKeepsDataOn304(transport: Transport) async throws {
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /orders") { request in
                if request.headers[HTTPHeader("If-None-Match")] == "\"v7\"" {
                    return HTTPResponse(statusCode: .notModified, headers: HTTPHeaders([HTTPHeader("ETag"): "\"v7\""]))
                }
                return HTTPResponse(
                    statusCode: .ok, headers: [HTTPHeader("ETag"): "\"v7\"", .contentType: "text/plain"],
                    body: Data("orders v7".utf8))
            }
        }) { _, service in
            let resource = service.resource("/orders")
            let observer = RecordingObserver()
            resource.addObserver(observer)
            _ = try await resource.load().awaitResult()
            let info = try await resource.load().awaitResponseInfo()
            #expect(!info.isNew)
            #expect(resource.latestData?.bodyText == "orders v7")
            #expect(observer.events == ["observerAdded", "requested", "newData(network)", "requested", "notModified"])
        }
    }

    /// A server with `Last-Modified` and no ETag (Python's `http.server`, as a user starts it):
    /// the second load asks `If-Modified-Since` and an unchanged file is `notModified`, not new
    /// data; a file changed since is new data again.
    @Test(arguments: Transport.allCases)
    func lastModifiedRoundTripWithPythonsHTTPServer(transport: Transport) async throws {
        let server = try StaticFileServer()
        defer { server.stop() }
        let written = Date(timeIntervalSinceNow: -3_600)
        try server.write("{\"status\":\"UP\"}", to: "status.json", modified: written)
        let service = Service(baseURL: server.baseURL, networking: transport.provider(maxResponseBytes: URLSessionProvider.defaultMaxResponseBytes))
        let resource = service.resource("/status.json")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        _ = try await resource.load().awaitResult()
        #expect(resource.latestData?.lastModified != nil, "http.server sends Last-Modified")
        #expect(resource.latestData?.etag == nil, "and no ETag")
        let unchanged = try await resource.load().awaitResponseInfo()
        #expect(!unchanged.isNew)
        #expect(resource.latestData?.json == ["status": "UP"])

        try server.write("{\"status\":\"DOWN\"}", to: "status.json", modified: written.addingTimeInterval(60))
        let changed = try await resource.load().awaitResponseInfo()
        #expect(changed.isNew)
        #expect(resource.latestData?.json == ["status": "DOWN"])
        #expect(observer.events == ["observerAdded", "requested", "newData(network)", "requested", "notModified", "requested", "newData(network)"])
    }

    @Test(arguments: Transport.allCases)
    func sendsConfiguredHeadersAndJSONBodies(transport: Transport) async throws {
        try await withServer(transport, routes: { server in
            await server.appendRoute("POST /search") { request in
                let auth = request.headers[.authorization] ?? "none"
                let body = String(data: try await request.bodyData, encoding: .utf8) ?? ""
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data("\(auth)|\(body)".utf8))
            }
        }) { _, service in
            service.configure("**") { $0.headers["Authorization"] = "Bearer s3cret" }
            let resource = service.resource("/search")
            let response = try await resource.request(.post, json: ["query": "status:failed"]).awaitResult()
            #expect(response.entity?.bodyText == #"Bearer s3cret|{"query":"status:failed"}"#)
        }
    }

    @Test(arguments: Transport.allCases)
    func aServerThatNeverAnswersTimesOut(transport: Transport) async throws {
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /hang") { _ in
                try await Task.sleep(for: .seconds(30))
                return HTTPResponse(statusCode: .ok)
            }
        }) { _, service in
            service.configure("**") { $0.timeout = 0.3 }
            let resource = service.resource("/hang")
            // The monotonic clock both transports time out by (libcurl's, dispatch's), read in
            // whole milliseconds by libcurl: allow that much.
            let start = ContinuousClock.now
            _ = try await resource.load().awaitResult()
            #expect(ContinuousClock.now - start >= .milliseconds(295), "the deadline must not fire early")
            #expect(resource.latestError?.userMessage == "The request timed out")
            #expect((resource.latestError?.cause as? TransportError)?.code == .timedOut)
        }
    }

    @Test(arguments: Transport.allCases)
    func aSlowDripStillTimesOutAsAWhole(transport: Transport) async throws {
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /drip") { _ in
                ScriptedBody(Array(repeating: [.bytes(Data("x".utf8)), .pause(.milliseconds(200))], count: 40).flatMap { $0 })
                    .response(declaredLength: 40)
            }
        }) { _, service in
            service.configure("**") { $0.timeout = 1.5 }
            let resource = service.resource("/drip")
            // The monotonic clock both transports time out by, read in whole milliseconds by
            // libcurl: allow that much. The drip itself would take 8 s.
            let start = ContinuousClock.now
            _ = try await resource.load().awaitResult()
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(1495), "the deadline must not fire early")
            #expect(elapsed < .seconds(6), "the whole exchange is bounded, however slowly it drips")
            #expect(resource.latestError?.userMessage == "The request timed out")
        }
    }

    @Test(arguments: Transport.allCases)
    func connectionRefused(transport: Transport) async throws {
        let server = try await LocalTestServer.start { _ in }
        let base = server.baseURL
        await server.stop()
        let service = Service(baseURL: base, networking: transport.provider())
        let resource = service.resource("/anything")
        _ = try await resource.load().awaitResult()
        let error = try #require(resource.latestError)
        // Where, and (when the transport knows) why.
        let place = "127.0.0.1:\(URL(string: base)!.port!)"
        #expect(error.userMessage == (transport == .curl ? "\(place): connection refused" : "\(place): could not connect"))
        #expect(error.httpStatusCode == nil)
    }

    @Test(arguments: Transport.allCases)
    func aServerThatClosesTheConnectionMidBody(transport: Transport) async throws {
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /cut") { _ in
                ScriptedBody([.bytes(Data("partial".utf8)), .fail]).response(declaredLength: 1000)
            }
        }) { _, service in
            let resource = service.resource("/cut")
            _ = try await resource.load().awaitResult()
            let error = try #require(resource.latestError)
            #expect(resource.latestData == nil)
            let expected = transport == .curl ? " (993 of 1000 bytes missing)" : ""
            #expect(error.userMessage == "The server closed the connection before the response was complete" + expected)
        }
    }

    @Test(arguments: Transport.allCases)
    func bodiesOverTheCapFailWithAClearMessage(transport: Transport) async throws {
        try await withServer(transport, maxResponseBytes: 1024, routes: { server in
            await server.appendRoute("GET /declared") { _ in
                HTTPResponse(statusCode: .ok, body: Data(repeating: 65, count: 5000))
            }
            await server.appendRoute("GET /chunked") { _ in
                ScriptedBody(Array(repeating: .bytes(Data(repeating: 66, count: 500)), count: 10)).response()
            }
        }) { _, service in
            for path in ["/declared", "/chunked"] {
                let resource = service.resource(path)
                _ = try await resource.load().awaitResult()
                let error = try #require(resource.latestError, "\(path)")
                #expect(error.userMessage == "Response too large (over 1 KiB)", "\(path)")
                #expect(error.cause is RequestError.Cause.ResponseTooLarge)
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func redirectLoopsFail(transport: Transport) async throws {
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /loop") { _ in
                HTTPResponse(statusCode: .found, headers: HTTPHeaders([.location: "/loop"]))
            }
        }) { _, service in
            let resource = service.resource("/loop")
            _ = try await resource.load().awaitResult()
            #expect(resource.latestError?.userMessage == "Too many redirects")
        }
    }

    @Test(arguments: Transport.allCases)
    func cancellingARealLoadLeavesStateUnchanged(transport: Transport) async throws {
        try await withServer(transport, routes: { server in
            await server.appendRoute("GET /slow") { _ in
                try await Task.sleep(for: .seconds(30))
                return HTTPResponse(statusCode: .ok)
            }
        }) { _, service in
            let resource = service.resource("/slow")
            let request = resource.load()
            request.cancel()
            let response = try await request.awaitResult()
            #expect(response.isCancellation)
            #expect(resource.latestError == nil)
            #expect(!resource.isLoading)
        }
    }
}
