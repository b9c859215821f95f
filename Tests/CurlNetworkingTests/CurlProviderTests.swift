import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HammockHarness
import LoopbackHTTP
@testable import ResourceEngine
import ResourceEngineTesting
import Synchronization
import Testing

/// What `CurlProvider` does beyond the behaviours both providers share (those run in
/// ResourceEngineTests' integration and torture suites): methods and bodies, redirects,
/// compression, headers, many transfers at once, cancellation and shutdown.
@MainActor
@Suite(.serialized) struct CurlProviderTests {
    private func withServer(
        options: CurlProvider.Options = .init(),
        routes: @Sendable (HTTPServer) async -> Void,
        _ body: @MainActor (LocalTestServer, Service) async throws -> Void
    ) async throws {
        let server = try await LocalTestServer.start(routes: routes)
        let service = Service(baseURL: server.baseURL, networking: CurlProvider(options: options))
        do { try await body(server, service) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Echoes the method, the body and the request headers as JSON.
    private static func echo(_ request: HTTPRequest) async throws -> HTTPResponse {
        var headers: JSONObject = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = .string(value) }
        let body = String(data: try await request.bodyData, encoding: .utf8) ?? "<binary>"
        let json: JSON = ["method": .string(request.method.rawValue), "body": .string(body), "headers": .object(headers)]
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: try json.serialized())
    }

