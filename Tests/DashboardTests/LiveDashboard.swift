import CurlNetworking
import Dashboard
import DashboardConfig
import Foundation
import ResourceEngine
import ResourceEngineTesting
import TerminalUI

/// The dashboard headless over real HTTP: libcurl as `hammock` uses it, servers on 127.0.0.1,
/// the clock and the scheduler in the test's hands, a `TestBackend` screen.
@MainActor
final class LiveDashboard {
    let clock: ManualClock
    let scheduler: ManualScheduler
    let backend: TestBackend
    let app: DashboardApp

    init(spec: DashboardSpec, start: TimeInterval = 800_000_000, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) {
        let clock = ManualClock(start: start)
        self.clock = clock
        scheduler = ManualScheduler(now: { clock.now }, setNow: { clock.set($0) })
        backend = TestBackend(columns: columns, rows: rows)
        let networking = CurlProvider()
        app = DashboardApp(
            spec: spec, terminal: Terminal(backend: backend), clock: clock, scheduler: scheduler,
            timeZone: TimeZone(identifier: "UTC")!, minimumFrameInterval: 0, environment: environment
        ) { $0.makeServices(networking: networking, clock: clock) }
    }

    /// Waits for every load in flight, then for the frames they asked for.
    func settle() async throws {
        for _ in 0..<5 {
            let requests = app.panes.flatMap(\.resource.loadRequests)
            if requests.isEmpty { break }
            for request in requests { _ = try await request.awaitResult() }
        }
        try await drainMainQueue(turns: 3)
    }

    /// Moves time (timers fire), then settles.
    func advance(_ seconds: Double) async throws {
        scheduler.advance(by: seconds)
        try await settle()
    }
}
