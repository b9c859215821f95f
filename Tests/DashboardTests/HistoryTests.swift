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

@Suite struct ProbeHistoryTests {
    private func probe(_ ms: Double, ok: Bool = true) -> ProbeHistory.Probe {
        .init(time: 0, latency: ms / 1000, statusCode: ok ? 200 : 503, ok: ok)
    }

    @Test func percentilesUseNearestRankOverSuccessfulProbes() {
        var history = ProbeHistory(capacity: 100)
        for ms in [30.0, 10, 20, 200, 40] { history.append(probe(ms)) }
        history.append(probe(5000, ok: false))
        #expect(history.percentile(50) == 0.03)
        #expect(history.percentile(95) == 0.2)
        #expect(history.percentile(0) == 0.01)
        #expect(history.okCount == 5)
        #expect(history.sparklineValues.last == .some(nil), "failures are gaps")
    }

    @Test func anUnmetProbeIsDownButItsLatencyCounts() {
        var history = ProbeHistory(capacity: 10)
        history.append(probe(10))
        // A 200 that missed `latency < 1s`: answered, not ok.
        history.append(.init(time: 1, latency: 1.5, statusCode: 200, ok: false, answered: true))
        history.append(probe(3000, ok: false))
        #expect(history.okCount == 1 && history.uptimePercent.map { Int($0) } == 33)
        #expect(history.percentile(100) == 1.5, "the slow answer is the latency to show; the failed request is not one")
        #expect(history.sparklineValues == [0.01, 1.5, nil])
    }

    /// Percentiles come from latencies kept in order as probes arrive and leave; they must match
    /// sorting the kept probes, through repeats, failures, unmet answers and the window sliding.
    @Test func percentilesFollowTheWindowAsItSlides() {
        var history = ProbeHistory(capacity: 7)
        for step in 0..<500 {
            let ms = Double((step * 7_919 + step / 3) % 12 + 1) * 10
            let kind = step % 5
            history.append(.init(time: Double(step), latency: ms / 1000, statusCode: 200, ok: kind != 0, answered: kind != 0 || step % 2 == 0))
            let expected = history.probes.filter(\.answered).map(\.latency).sorted()
            for p in [0.0, 10, 50, 95, 100] {
                let rank = Int((p / 100 * Double(expected.count)).rounded(.up))
                #expect(history.percentile(p) == (expected.isEmpty ? nil : expected[min(expected.count, max(1, rank)) - 1]))
            }
        }
    }

    @Test func keepsTheLastN() {
        var history = ProbeHistory(capacity: 3)
        for ms in [1.0, 2, 3, 4, 5] { history.append(probe(ms)) }
        #expect(history.probes.map(\.latency) == [0.003, 0.004, 0.005])
        #expect(ProbeHistory(capacity: 3).percentile(50) == nil)
    }

    /// The kept probes read oldest first however far the ring has turned, and two histories
    /// keeping the same probes are equal wherever their rings start; the counts follow.
    @Test func keepsTheLastNInOrderWhereverTheRingStarts() {
        var turned = ProbeHistory(capacity: 4)
        for ms in 1...10 { turned.append(probe(Double(ms), ok: ms % 3 != 0)) }
        #expect(turned.probes.map(\.latency) == [0.007, 0.008, 0.009, 0.010])
        #expect(turned.probes.first?.latency == 0.007 && turned.probes.last?.latency == 0.010)
        #expect(Array(turned.probes.suffix(2).map(\.latency)) == [0.009, 0.010])
        #expect(Array(turned.probes.reversed().map(\.latency)) == [0.010, 0.009, 0.008, 0.007])
        #expect(turned.okCount == 3, "9 failed; 7, 8 and 10 worked")
        var fresh = ProbeHistory(capacity: 4)
        for ms in 7...10 { fresh.append(probe(Double(ms), ok: ms % 3 != 0)) }
        #expect(turned == fresh)
        fresh.append(probe(11))
        #expect(turned != fresh)
        #expect(ProbeHistory(capacity: 4) != ProbeHistory(capacity: 5))

        // A long history (the config allows 10,000) slides the same way.
        var long = ProbeHistory(capacity: 10_000)
        for step in 0..<25_000 { long.append(.init(time: Double(step), latency: Double(step % 1_000 + 1) / 1000, statusCode: 200, ok: true)) }
        #expect(long.probes.count == 10_000 && long.probes.first?.time == 15_000)
        #expect(long.percentile(50) == 0.5 && long.percentile(100) == 1.0)
    }

