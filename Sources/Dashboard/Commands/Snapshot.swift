import DashboardConfig
import FoundationEssentials
import Monitor
import Redaction
import ResourceEngine
import TerminalUI

/// `hammock snapshot`: load every pane once, then one frame as text or each pane's state as JSON.
///
/// Usable from scripts and CI: `ok` is true only when every pane has data and no error. With a
/// history store, each pane's uptime covers the probes the dashboard kept, plus this one.
@MainActor
public enum Snapshot {
    public struct Result: Sendable {
        public let lines: [String]
        public let json: JSON
        public let ok: Bool
    }

    /// Loads every pane (honouring each request's configured timeout) and captures the result.
    public static func take(
        spec: DashboardSpec, columns: Int, rows: Int, clock: any EngineClock = SystemClock(), historyStore: HistoryStore? = nil,
        makeServices: @escaping @MainActor (DashboardSpec) -> ServiceGroup
    ) async -> Result {
        let backend = TestBackend(columns: columns, rows: rows)
        let app = DashboardApp(
            spec: spec, terminal: Terminal(backend: backend), clock: clock, scheduler: DispatchScheduler(), historyStore: historyStore,
            makeServices: makeServices)
        app.refreshesOnItsOwn = false  // one load per pane, no refresh cadence
        app.savesHistory = false  // a look, not a run: the dashboard's kept probes are read, not changed
        app.actsOnAlerts = false  // a script's look must not page anyone
        app.showsKeys = false  // read in a log, not pressed
        app.start()
        for probe in app.monitor.probes { probe.loadIfNeeded() }
        // A chained pane loads once its source's answer names its request: a round per link.
        for _ in 0...app.monitor.probes.count {
            let inFlight = app.monitor.probes.flatMap(\.resource.loadRequests)
            if inFlight.isEmpty { break }
            for request in inFlight { _ = await request.result }
        }
        app.drawNow()
        var lines = backend.lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
        // The footer, without keys to name, is empty.
        if lines.last?.isEmpty == true { lines.removeLast() }
        let json = state(of: app)
        app.stop()
        return Result(lines: lines, json: json, ok: json["ok"] == true)
    }

    /// The dashboard's panes as `snapshot --json` gives them (see `PaneStates`).
    public static func state(of app: DashboardApp) -> JSON {
        PaneStates.json(of: app.monitor)
    }
}