    @Test func sendsEveryMethodWithItsBody() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("/echo", handler: CurlProviderTests.echo)
        }) { _, service in
            let resource = service.resource("/echo")
            for method in [RequestMethod.post, .put, .patch, .delete] {
                let response = try await resource.request(method, text: "payload \(method)").awaitResult()
                let echoed = try #require(response.entity?.content as? JSON)
                #expect(echoed["method"]?.stringValue == method.httpName)
                #expect(echoed["body"]?.stringValue == "payload \(method)")
                #expect(echoed["headers"]?["content-type"]?.stringValue == "text/plain; charset=utf-8")
            }
            let empty = try await resource.request(.post).awaitResult()
            #expect((empty.entity?.content as? JSON)?["headers"]?["content-length"]?.stringValue == "0")
            let get = try await resource.request(.get).awaitResult()
            #expect((get.entity?.content as? JSON)?["method"]?.stringValue == "GET")
        }
    }

    @Test func headRequestsReadNoBody() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("HEAD /thing") { _ in
                HTTPResponse(statusCode: .ok, headers: HTTPHeaders([HTTPHeader("X-Kind"): "thing"]))
            }
        }) { _, service in
            let response = try await service.resource("/thing").request(.head).awaitResult()
            let entity = try #require(response.entity)
            #expect(entity.header(forKey: "x-kind") == "thing")
        }
    }

    @Test func aLargeBodyGoesWithoutWaitingForContinue() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("/echo", handler: CurlProviderTests.echo)
        }) { _, service in
            let payload = String(repeating: "x", count: 200_000)
            let response = try await service.resource("/echo").request(.post, text: payload).awaitResult()
            let echoed = try #require(response.entity?.content as? JSON)
            #expect(echoed["body"]?.stringValue?.count == payload.count)
            #expect(echoed["headers"]?["expect"] == nil, "no Expect: 100-continue round trip")
        }
    }

    @Test func sendsItsUserAgentUnlessTheRequestHasOne() async throws {
        try await withServer(options: .init(userAgent: "hammock/test"), routes: { server in
            await server.appendRoute("/echo", handler: CurlProviderTests.echo)
        }) { _, service in
            let plain = try await service.resource("/echo").load().awaitResult()
            #expect((plain.entity?.content as? JSON)?["headers"]?["user-agent"]?.stringValue == "hammock/test")
            service.configure("**") { $0.headers["User-Agent"] = "custom/1" }
            let custom = try await service.resource("/echo").load().awaitResult()
            #expect((custom.entity?.content as? JSON)?["headers"]?["user-agent"]?.stringValue == "custom/1")
        }
    }

    /// The request head exactly as the server read it: one `Accept-Encoding` (hammock's own line,
    /// or the request's), no `Expect` without a body, the User-Agent once.
    @Test func asksForEveryEncodingItDecodesOnceAndTheRequestsOwnChoiceAlone() async throws {
        let server = try RawTestServer { _, head in
            let body = Data(head.utf8)
            return Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        defer { server.stop() }
        let service = Service(baseURL: server.baseURL, networking: CurlProvider(options: .init(userAgent: "hammock/test")))
        func lines(_ path: String, named name: String) async throws -> [String] {
            let response = try await service.resource(path).load().awaitResult()
            let head = try #require(response.entity?.content as? String)
            return head.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix(name + ":") }
        }
        let plain = try await lines("/plain", named: "accept-encoding")
        #expect(plain.count == 1, "\(plain)")
        let encodings = plain.first.map { $0.dropFirst("accept-encoding:".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(encodings?.starts(with: ["deflate", "gzip"]) == true, "\(plain)")
        #expect(try await lines("/plain-expect", named: "expect").isEmpty)
        #expect(try await lines("/plain-agent", named: "user-agent") == ["User-Agent: hammock/test"])

        service.configure("/own") { $0.headers["Accept-Encoding"] = "identity" }
        #expect(try await lines("/own", named: "accept-encoding") == ["Accept-Encoding: identity"])
    }

    @Test func headerValuesCannotSmuggleInHeaders() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("/echo", handler: CurlProviderTests.echo)
        }) { _, service in
            service.configure("**") {
                $0.headers["X-Token"] = "abc\r\nX-Injected: yes"
                $0.headers["X-Empty"] = ""
            }
            let response = try await service.resource("/echo").load().awaitResult()
            let headers = try #require((response.entity?.content as? JSON)?["headers"])
            #expect(headers["x-injected"] == nil)
            // Foundation's URLRequest already drops such a value; `headerLines` covers the provider's own guard.
            #expect(headers["x-empty"]?.stringValue == "", "an empty value is sent, not dropped")
        }
    }

    @Test func headerLines() {
        #expect(CurlTransfer.headerLine(name: "Authorization", value: "Bearer x") == "Authorization: Bearer x")
        #expect(CurlTransfer.headerLine(name: "X-Empty", value: "") == "X-Empty;")
        #expect(CurlTransfer.headerLine(name: "Expect", value: "") == "Expect:")
        #expect(CurlTransfer.headerLine(name: "X-A\n", value: "1\r\n2") == "X-A: 1  2")
        #expect(CurlTransfer.headerLine(name: " X-B ", value: "\t v ") == "X-B: v")
        #expect(CurlTransfer.headerLine(name: "X-Ü", value: "ä ö") == "X-Ü: ä ö")
        #expect(CurlTransfer.headerLine(name: "EXPECT", value: " ") == "EXPECT:")
        for name in ["user-agent", "User-Agent", "USER-AGENT"] { #expect(CurlTransfer.isNamed(name, "user-agent"), "\(name)") }
        for name in ["user-agen", "user-agents", "user_agent", "uſer-agent", "User-Agent "] { #expect(!CurlTransfer.isNamed(name, "user-agent"), "\(name)") }
    }

    @Test func receivedHeaderTextIsTrimmedOfSpacesTabsAndLineEnds() {
        func text(_ line: String, unfolding: Bool = false, lowercased: Bool = false) -> String {
            Array(line.utf8).withUnsafeBytes { ResponseHeaderBlock.text($0, unfolding: unfolding, lowercased: lowercased) }
        }
        #expect(text(" \t text/plain; charset=utf-8 \r\n") == "text/plain; charset=utf-8")
        #expect(text("\r\n") == "")
        #expect(text("") == "")
        #expect(text("x") == "x")
        #expect(text("a\r\nb") == "a\r\nb")
        #expect(text("a\r\nb", unfolding: true) == "a  b")
        #expect(text(" Content-Type\t", lowercased: true) == "content-type")
        #expect(text("X-Ü-AZ@[", lowercased: true) == "x-Ü-az@[", "only ASCII letters are lower-cased")
        #expect(text("A\r\nB", unfolding: true, lowercased: true) == "a  b")
        #expect(text("\u{FF}bad", lowercased: true) == "\u{FF}bad")
    }

    @Test func aHeaderBlockIsReadLineByLine() {
        var block = ResponseHeaderBlock()
        func add(_ line: String) -> Bool { Array(line.utf8).withUnsafeBytes { block.add($0) } }
        for line in ["HTTP/1.1 301 Moved\r\n", "Location: /b\r\n", "Content-Length: 9\r\n", "\r\n"] { #expect(add(line)) }
        #expect(block.headers == ["location": "/b", "content-length": "9"])
        for line in ["HTTP/1.1 200 OK\r\n", "Set-Cookie: a=1\r\n", "set-cookie: b=2\r\n", "X-Long: one\r\n", " two\r\n", "no colon\r\n"] {
            #expect(add(line))
        }
        #expect(block.headers == ["set-cookie": "a=1, b=2", "x-long": "one two"], "a new status line starts a new block")
        #expect(block.declaredLength == nil)
        #expect(add("Content-Length: 5\r\n") && add("content-length: 5\r\n"), "the same length twice is only redundant")
        #expect(block.declaredLength == 5)
        #expect(!add("Content-Length: 50\r\n"))
        #expect(block.conflictingLengths.map { [$0.0, $0.1] } == ["5", "50"])
    }

    @Test func followsRedirectsToTheFinalResponse() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("GET /old") { _ in
                HTTPResponse(statusCode: .movedPermanently, headers: HTTPHeaders([.location: "/middle", HTTPHeader("X-Hop"): "old"]))
            }
            await server.appendRoute("GET /middle") { _ in
                HTTPResponse(statusCode: .found, headers: HTTPHeaders([.location: "/new"]))
            }
            await server.appendRoute("GET /new") { _ in
                HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data("arrived".utf8))
            }
        }) { _, service in
            let resource = service.resource("/old")
            _ = try await resource.load().awaitResult()
            #expect(resource.text == "arrived")
            #expect(resource.latestMetrics?.statusCode == 200)
            #expect(resource.latestData?.header(forKey: "x-hop") == nil, "only the final response's headers")
        }
    }

    @Test func decodesCompressedBodiesAndCapsWhatTheyExpandTo() async throws {
        // gzip of {"status":"UP"}, and of 4,096 × "A" (40 bytes on the wire).
        let small = Data([31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 42, 46, 73, 44, 41, 45, 86, 178, 82, 10, 13, 80, 170, 5, 0, 105, 255, 187, 170, 15, 0, 0, 0])
        let bomb = Data([31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 237, 193, 1, 13, 0, 0, 0, 194, 160, 108, 239, 95, 202, 30, 14, 40, 0, 0, 0, 224, 221, 0, 64, 52, 166, 254, 0, 16, 0, 0])
        try await withServer(options: .init(maxResponseBytes: 1024), routes: { server in
            await server.appendRoute("GET /gz") { request in
                #expect(request.headers[HTTPHeader("Accept-Encoding")]?.contains("gzip") == true)
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json", HTTPHeader("Content-Encoding"): "gzip"], body: small)
            }
            await server.appendRoute("GET /bomb") { _ in
                HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain", HTTPHeader("Content-Encoding"): "gzip"], body: bomb)
            }
        }) { _, service in
            let json = service.resource("/gz")
            _ = try await json.load().awaitResult()
            #expect(json.json == ["status": "UP"])
            let bombed = service.resource("/bomb")
            _ = try await bombed.load().awaitResult()
            #expect(bombed.latestError?.userMessage == "Response too large (over 1 KiB)")
        }
    }

    @Test func repeatedResponseHeadersAreJoined() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("GET /cookies") { _ in
                var headers = HTTPHeaders()
                headers.addValue("a=1", for: HTTPHeader("Set-Cookie"))
                headers.addValue("b=2", for: HTTPHeader("Set-Cookie"))
                return HTTPResponse(statusCode: .ok, headers: headers, body: Data())
            }
        }) { _, service in
            let resource = service.resource("/cookies")
            _ = try await resource.load().awaitResult()
            #expect(resource.latestData?.header(forKey: "set-cookie") == "a=1, b=2")
        }
    }

    @Test func manyTransfersAtOnceThroughFewConnections() async throws {
        try await withServer(options: .init(maxConnectionsPerHost: 4), routes: { server in
            await server.appendRoute("GET /n/*") { request in
                HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data(request.path.utf8))
            }
        }) { _, service in
            let resources = (0..<300).map { service.resource("/n/\($0)") }
            let requests = resources.map { $0.load() }
            for request in requests { _ = try await request.awaitResult(timeout: 30) }
            for (index, resource) in resources.enumerated() {
                #expect(resource.text == "/n/\(index)")
            }
        }
    }

    /// libcurl keeps four connections per easy handle added, counted when a connection comes
    /// back; handles are added only while they transfer, so the last of a round to finish
    /// closed a connection the next round had to open again.
    @Test func aRoundsConnectionsServeTheNextRound() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("GET /after/*") { request in
                try await Task.sleep(for: .milliseconds(Int(request.path.split(separator: "/").last ?? "") ?? 0))
                let client = request.remoteAddress.map { String(describing: $0) } ?? "unknown"
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data(client.utf8))
            }
        }) { _, service in
            // One after another, so each finishes in a turn of its own.
            let resources = (1...6).map { service.resource("/after/\($0 * 80)") }
            @MainActor func clients() async throws -> Set<String> {
                let requests = resources.map { $0.load() }
                for request in requests { _ = try await request.awaitResult() }
                return Set(resources.compactMap(\.text))
            }
            let first = try await clients()
            #expect(first.count == 6, "\(first)")
            #expect(try await clients() == first, "a connection was closed and another opened")
        }
    }

    @Test func hangingRequestsDoNotStarveAHealthyOneOnTheSameHost() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("GET /hang/*") { _ in
                try await Task.sleep(for: .seconds(60))
                return HTTPResponse(statusCode: .ok)
            }
            await server.appendRoute("GET /health") { _ in HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "text/plain"]), body: Data("UP".utf8)) }
        }) { _, service in
            service.configure("/hang/**") { $0.timeout = 40 }
            let hanging = (0..<40).map { service.resource("/hang/\($0)").load() }
            try await drainMainQueue(turns: 2)
            let health = service.resource("/health")
            // Far inside the hanging requests' 40 s: the healthy one needs a connection of its own.
            _ = try await health.load().awaitResult()
            #expect(health.text == "UP")
            #expect((health.latestMetrics?.latency ?? 99) < 5)
            for request in hanging { request.cancel() }
        }
    }

    @Test func timeWaitingForASlotIsNeitherLatencyNorTimeout() async throws {
        try await withServer(options: .init(maxTransfersInFlight: 1), routes: { server in
            await server.appendRoute("GET /slow") { _ in
                try await Task.sleep(for: .seconds(1.5))
                return HTTPResponse(statusCode: .ok, body: Data("slow".utf8))
            }
            await server.appendRoute("GET /fast") { _ in HTTPResponse(statusCode: .ok, body: Data("fast".utf8)) }
        }) { _, service in
            service.configure("/fast") { $0.timeout = 1 }
            let clock = SystemClock()
            let slow = service.resource("/slow").load()
            let fast = service.resource("/fast")
            let issued = clock.now
            _ = try await fast.load().awaitResult()
            let waited = clock.now - issued
            #expect(waited >= 1.4, "the one slot was held by /slow")
            #expect(fast.latestError == nil, "its 1 s timeout starts when it starts, not while it waits")
            let latency = try #require(fast.latestMetrics?.latency)
            #expect(latency < waited - 1, "latency \(latency) s is the request's own time, not the \(waited) s since it was issued")
            #expect(fast.latestMetrics?.timing?.total == latency)
            _ = try await slow.awaitResult()
        }
    }

    @Test func reportsWhereTheTimeWent() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("GET /ok") { _ in HTTPResponse(statusCode: .ok, body: Data("ok".utf8)) }
            await server.appendRoute("GET /moved") { _ in HTTPResponse(statusCode: .found, headers: HTTPHeaders([.location: "/ok"])) }
        }) { _, service in
            let fresh = service.resource("/ok")
            _ = try await fresh.load().awaitResult()
            let timing = try #require(fresh.latestMetrics?.timing)
            #expect(timing.redirects == 0)
            let connect = try #require(timing.connect, "a new connection has a connect phase")
            let firstByte = try #require(timing.firstByte)
            #expect(connect <= firstByte && firstByte <= timing.total, "phases end in order: \(timing)")
            #expect(timing.tlsHandshake == nil, "plain http has no TLS phase")
            let moved = service.resource("/moved")
            _ = try await moved.load().awaitResult()
            let redirected = try #require(moved.latestMetrics?.timing)
            #expect(redirected.redirects == 1)
            #expect(redirected.total >= (redirected.firstByte ?? 0), "the total covers both hops: \(redirected)")
            #expect(moved.latestMetrics?.latency == redirected.total)
        }
    }

    @Test func cancellingCompletesAtOnceAndTheProviderCarriesOn() async throws {
        try await withServer(routes: { server in
            await server.appendRoute("GET /hang") { _ in
                try await Task.sleep(for: .seconds(60))
                return HTTPResponse(statusCode: .ok)
            }
            await server.appendRoute("GET /ok") { _ in HTTPResponse(statusCode: .ok, body: Data("ok".utf8)) }
        }) { _, service in
            let hanging = (0..<5).map { _ in service.resource("/hang").load() }
            for request in hanging { request.cancel() }
            for request in hanging {
                #expect(try await request.awaitResult().isCancellation)
            }
            let ok = service.resource("/ok")
            _ = try await ok.load().awaitResult()
            #expect(ok.latestError == nil)
        }
    }

    @Test func releasingTheProviderCancelsWhatIsStillRunning() async throws {
        let server = try await LocalTestServer.start { server in
            await server.appendRoute("GET /hang") { _ in
                try await Task.sleep(for: .seconds(60))
                return HTTPResponse(statusCode: .ok)
            }
        }
        var provider: CurlProvider? = CurlProvider()
        let outcome: String = try await awaitCallback("the cancelled completion") { done in
            _ = provider?.startRequest(OutgoingRequest(url: URL(string: server.url("/hang"))!), progress: { _ in }) { result in
                let text = "\(result.response == nil) \((result.error as? TransportError)?.code == .cancelled)"
                DispatchQueue.main.async { MainActor.assumeIsolated { done(text) } }
            }
            provider = nil
        }
        #expect(outcome == "true true")
        await server.stop()
    }

    /// Progress while a body is still arriving; none for a body that came whole, whose completion
    /// (progress 1) follows at once: one hop to the main actor per small request, not two.
    @Test func progressIsReportedOnlyWhileTheBodyIsIncomplete() async throws {
        let large = Data(repeating: 0x61, count: 1 << 20)
        let server = try await LocalTestServer.start { server in
            await server.appendRoute("GET /small") { _ in HTTPResponse(statusCode: .ok, body: Data("small".utf8)) }
            await server.appendRoute("GET /large") { _ in HTTPResponse(statusCode: .ok, body: large) }
        }
        let provider = CurlProvider()
        func progressOf(_ path: String) async throws -> (reports: [Double], bytes: Int) {
            let reports = Mutex<[Double]>([])
            let bytes: Int = try await awaitCallback("the response to \(path)") { done in
                _ = provider.startRequest(
                    OutgoingRequest(url: URL(string: server.url(path))!),
                    progress: { fraction in reports.withLock { $0.append(fraction) } }
                ) { result in
                    let count = result.body?.count ?? -1
                    DispatchQueue.main.async { MainActor.assumeIsolated { done(count) } }
                }
            }
            return (reports.withLock { $0 }, bytes)
        }
        let small = try await progressOf("/small")
        #expect(small.bytes == 5)
        #expect(small.reports.isEmpty)
        let big = try await progressOf("/large")
        #expect(big.bytes == large.count)
        #expect(!big.reports.isEmpty)
        #expect(big.reports == big.reports.sorted())
        #expect(big.reports.allSatisfy { $0 > 0 && $0 < 1 })
        #expect(big.reports.last.map { $0 * Double(large.count) < Double(large.count - 1) } == true)
        await server.stop()
    }

    @Test func aURLLibcurlCannotUseFailsAtOnce() async throws {
        let provider = CurlProvider()
        var request = OutgoingRequest(url: URL(string: "ftp://127.0.0.1/file")!)
        request.timeoutInterval = 5
        let message: String = try await awaitCallback("the failure") { done in
            _ = provider.startRequest(request, progress: { _ in }) { result in
                let text = RequestError(response: nil, content: nil, cause: result.error).userMessage
                DispatchQueue.main.async { MainActor.assumeIsolated { done(text) } }
            }
        }
        #expect(message == "Unsupported URL")
    }
}

