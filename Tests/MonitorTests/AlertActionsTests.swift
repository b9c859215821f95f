import DashboardConfig
import Foundation
@testable import Monitor
import Testing

/// A storm of alerts (a whole origin going down) runs a few actions at a time, queues some,
/// drops the rest, says so twice (when dropping starts and how many when it ends), and retries
/// nothing.
@MainActor
@Suite struct AlertActionsTests {
    static func alert(_ n: Int) -> AlertActions.Alert {
        .init(kind: .firing, paneID: ObjectIdentifier(AlertActionsTests.self), pane: "P\(n)", state: "failing", message: "down", url: "https://x.test/\(n)", service: "", status: 503,
              since: 0, time: 0, dashboard: "D")
    }

    @Test func aStormRunsFourAtATimeQueuesSomeAndDropsTheRest() {
        let actions = AlertActions(environment: ["PATH": "/nonexistent"])
        var started: [String] = []
        var held: [@MainActor @Sendable (String?) -> Void] = []
        var problems: [String] = []
        actions.runCommand = { _, environment, _, done in
            started.append(environment["HAMMOCK_PANE"] ?? "?")
            held.append(done)
        }
        actions.onProblem = { _, message in problems.append(message) }
        var spec = AlertSpec()
        spec.exec = ["/bin/true"]
        for n in 0..<80 { actions.perform(Self.alert(n), spec: spec) }
        #expect(started == ["P0", "P1", "P2", "P3"])
        #expect(problems == ["alert actions dropped: more than 68 at once"])
        held.removeFirst()("exit 1")
        #expect(started.count == 5 && started.last == "P4", "a finished action lets the next queued one start")
        #expect(problems.last == "exit 1")
        while !held.isEmpty { held.removeFirst()(nil) }
        #expect(started.count == 68, "four running and sixty-four queued ran; twelve were dropped")
        #expect(problems.last == "12 alert actions were dropped in a burst of more than 68")
        #expect(Set(started).count == 68, "nothing retried")
    }

    @Test func resolvedAlertsAreQuietWhenAskedAndNeverRing() {
        let actions = AlertActions(environment: [:])
        var bells = 0
        var ran = 0
        actions.onBell = { bells += 1 }
        actions.runCommand = { _, _, _, done in
            ran += 1
            done(nil)
        }
        var spec = AlertSpec()
        spec.bell = true
        spec.exec = ["/bin/true"]
        let resolved = AlertActions.Alert(
            kind: .resolved, paneID: ObjectIdentifier(AlertActionsTests.self), pane: "P", state: "ok", message: "ok again", url: "", service: "", status: 200, since: 0, time: 1, dashboard: "D")
        actions.perform(resolved, spec: spec)
        #expect(bells == 0 && ran == 1)
        spec.onResolved = false
        actions.perform(resolved, spec: spec)
        #expect(ran == 1)
        actions.perform(Self.alert(1), spec: spec)
        #expect(bells == 1 && ran == 2)
    }
}
