import Dashboard
import DashboardConfig
import Foundation
import ResourceEngine
import ResourceEngineTesting
import TerminalUI
import Testing

/// The whole dashboard headless: a config, fake networking, a manual clock and scheduler, and a
/// `TestBackend` screen. Keys in, screen out.
@MainActor
final class DashboardHarness {
    static let base = "https://api.test/"
    let network = FakeNetworkingProvider()
    let clock = ManualClock(start: 800_000_000)  // 2026-05-09 06:13:20 UTC
    let scheduler: ManualScheduler
    let backend: TestBackend
    let app: DashboardApp
    var quitStatus: Int32?

    /// `environment` is what alert commands start from (and where `notify-send` is looked for).
    init(
        _ yaml: String, columns: Int = 80, rows: Int = 20, file: String = "hammock.yaml", minimumFrameInterval: Double = 0,
        loadSettleTime: Double? = nil, environment: [String: String] = ["PATH": "/usr/bin:/bin"], batchWindow: Double = 0
    ) throws {
        let spec = try ConfigLoader.parse(yaml, file: file, environment: environment)
        let clock = clock
        scheduler = ManualScheduler(now: { clock.now }, setNow: { clock.set($0) }, batchWindow: batchWindow)
        backend = TestBackend(columns: columns, rows: rows)
        let network = network
        app = DashboardApp(
            spec: spec, terminal: Terminal(backend: backend), clock: clock, scheduler: scheduler,
            timeZone: TimeZone(identifier: "UTC")!, minimumFrameInterval: minimumFrameInterval, loadSettleTime: loadSettleTime,
            environment: environment
        ) { spec in spec.makeServices(networking: network, clock: clock) }
        app.onQuit = { [weak self] in self?.quitStatus = $0 }
    }

    func url(_ path: String) -> String { Self.base + path }

    func stub(_ path: String, _ response: FakeNetworkingProvider.FakeResponse, method: RequestMethod = .get) {
        network.stub(method, url(path), response)
    }

    /// Waits for every load in flight (unless the test is holding responses), then for the frame
    /// they asked for.
    func settle() async throws {
        for _ in 0..<5 where !network.holdsResponses {
            let requests = app.panes.flatMap(\.resource.loadRequests)
            if requests.isEmpty { break }
            for request in requests { _ = try await request.awaitResult() }
        }
        try await drainMainQueue(turns: 3)
    }

    /// Sends keys, lets their effects settle, and returns the screen.
    @discardableResult
    func press(_ keys: KeyEvent...) async throws -> [String] {
        for key in keys { app.send(.key(key)) }
        try await settle()
        return screen
    }

    /// Stops holding responses and sends the held ones.
    func release() async throws {
        network.holdsResponses = false
        network.releaseAll()
        try await settle()
    }

    var screen: [String] { backend.lines }

    /// Moves time (timers fire), then settles.
    func advance(_ seconds: Double) async throws {
        scheduler.advance(by: seconds)
        try await settle()
    }

    func printScreen() {
        print(screen.map { "|\($0)|" }.joined(separator: "\n"))
    }
}

/// True if `line` shows any spinner frame.
func hasSpinner(_ line: String) -> Bool {
    Spinner.frames.contains { line.contains($0) }
}