@Suite struct CompletionGateTests {
    final class Witness: Sendable {}

    @Test func completesOnceAndLetsGoOfItsClosure() {
        let calls = Mutex(0)
        weak var witness: Witness?
        let gate: CompletionGate
        do {
            let captured = Witness()
            witness = captured
            gate = CompletionGate { _ in
                _ = captured
                calls.withLock { $0 += 1 }
            }
        }
        #expect(witness != nil, "held while the transfer runs")
        #expect(!gate.isComplete)
        gate.complete(.failure(TransportError(.cancelled)))
        gate.complete(NetworkResult())
        #expect(calls.withLock { $0 } == 1)
        #expect(gate.isComplete)
        #expect(witness == nil, "a finished transfer keeps nothing of the request alive")
    }
}

/// Where the pipeline runs over libcurl: a small answer where libcurl completes it (off the main
/// actor, then one hop to it, instead of hopping to the main actor, to a background queue and back).
@MainActor
@Suite struct PipelinePlacementTests {
    /// Signals each response it processes.
    final class Signal: ResponseTransformer, @unchecked Sendable {
        let ran = DispatchSemaphore(value: 0)
        func process(_ response: Response) -> Response {
            ran.signal()
            return response
        }
        var debugDescription: String { "signal" }
    }

    @Test func aSmallAnswerIsProcessedWhileTheMainActorIsBusy() async throws {
        // A server on threads of its own: one on the global queues could be starved by other
        // tests while this one holds the main actor.
        let server = try RawTestServer { _ in
            Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n".utf8) + Data(repeating: 0x61, count: 1_000)
        }
        defer { server.stop() }
        let service = Service(baseURL: server.baseURL, networking: CurlProvider())
        let signal = Signal()
        service.configure { $0.pipeline[.cleanup].add(signal) }
        let request = service.resource("/small").load()
        // The main actor stays busy here: the answer must be processed without it.
        let processed = signal.ran.wait(timeout: .now() + 10) == .success
        #expect(processed, "processed on libcurl's thread, not after a hop to the main actor")
        _ = try await request.awaitResult()
    }
}