    @Test func paneHistoryIsConfigurableAndValidated() throws {
        let base = "service:\n  baseURL: https://x.test/\npanes:\n  - title: A\n    resource: /a\n"
        #expect(try ConfigLoader.parse(base, file: "h.yaml").panes[0].history == 60)
        #expect(try ConfigLoader.parse(base + "    history: 10\n", file: "h.yaml").panes[0].history == 10)
        do {
            _ = try ConfigLoader.parse(base + "    history: 1\n", file: "h.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "h.yaml:6:14: history must be between 2 and 10000, not 1")
        }
    }
}

@Suite struct HistoryStoreTests {
    @Test func whatIsReadBackIsCheckedAndKeptToTheConfiguredCapacity() throws {
        let location = URL(fileURLWithPath: ScratchDirectory.path("history"))
        let store = HistoryStore(directory: location)
        var history = ProbeHistory(capacity: 500)
        for i in 0..<500 { history.append(.init(time: Double(i), latency: 0.01, statusCode: 200, ok: true)) }
        store.save(["https://x.test/a": history], namespace: "ns")
        let lowered = store.load(namespace: "ns", capacities: ["https://x.test/a": 20])
        #expect(lowered["https://x.test/a"]?.capacity == 20, "a lowered history: applies after a restart")
        #expect(lowered["https://x.test/a"]?.probes.map(\.time) == (480..<500).map(Double.init), "the newest kept")

        // A planted file: a capacity of 2^62 and probes no run writes.
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: location.path + "/hammock-cache").first { $0.hasPrefix("history-") })
        let key = SHA256.hex("https://x.test/a")
        let planted = #"{"\#(key)":{"capacity":4611686018427387904,"probes":[[1,0.5,200,true],[2,"NaN",200,true],[3,1e300,200,true],[4,0.1,99999,true],[5,0.2,null,false],["x",0.1,200,true]]}}"#
        try Data(planted.utf8).write(to: location.appendingPathComponent("hammock-cache/" + file))
        let checked = try #require(store.load(namespace: "ns", capacities: ["https://x.test/a": 60])["https://x.test/a"])
        #expect(checked.capacity == 60)
        #expect(checked.probes.map(\.time) == [1, 5], "only sane probes are read")
        #expect(checked.probes.map(\.answered) == [true, false], "a file from before `answered`: a probe that worked was answered")
        var unmet = ProbeHistory(capacity: 5)
        unmet.append(.init(time: 9, latency: 1.5, statusCode: 200, ok: false, answered: true))
        store.save(["https://x.test/u": unmet], namespace: "ns")
        #expect(store.load(namespace: "ns", capacities: ["https://x.test/u": 5])["https://x.test/u"]?.probes.first?.answered == true)
    }
}

@MainActor
@Suite struct HistoryScreenTests {
    let h: DashboardHarness
    /// When the pane's 1 s cadence fires next.
    private let nextTick = Box()

    final class Box {
        var time: TimeInterval = 0
    }

    init() throws {
        h = try DashboardHarness("""
            service:
              baseURL: https://api.test/
              expiration: 500ms
            panes:
              - title: Health
                resource: /health
                every: 1s
                show: value
                select: status
            """, columns: 80, rows: 14)
        h.stub("health", .json(#"{"status":"UP"}"#))
    }

    private func start() async throws {
        nextTick.time = h.clock.now + 1
        h.app.start()
        try await h.settle()
    }

    /// One probe taking exactly `ms` milliseconds (or failing), driven by the pane's cadence.
    private func probe(_ ms: Double, status: Int = 200) async throws {
        h.stub("health", status == 200 ? .json(#"{"status":"UP"}"#) : .json(#"{"message":"down"}"#, status: status))
        h.network.holdsResponses = true
        h.scheduler.advance(by: nextTick.time - h.clock.now)
        try await drainMainQueue()
        h.clock.set(nextTick.time + ms / 1000)
        nextTick.time += 1
        try await h.release()
    }

    @Test func paneShowsASparklineAndPercentiles() async throws {
        try await start()
        for ms in [10.0, 20, 30, 40, 200] { try await probe(ms) }
        let screen = h.screen
        let line = try #require(screen.first { $0.contains("p50") })
        #expect(line.contains("p50 20 ms  p95 200 ms"), "probes 0 (first load), 10, 20, 30, 40, 200 ms")
        #expect(line.contains("█"), "the slowest probe is a full bar")
        let history = try #require(h.app.history(for: h.app.panes[0]))
        #expect(history.probes.count == 6, "the first load and five cadence probes")
        #expect(history.probes.map { ($0.latency * 1000).rounded() } == [0, 10, 20, 30, 40, 200])
    }

    @Test func zoomShowsAChartWithTheStatusOfEachProbe() async throws {
        try await start()
        for ms in [10.0, 50, 100] { try await probe(ms) }
        try await probe(30, status: 503)
        let screen = try await h.press(.enter)
        let marks = try #require(screen.first { $0.contains("•") })
        #expect(marks.contains("••••✗"), "one mark per probe: four ok, then the failure")
        #expect(screen.contains { $0.contains("last 5 probes · 4 ok · p50 10 ms · p95 100 ms · max 100 ms") })
        #expect(screen.contains { $0.contains("█") }, "the slowest probe fills the chart")
        #expect(screen.contains { $0.contains("[t] Try again      last data just now") })
    }
}
