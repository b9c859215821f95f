import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import HammockHarness
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// A restarted dashboard shows the last data and history at once, then refreshes.
@MainActor
@Suite struct CacheRestartTests {
    let directory = URL(fileURLWithPath: ScratchDirectory.path("restart"))
    let network = FakeNetworkingProvider()
    let clock = ManualClock(start: 800_000_000)
    let yaml = """
        service:
          baseURL: https://api.test/
        configure:
          - pattern: /orders
            pipeline:
              model: [ { select: items } ]
        panes:
          - title: Orders
            resource: /orders
            show: table
            columns: [id, total]
        """

    private func makeApp(spec: DashboardSpec, backend: TestBackend) -> (DashboardApp, DiskEntityCache) {
        let cache = DiskEntityCache(directory: directory)
        let scheduler = ManualScheduler(now: { [clock] in clock.now }, setNow: { [clock] in clock.set($0) })
        let app = DashboardApp(
            spec: spec, terminal: Terminal(backend: backend), clock: clock, scheduler: scheduler,
            timeZone: ZoneInfo.utc, minimumFrameInterval: 0, historyStore: HistoryStore(directory: directory)
        ) { [network, clock] in $0.makeServices(networking: network, clock: clock, cache: cache) }
        return (app, cache)
    }

    @Test func restartShowsCachedDataAndHistoryAtOnceThenRefreshes() async throws {
        let spec = try ConfigLoader.parse(yaml, file: "hammock.yaml")
        network.stub(.get, "https://api.test/orders", .json(#"{"items":[{"id":1,"total":"9.50"}]}"#))
        do {
            let backend = TestBackend(columns: 60, rows: 8)
            let (app, cache) = makeApp(spec: spec, backend: backend)
            app.start()
            for request in app.panes.flatMap(\.probe.resource.loadRequests) { _ = try await request.awaitResult() }
            for request in [app.panes[0].reload()].compactMap({ $0 }) { _ = try await request.awaitResult() }
            try await drainMainQueue(turns: 2)
            app.stop()
            cache.flush()
        }
        clock.advance(by: 300)
        network.holdsResponses = true
        let backend = TestBackend(columns: 60, rows: 8)
        let (app, _) = makeApp(spec: spec, backend: backend)
        app.start()
        try await drainMainQueue(turns: 2)
        #expect(backend.lines.contains { $0.contains("1   9.50") }, "the cached rows are on screen before any response")
        #expect(backend.lines[1].contains("cached 5m ago"))
        #expect(app.history(for: app.panes[0])?.probes.count == 2, "the history came back too")
        #expect(network.heldRequests.count == 1, "and the refresh is under way")
        network.stub(.get, "https://api.test/orders", .json(#"{"items":[{"id":1,"total":"9.50"},{"id":2,"total":"3.00"}]}"#))
        network.holdsResponses = false
        network.releaseAll()
        for request in app.panes.flatMap(\.probe.resource.loadRequests) { _ = try await request.awaitResult() }
        try await drainMainQueue(turns: 2)
        #expect(backend.lines.contains { $0.contains("2   3.00") })
        #expect(!backend.lines[1].contains("cached"))
        #expect(app.history(for: app.panes[0])?.probes.count == 3)
        app.stop()
    }

    /// Another config file polling the same URL keeps a history of its own: its probes never
    /// count in this dashboard's uptime, and the same file opened again finds its own.
    @Test func aHistoryBelongsToItsOwnConfigFile() async throws {
        network.stub(.get, "https://api.test/orders", .json(#"{"items":[{"id":1,"total":"9.50"}]}"#))
        func run(_ file: String) async throws -> Int? {
            clock.advance(by: 300)
            let spec = try ConfigLoader.parse(yaml, file: directory.path + "/" + file)
            let (app, cache) = makeApp(spec: spec, backend: TestBackend(columns: 60, rows: 8))
            app.start()
            for request in app.panes.flatMap(\.probe.resource.loadRequests) { _ = try await request.awaitResult() }
            try await drainMainQueue(turns: 2)
            let kept = app.history(for: app.panes[0])?.probes.count
            app.stop()
            cache.flush()
            return kept
        }
        #expect(try await run("shop.yaml") == 1)
        #expect(try await run("shop.yaml") == 2, "the same file continues its history")
        #expect(try await run("other.yaml") == 1, "another file polling the same URL starts its own")
        #expect(try await run("shop.yaml") == 3)
    }

    @Test func aChangedPipelineDoesNotServeOldShapedData() async throws {
        let spec = try ConfigLoader.parse(yaml, file: "hammock.yaml")
        let changed = try ConfigLoader.parse(yaml.replacingOccurrences(of: "[ { select: items } ]", with: "[ { select: items }, { limit: 1 } ]"), file: "hammock.yaml")
        let plain = try ConfigLoader.parse(yaml.replacingOccurrences(of: "Authorization", with: "X"), file: "hammock.yaml")
        #expect(spec.cacheFingerprint != changed.cacheFingerprint)
        #expect(spec.cacheFingerprint == plain.cacheFingerprint)
        let withHeader = try ConfigLoader.parse(yaml.replacingOccurrences(of: "  baseURL: https://api.test/", with: "  baseURL: https://api.test/\n  headers:\n    Authorization: Bearer abc"), file: "hammock.yaml")
        #expect(spec.cacheFingerprint == withHeader.cacheFingerprint, "a new token must not empty the cache")
    }
}
