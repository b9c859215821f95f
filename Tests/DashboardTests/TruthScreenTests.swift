import Dashboard
import DashboardConfig
import DashboardTesting
import DemoServer
import Foundation
import HammockHarness
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// The verdict a pane shows is the truth: expected error statuses are working panes, anything
/// that stops a pane showing its data makes it failing, and what the title bar says survives a
/// narrow terminal.
@MainActor
@Suite struct TruthScreenTests {
    /// The pane text of a screen (borders and spacing removed), for wrapped messages.
    private func text(_ screen: [String]) -> String {
        screen.joined(separator: " ").replacingOccurrences(of: "│", with: " ").split(separator: " ").joined(separator: " ")
    }

    // MARK: Expected error statuses

    private let statusChecks = """
        service:
          baseURL: https://api.test/
        panes:
          - title: No token is refused
            resource: /profile
            show: fields
            expect: ["status == 401"]
          - title: Bad input
            resource: /search
            expect: ["status == 400", "body.error contains query"]
            show: fields
        """

    @Test func anErrorStatusTheExpectationsAskForIsAWorkingPaneShowingItsBody() async throws {
        let h = try DashboardHarness(statusChecks, columns: 100, rows: 10)
        h.stub("profile", .json(#"{"error":"unauthorized"}"#, status: 401))
        h.stub("search", .json(#"{"error":"query is required"}"#, status: 400))
        h.app.start()
        try await h.settle()
        #expect(h.screen[0].contains("✓2 ✗0"), "counted as working")
        #expect(h.screen[1] == "┌ ▸ No token is refused ─────── 401 · 0 ms · now ┐┌ Bad input ─────────────────── 400 · 0 ms · now ┐")
        #expect(h.screen[2].contains("error  unauthorized") && h.screen[2].contains("error  query is required"), "the answer's body is shown")
        #expect(!h.screen.contains { $0.contains("Unable to load data") })
        #expect(h.app.panes.allSatisfy { $0.probe.health == .ok })

        // The same pane on a 200 misses its expectation; on a refused connection it fails.
        h.stub("profile", .json(#"{"name":"Ada"}"#))
        h.stub("search", .failure(TransportError(.cannotConnectToHost)))
        try await h.press(.character("R"))
        #expect(h.app.panes[0].probe.health == .unmet)
        #expect(h.app.panes[0].probe.unmetExpectation == "expected status == 401, got 200")
        #expect(h.app.panes[1].probe.health == .failing)
        #expect(h.screen[0].contains("✓0 ✗1 ⚠1"))
    }

    @Test func snapshotCallsAnExpectedErrorStatusOK() async throws {
        let spec = try ConfigLoader.parse(statusChecks, file: "checks.yaml", environment: [:])
        let network = FakeNetworkingProvider()
        network.stub(.get, "https://api.test/profile", .json(#"{"error":"unauthorized"}"#, status: 401))
        network.stub(.get, "https://api.test/search", .json(#"{"error":"query is required"}"#, status: 400))
        let result = await Snapshot.take(spec: spec, columns: 100, rows: 10) { $0.makeServices(networking: network) }
        #expect(result.ok)
        #expect(result.json["ok"] == true)
        let profile = try #require(result.json["panes"]?[0])
        #expect(profile["ok"] == true)
        #expect(profile["state"] == "ok")
        #expect(profile["status"] == 401)
        #expect(profile["error"] == .null)
        #expect(profile["data"] == ["error": "unauthorized"])
        #expect(profile["expectations"] == [["expect": "status == 401", "ok": true]])
    }

    // MARK: Hidden failures

    @Test func aPaneThatCannotShowItsDataIsFailingEverywhere() async throws {
        let yaml = """
            service:
              baseURL: https://api.test/
            panes:
              - { title: Users, resource: /users, show: value, select: total }
              - { title: Orders, resource: /orders, show: table, columns: [id, total] }
              - { title: Health, resource: /health, show: fields, fields: [status, version] }
            """
        let h = try DashboardHarness(yaml, columns: 120, rows: 12)
        h.stub("users", .json(#"{"count":42}"#))
        h.stub("orders", .json(#"{"items":[]}"#))
        h.stub("health", .json(#"{"state":"UP"}"#))
        h.app.start()
        try await h.settle()
        #expect(h.screen[0].contains("✓0 ✗3"))
        #expect(h.app.panes.allSatisfy { $0.probe.health == .failing })
        #expect(h.screen[1].contains("200 · 0 ms · error"), "the title says so too")
        #expect(text(h.screen).contains(#"select total: no member "total" at the top level"#))
        #expect(Set(h.app.eventLog.entries.filter { $0.event == "ContentFailed" }.flatMap(\.panes)) == ["Users", "Orders", "Health"])

        let spec = try ConfigLoader.parse(yaml, file: "hidden.yaml", environment: [:])
        let snapshot = await Snapshot.take(spec: spec, columns: 100, rows: 10) { [network = h.network] in $0.makeServices(networking: network) }
        #expect(!snapshot.ok, "snapshot exits 1")
        #expect(snapshot.json["panes"]?.arrayValue?.map { $0["ok"] } == [false, false, false])
        #expect(snapshot.json["panes"]?.arrayValue?.map { $0["error"] } == [
            #"select total: no member "total" at the top level"#,
            "table: expected a list of objects, got object",
            "fields: none of status, version is in the object",
        ])

        h.stub("users", .json(#"{"total":42}"#))
        try await h.press(.character("r"))
        #expect(h.app.panes[0].probe.health == .ok)
        #expect(h.app.eventLog.entries.last?.event == "ContentRecovered")
    }

    @Test func aFailingPaneThatKeepsItsOldDataStillSaysWhatFailedAndHowOldTheDataIs() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
              retry: 10m
            panes:
              - title: Health
                resource: /health
                show: fields
                every: 1m
                overlay: [anyData, loading, error]
            """, columns: 60, rows: 8)
        h.stub("health", .json(#"{"status":"UP"}"#))
        h.app.start()
        try await h.settle()
        h.stub("health", .json(#"{"message":"gateway down"}"#, status: 503))
        try await h.advance(60)
        try await h.advance(5)
        #expect(h.screen == [
            " hammock · hammock.yaml · 1 pane  ✓0 ✗1 ⟳0   06:14   ? help ",
            "┌ ▸ Health ──────────────────────────── 503 · 0 ms · error ┐",
            "│ status  UP                                               │",
            "│                                                          │",
            "│ ✗ 503 · gateway down · data from 1m ago                  │",
            "│ ▁   p50 0 ms  p95 0 ms                                   │",
            "└──────────────────────────────────────────────────────────┘",
            " t retry  ⏎ zoom  c curl  r reload  e events  v raw  q quit ",
        ])
    }

    // MARK: Small lies and blanks

    /// The pane's name survives first: the status narrows to the pane's mark ("✓", "✗") before
    /// the title is cut, and what failed is still said inside.
    @Test func narrowTitleBarsKeepTheNameAndNarrowTheStatusToAMark() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Payment gateway (EU region), resource: /payments }
              - { title: Inventory service health, resource: /inventory }
            layout:
              columns: 1
            """, columns: 30, rows: 10)
        h.stub("payments", .failure(TransportError(.cannotConnectToHost)))
        h.stub("inventory", .json("{}"))
        h.app.start()
        try await h.settle()
        try await h.advance(2)
        #expect(h.screen == [
            " ✓1 ✗1 ⟳0      06:13   ? help ",
            "┌ ▸ Payment gateway (EU… ─ ✗ ┐",
            "│ Could not connect to the … │",
            "│ [t] Try again      no dat… │",
            "└────────────────────────────┘",
            "┌ Inventory service hea… ─ ✓ ┐",
            "│ {}                         │",
            "│                            │",
            "└────────────────────────────┘",
            " t retry  ⏎ zoom  q quit      ",
        ], "the names survive; the states narrow to their marks")
    }

    /// At 60 columns "Slow report" and "Secure" both read "S…" once, behind a whole status; the
    /// names stay whole now, and the status says what fits of the state.
    @Test func atSixtyColumnsEveryNameIsWhole() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Slow report, resource: /report }
              - { title: Secure, resource: /secure }
              - { title: Inventory health, resource: /inventory }
              - { title: Payments, resource: /payments }
            layout:
              columns: 3
            """, columns: 60, rows: 14)
        for path in ["report", "secure", "inventory"] { h.stub(path, .json("{}")) }
        h.stub("payments", .json("{}", status: 503))
        h.app.start()
        try await h.settle()
        try await h.advance(2)
        let titles = h.screen.filter { $0.hasPrefix("┌") }
        #expect(titles == [
            "┌ ▸ Slow report ───── 2s ago ┐┌ Secure ────── 200 · 2s ago ┐",
            "┌ Inventory health ── 2s ago ┐┌ Payments ───── 503 · error ┐",
        ], "\(h.screen)")
    }

    @Test func anEmptyListSaysSoUnderItsHeader() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Orders, resource: /orders, show: table, columns: [id, total] }
            """, columns: 40, rows: 6)
        h.stub("orders", .json("[]"))
        h.app.start()
        try await h.settle()
        #expect(h.screen[2] == "│ id  total                            │")
        #expect(h.screen[3] == "│ empty list: no rows                  │")
        #expect(h.app.panes[0].probe.health == .ok)
    }

    @Test func aFilterThatMatchesNothingSaysSoEvenInANarrowTerminal() async throws {
        let h = try DashboardHarness("service:\n  baseURL: https://api.test/\npanes:\n  - { title: Health, resource: /health }\n", columns: 34, rows: 8)
        h.stub("health", .json("{}"))
        h.app.start()
        try await h.settle()
        let screen = try await h.press(.character("/"), .character("z"), .character("z"), .enter)
        #expect(text(screen).contains(#"No pane matches "zz" (Esc clears the filter)"#), "\(screen)")
    }

    @Test func snapshotJSONKeepsItsShapeForEveryPane() async throws {
        let spec = try ConfigLoader.parse("""
            service:
              baseURL: https://api.test/
            panes:
              - { title: Plain, resource: /plain }
              - { title: Checked, resource: /checked, expect: ["status == 200"] }
            """, file: "shape.yaml", environment: [:])
        let network = FakeNetworkingProvider()
        network.stub(.get, "https://api.test/plain", .json("{}"))
        network.stub(.get, "https://api.test/checked", .json("{}"))
        let result = await Snapshot.take(spec: spec, columns: 80, rows: 10) { $0.makeServices(networking: network) }
        let keys = [
            "blockedBy", "data", "degraded", "error", "expectations", "latencyMs", "method", "ok", "p50Ms", "p95Ms", "probes", "silenced", "state", "status",
            "title", "unmet", "uptime", "url", "urlSent", "waitingFor",
        ]
        for pane in result.json["panes"]?.arrayValue ?? [] {
            #expect(pane.objectValue?.keys.sorted() == keys)
        }
        #expect(result.json["panes"]?[0]?["expectations"] == [])
        #expect(result.json["panes"]?[0]?["unmet"] == .null)
    }

    @Test func jsonServedAsTextCanBeParsedWithTheJSONStep() async throws {
        let h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
            configure:
              - pattern: /health
                pipeline:
                  model: [json]
            panes:
              - { title: etcd, resource: /health, show: fields, expect: ["body.health == true"] }
            """, columns: 60, rows: 6)
        h.stub("health", .text(#"{"health":"true","reason":""}"#))
        h.app.start()
        try await h.settle()
        #expect(h.app.panes[0].probe.resource.latestError == nil)
        #expect(h.screen[2].contains("health  true"))
        #expect(h.app.panes[0].probe.unmetExpectation == #"expected body.health == true, got "true""#)
    }
}

/// Start-up at any scale: the first frame comes before thousands of loads start, and keys and
/// signals get the main queue between batches.
@MainActor
@Suite struct StartUpAtScaleTests {
    @Test func tenThousandPanesDrawAtOnceAndStartLoadingInBatchesThatLetKeysThrough() async throws {
        var yaml = "service:\n  baseURL: https://api.test/\npanes:\n"
        for i in 0..<10_000 { yaml += "  - { title: E\(i), resource: /e/\(i), every: 1m, show: value }\n" }
        let h = try DashboardHarness(yaml, columns: 200, rows: 60)
        h.network.holdsResponses = true
        h.app.start()
        let loadingAfterStart = h.app.panes.filter { $0.probe.resource.isLoading }.count
        #expect(loadingAfterStart > 0 && loadingAfterStart <= Monitor.startBatch, "at most one batch before the first frame")
        var seenByAKey = -1
        DispatchQueue.main.async { MainActor.assumeIsolated {
            seenByAKey = h.app.panes.filter { $0.probe.resource.isLoading }.count
            h.app.send(.key(.character("q")))
        } }
        try await drainMainQueue(turns: 30)
        #expect(h.app.framesDrawn >= 1)
        #expect(seenByAKey > 0 && seenByAKey < 10_000, "a key queued during start-up ran between batches (\(seenByAKey) loading)")
        #expect(h.quitStatus == 0)
        // Those whose start phase has come are loading; the rest follow within the first second
        // (manyPanesStartInPhasesAcrossTheFirstSecondAndKeepThem), not advanced to here: ten
        // thousand load starts would hold the main queue other tests share.
        let loading = h.app.panes.filter { $0.probe.resource.isLoading }.count
        #expect(loading >= Monitor.phaseGroup && loading < 10_000)
        #expect(h.screen[0].contains("10000 panes"))
        h.app.stop()
    }

    @Test func manyPanesStartInPhasesAcrossTheFirstSecondAndKeepThem() async throws {
        var yaml = "service:\n  baseURL: https://api.test/\npanes:\n"
        for i in 0..<200 { yaml += "  - { title: E\(i), resource: /e/\(i), every: 1s, show: value }\n" }
        yaml += "  - { title: Shared, resource: /e/0, every: 1s, show: value }\n"
        let h = try DashboardHarness(yaml, columns: 200, rows: 60)
        for i in 0..<200 { h.stub("e/\(i)", .text("\(i)")) }
        h.app.start()
        try await h.settle()
        let group = Monitor.phaseGroup
        #expect(h.network.receivedRequests.count == group, "the first group at once")
        try await h.advance(0.25)
        #expect(h.network.receivedRequests.count == 2 * group, "the next a quarter second later")
        try await h.advance(0.5)
        #expect(h.network.receivedRequests.count == 200, "all within the first second; the shared pane rides along")
        // A second later each resource has been asked again once: the spread holds.
        try await h.advance(0.25)
        #expect(h.network.receivedRequests.count == 200 + group)
        h.app.stop()
    }

    @Test func aPaneIsAskedAsOftenAsItsEverySaysWhateverElseWakesTheScheduler() async throws {
        // The real scheduler runs what is due within its batch window (50 ms) together, early;
        // another timer firing every 56 ms took a pane of every 100 ms to one load per firing.
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/", retry: 100ms }
            panes:
              - { title: Fast, resource: /fast, every: 100ms, show: value }
              - { title: Down, resource: /down, every: 1m, backoff: 100ms }
            """, batchWindow: DispatchScheduler.defaultBatchWindow)
        h.stub("fast", .text("1"))
        h.stub("down", .failure(TransportError(.cannotConnectToHost)))
        h.app.start()
        try await h.settle()
        for _ in 0..<180 {
            _ = h.scheduler.schedule(after: 0.056) {}
            try await h.advance(0.056)
        }
        // 10.08 s: the first load and one per 100 ms after it.
        let loads = h.network.requestCount(for: h.url("fast"))
        #expect((99...102).contains(loads), "\(loads) loads in 10.08 s at every: 100ms")
        // A failing pane's retries keep their wait the same way.
        let tries = h.network.requestCount(for: h.url("down"))
        #expect((99...102).contains(tries), "\(tries) tries in 10.08 s at retry: 100ms")
        h.app.stop()
    }

    /// Every key holds an hour-old entity.
    final class StaleCache: EntityCache {
        func readEntity(forKey key: String) -> Entity? { Entity(content: JSON.string("old"), timestamp: 800_000_000 - 3600) }
        func writeEntity(_ entity: Entity, forKey key: String) {}
        func updateTimestamp(_ timestamp: TimeInterval, forKey key: String) {}
        func removeEntity(forKey key: String) {}
    }

    @Test func staleCachedDataDoesNotStartLoadsAheadOfTheFirstFrame() async throws {
        var yaml = "service:\n  baseURL: https://api.test/\npanes:\n"
        for i in 0..<2_000 { yaml += "  - { title: E\(i), resource: /e/\(i), every: 1m, show: value }\n" }
        let spec = try ConfigLoader.parse(yaml, file: "big.yaml", environment: [:])
        let network = FakeNetworkingProvider()
        network.holdsResponses = true
        let clock = ManualClock(start: 800_000_000)
        let scheduler = ManualScheduler(now: { clock.now }, setNow: { clock.set($0) })
        let app = DashboardApp(
            spec: spec, terminal: Terminal(backend: TestBackend(columns: 100, rows: 30)), clock: clock,
            scheduler: scheduler, minimumFrameInterval: 0
        ) { $0.makeServices(networking: network, clock: clock, cache: StaleCache()) }
        app.start()
        #expect(app.panes.allSatisfy { $0.probe.resource.latestData != nil }, "the cached data is there at once")
        #expect(network.receivedRequests.count <= Monitor.startBatch, "and at most the first batch loads before the first frame")
        try await drainMainQueue(turns: 10)
        scheduler.advance(by: 1)
        try await drainMainQueue(turns: 10)
        #expect(network.receivedRequests.count == 2_000)
        app.stop()
    }
}

/// `hammock demo` outside the project writes its config where no one else can reach it.
@Suite struct DemoPrivateCopyTests {
    @Test func eachRunGetsAFreshPrivateDirectoryNeverAPredictableOne() throws {
        let parent = ScratchDirectory.path("demo-parent")
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        // What another user could prepare: the old predictable name, open to all.
        let planted = parent + "/hammock-demo-\(getpid())"
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
        chmod(planted, 0o777)
        let first = try DemoConfig.writePrivateCopy(in: parent)
        let second = try DemoConfig.writePrivateCopy(in: parent)
        #expect(first != second)
        for path in [first, second] {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            #expect(directory != planted)
            #expect((try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int) == 0o700)
            #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == DemoConfig.yaml)
            #expect(ConfigReloader.watchProblem(path: path) == nil)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: planted).isEmpty, "nothing went into the planted directory")
    }
}
