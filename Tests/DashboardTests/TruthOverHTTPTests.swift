import Dashboard
import DashboardConfig
import DashboardTesting
import FlyingFox
import Foundation
import HammockHarness
import LoopbackHTTP
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// What the screen says about the network is so: over real HTTP on 127.0.0.1, through the
/// transport `hammock` uses, with the clock and the scheduler in the test's hands.
@MainActor
@Suite(.serialized) struct TruthOverHTTPTests {
    /// What the server saw: method, raw request target, body.
    actor Recorder {
        var requests: [(method: String, target: String, body: String)] = []
        var failing = false
        func record(_ request: HTTPRequest) async {
            let body = (try? await request.bodyData).map { String(decoding: $0, as: UTF8.self) } ?? ""
            requests.append((request.method.rawValue, request.target.rawValue, body))
        }
        func setFailing(_ value: Bool) { failing = value }
        var count: Int { requests.count }
    }

    @MainActor
    final class Run {
        let server: LocalTestServer
        let recorder: Recorder
        let clock = ManualClock(start: 800_000_000)
        let scheduler: ManualScheduler
        let backend: TestBackend
        let app: DashboardApp

        init(server: LocalTestServer, recorder: Recorder, yaml: String, columns: Int = 100, rows: Int = 30) throws {
            self.server = server
            self.recorder = recorder
            let spec = try ConfigLoader.parse(yaml.replacingOccurrences(of: "BASE", with: server.baseURL), file: "truth.yaml", environment: [:])
            let clock = clock
            scheduler = ManualScheduler(now: { clock.now }, setNow: { clock.set($0) })
            backend = TestBackend(columns: columns, rows: rows)
            let networking = CurlProvider()
            app = DashboardApp(
                spec: spec, terminal: Terminal(backend: backend), clock: clock, scheduler: scheduler,
                timeZone: ZoneInfo.utc, minimumFrameInterval: 0
            ) { $0.makeServices(networking: networking, clock: clock) }
        }

        func pane(_ title: String) -> Pane { app.panes.first { $0.probe.spec.title == title }! }

        /// Waits for every load in flight, then for the frames they asked for.
        func settle(timeout: Double = defaultTestTimeout) async throws {
            for _ in 0..<5 {
                let requests = app.panes.flatMap(\.probe.resource.loadRequests)
                if requests.isEmpty { break }
                for request in requests { _ = try await request.awaitResult(timeout: timeout) }
            }
            try await drainMainQueue(turns: 3)
        }

        func advance(_ seconds: Double) async throws {
            scheduler.advance(by: seconds)
            try await settle()
        }

        func stop() async {
            app.stop()
            await server.stop()
        }
    }

    private func start(_ yaml: String, routes: @escaping @Sendable (HTTPServer, Recorder) async -> Void) async throws -> Run {
        let recorder = Recorder()
        let server = try await LocalTestServer.start { server in await routes(server, recorder) }
        return try Run(server: server, recorder: recorder, yaml: yaml)
    }

