import DashboardConfig
import Foundation
import Monitor
import ResourceEngine
import ResourceEngineTesting
import Testing

/// What a probe makes of its resource's data, judged synchronously: the monitor observes the
/// resource, data arrives as a local change (no network, no main queue, no clock moving), and the
/// verdict, its reason and the event log are read at once.
@MainActor
@Suite struct ProbeVerdictTests {
    /// Schedules nothing that ever fires: these monitors never refresh on their own.
    final class StillScheduler: DashboardScheduler {
        func schedule(after seconds: Double, _ action: @escaping @MainActor () -> Void) -> ScheduledAction { ScheduledAction() }
    }

    func monitor(_ panes: String) throws -> Monitor {
        let spec = try ConfigLoader.parse("service: { baseURL: https://api.test/ }\npanes:\n" + panes, file: "t.yaml", environment: [:])
        let clock = ManualClock(start: 1_000)
        let network = FakeNetworkingProvider()
        let monitor = Monitor(spec: spec, clock: clock, scheduler: StillScheduler(), oneLine: { $0 }) {
            $0.makeServices(networking: network, clock: clock)
        }
        monitor.refreshesOnItsOwn = false
        monitor.start()
        return monitor
    }

    func arrive(_ json: String, at probe: Probe) throws {
        probe.resource.overrideLocalData(with: Entity(content: try JSONParser.parse(json), timestamp: 1_000))
    }

    @Test func anUnmetExpectationSaysWhatWasThereAndIsLoggedOnceEachWay() throws {
        let monitor = try monitor(#"  - { title: Health, resource: /health, expect: ['body.status == "UP"'] }"# + "\n")
        let probe = try #require(monitor.probes.first)
        #expect(probe.verdict == .waiting)
        try arrive(#"{"status":"DOWN"}"#, at: probe)
        #expect(probe.verdict == .unmet)
        #expect(probe.unmetExpectation == #"expected body.status == "UP", got "DOWN""#)
        // One probe short of `failAfter`: degraded, not yet unmet.
        #expect(probe.health == .degraded)
        try arrive(#"{"status":"UP"}"#, at: probe)
        #expect(probe.verdict == .ok && probe.unmetExpectation == nil)
        let verdicts = monitor.eventLog.entries.map(\.event).filter { $0.hasPrefix("Expectation") }
        #expect(verdicts == ["ExpectationFailed", "ExpectationsMet"])
    }

    @Test func contentThatCannotBeShownAsThePaneSaysFails() throws {
        let monitor = try monitor("  - { title: Fields, resource: /f, show: fields, fields: [missing] }\n")
        let probe = try #require(monitor.probes.first)
        try arrive(#"{"present":1}"#, at: probe)
        #expect(probe.verdict == .failing)
        #expect(probe.contentProblem == "fields: none of missing is in the object")
        #expect(probe.failure == probe.contentProblem)
        try arrive(#"{"missing":2}"#, at: probe)
        #expect(probe.verdict == .ok && probe.contentProblem == nil)
        #expect(monitor.eventLog.entries.map(\.event).filter { $0.hasPrefix("Content") } == ["ContentFailed", "ContentRecovered"])
    }

    @Test func aWarnThresholdDegradesAGoodProbe() throws {
        let monitor = try monitor(#"  - { title: Load, resource: /l, show: value, select: load, thresholds: { warn: "> 0.8" } }"# + "\n")
        let probe = try #require(monitor.probes.first)
        try arrive(#"{"load":0.85}"#, at: probe)
        #expect(probe.verdict == .ok)
        #expect(probe.health == .degraded)
        #expect(probe.degradedReason == "0.85 meets the warn threshold > 0.8")
        try arrive(#"{"load":0.5}"#, at: probe)
        #expect(probe.health == .ok && probe.degradedReason == nil)
        #expect(monitor.healthCounts.ok == 1 && monitor.healthCounts.degraded == 0)
    }

    @Test func panesOfOneResourceAreJudgedEachByItsOwnSpec() throws {
        let monitor = try monitor("""
              - { title: Whole, resource: /s }
              - { title: Part, resource: /s, show: value, select: items.0.id }
            """ + "\n")
        #expect(monitor.probes.count == 2)
        #expect(monitor.probes[0].resource === monitor.probes[1].resource, "one resource, one state")
        try arrive(#"{"items":[]}"#, at: monitor.probes[0])
        #expect(monitor.probes[0].verdict == .ok)
        #expect(monitor.probes[1].verdict == .failing, "the part it selects is not there: \(monitor.probes[1].contentProblem ?? "")")
    }
}