    private nonisolated static func json(_ text: String, status: HTTPStatusCode = .ok) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: HTTPHeaders([.contentType: "application/json"]), body: Data(text.utf8))
    }

    // MARK: Request identity

    @Test func panesSendingDifferentRequestsToOneURLEachGetTheirOwnAnswer() async throws {
        let run = try await start("""
            service: { baseURL: BASE }
            panes:
              - { title: Key a, resource: /v3/kv/range, method: POST, body: { key: a }, show: value, select: echo.key }
              - { title: Key b, resource: /v3/kv/range, method: POST, body: { key: b }, show: value, select: echo.key }
              - { title: Key a again, resource: /v3/kv/range, method: POST, body: { key: a }, show: value, select: echo.key }
              - { title: Plain GET, resource: /v3/kv/range, show: value, select: method }
            """) { server, recorder in
            await server.appendRoute("/v3/kv/range") { request in
                await recorder.record(request)
                let body = String(decoding: try await request.bodyData, as: UTF8.self)
                return TruthOverHTTPTests.json(#"{"method":"\#(request.method.rawValue)","echo":\#(body.isEmpty ? "null" : body)}"#)
            }
        }
        run.app.start()
        try await run.settle()
        #expect(run.pane("Key a").probe.resource.jsonDict["echo"] == ["key": "a"])
        #expect(run.pane("Key b").probe.resource.jsonDict["echo"] == ["key": "b"])
        #expect(run.pane("Plain GET").probe.resource.jsonDict["method"] == "GET")
        #expect(run.pane("Key a").probe.resource === run.pane("Key a again").probe.resource, "identical requests share one state")
        let seen = await run.recorder.requests
        #expect(seen.count == 3, "one request per distinct request: \(seen)")
        #expect(Set(seen.map { "\($0.method) \($0.body)" }) == [#"POST {"key":"a"}"#, #"POST {"key":"b"}"#, "GET "])
        #expect(run.backend.lines[0].contains("✓4 ✗0"))
        await run.stop()
    }

    // MARK: Cadence

    @Test(arguments: ["30s", "5s"])
    func everyIsThePanesRefreshPeriodWhateverTheExpiration(expiration: String) async throws {
        let run = try await start("""
            service: { baseURL: BASE, expiration: \(expiration) }
            panes:
              - { title: Health, resource: /health, every: 5s }
            """) { server, recorder in
            await server.appendRoute("GET /health") { request in
                await recorder.record(request)
                return TruthOverHTTPTests.json(#"{"status":"UP"}"#)
            }
        }
        run.app.start()
        try await run.settle()
        #expect(await run.recorder.count == 1)
        for probe in 2...4 {
            try await run.advance(5)
            #expect(await run.recorder.count == probe, "every 5 s, with expiration \(expiration)")
        }
        await run.stop()
    }

    @Test func aFailedPaneIsTriedAgainAfterRetryNotAtItsNextTick() async throws {
        let run = try await start("""
            service: { baseURL: BASE, retry: 2s }
            panes:
              - { title: Payments, resource: /payments, every: 1m }
            """) { server, recorder in
            await server.appendRoute("GET /payments") { request in
                await recorder.record(request)
                return await recorder.failing
                    ? TruthOverHTTPTests.json(#"{"message":"down"}"#, status: .serviceUnavailable)
                    : TruthOverHTTPTests.json(#"{"status":"UP"}"#)
            }
        }
        await run.recorder.setFailing(true)
        run.app.start()
        try await run.settle()
        #expect(run.pane("Payments").probe.health == .failing)
        await run.recorder.setFailing(false)  // the server is back
        try await run.advance(1)
        #expect(await run.recorder.count == 1, "not before retry")
        try await run.advance(1)
        #expect(await run.recorder.count == 2, "2 s after the failure, not a minute")
        #expect(run.pane("Payments").probe.health == .ok)
        #expect(run.backend.lines[0].contains("✓1 ✗0"))
        try await run.advance(58)
        #expect(await run.recorder.count == 2, "healthy again: back to every minute")
        try await run.advance(2)
        #expect(await run.recorder.count == 3)
        await run.stop()
    }

    // MARK: Starvation and latency

    @Test func aHealthyPaneKeepsAnsweringWhileFortyOthersOnItsHostHang() async throws {
        // The hanging panes come first, so their requests are on the wire before the healthy one's.
        var yaml = "service: { baseURL: BASE, timeout: 60s }\npanes:\n"
        for i in 0..<40 { yaml += "  - { title: Hang \(i), resource: /hang/\(i), every: 1s }\n" }
        yaml += "  - { title: Health, resource: /health, every: 1s }\n"
        let run = try await start(yaml) { server, _ in
            await server.appendRoute("GET /hang/*") { _ in
                try await Task.sleep(for: .seconds(120))
                return HTTPResponse(statusCode: .ok)
            }
            await server.appendRoute("GET /health") { _ in TruthOverHTTPTests.json(#"{"status":"UP"}"#) }
        }
        run.app.start()
        let health = run.pane("Health").probe.resource
        for _ in 0..<3 {
            // Far inside the hanging requests' 60 s timeout.
            if let load = health.loadRequests.first { _ = try await load.awaitResult(timeout: 10) }
            #expect(health.latestData != nil && health.latestError == nil)
            #expect((health.latestMetrics?.latency ?? 99) < 5, "latency is the request's own time")
            run.scheduler.advance(by: 1)
        }
        #expect(run.app.panes.filter { $0.probe.resource.isLoading }.count >= 40, "the others still hang")
        run.app.stop()
        await run.server.stop()
    }

    // MARK: URLs as written

    @Test func aResourceIsSentAsWrittenEscapesQueryAndAll() async throws {
        let run = try await start("""
            service: { baseURL: BASE }
            panes:
              - title: Search
                resource: /search/a%2Fb?q=x%20y&tag=%E2%9C%93
                params: { page: "2", "sort by": "-date" }
              - title: Spaces
                resource: /files/my report.txt
              - title: Absolute
                resource: BASEraw?x=%41
            """) { server, recorder in
            await server.appendRoute("GET *") { request in
                await recorder.record(request)
                return TruthOverHTTPTests.json("{}")
            }
        }
        run.app.start()
        try await run.settle()
        let targets = Set(await run.recorder.requests.map(\.target))
        #expect(targets == ["/search/a%2Fb?q=x%20y&tag=%E2%9C%93&page=2&sort%20by=-date", "/files/my%20report.txt", "/raw?x=%41"])
        #expect(run.app.panes.allSatisfy { $0.probe.health == .ok })
        await run.stop()
    }
}
