import Dashboard
import DashboardConfig
import Foundation
import Monitor
import ResourceEngine
import ResourceEngineTesting
import TerminalUI

/// The whole dashboard headless: a config, a manual clock and scheduler, a `TestBackend` screen,
/// and networking of the test's choice — fake (`FakeNetworkingProvider`, stubbed and held) or
/// libcurl against servers on 127.0.0.1, as `hammock` runs. Keys in, screen out.
@MainActor
public final class DashboardHarness {
    /// What carries the panes' requests.
    public enum Networking: Sendable {
        /// `network`, a `FakeNetworkingProvider` the test stubs.
        case fake
        /// libcurl, as `hammock` uses it.
        case curl
    }

    /// The base URL `url(_:)` and `stub(_:_:method:)` resolve against.
    public static let base = "https://api.test/"
    /// 2026-05-09 06:13:20 UTC.
    public static let start: TimeInterval = 800_000_000

    /// The fake network (used only with `.fake`).
    public let network = FakeNetworkingProvider()
    public let clock: ManualClock
    public let scheduler: ManualScheduler
    public let backend: TestBackend
    public let app: DashboardApp
    /// The status `q` (or a signal) asked to exit with.
    public private(set) var quitStatus: Int32?

    /// The dashboard of `spec`. `environment` is what alert commands start from (and where
    /// `notify-send` is looked for).
    public init(
        spec: DashboardSpec, networking: Networking = .fake, start: TimeInterval = DashboardHarness.start,
        columns: Int = 80, rows: Int = 20, minimumFrameInterval: Double = 0, loadSettleTime: Double? = nil,
        environment: [String: String] = [:], batchWindow: Double = 0
    ) {
        let clock = ManualClock(start: start)
        self.clock = clock
        scheduler = ManualScheduler(now: { clock.now }, setNow: { clock.set($0) }, batchWindow: batchWindow)
        backend = TestBackend(columns: columns, rows: rows)
        let provider: any NetworkingProvider = networking == .fake ? network : CurlProvider()
        app = DashboardApp(
            spec: spec, terminal: Terminal(backend: backend), clock: clock, scheduler: scheduler,
            timeZone: ZoneInfo.utc, minimumFrameInterval: minimumFrameInterval, loadSettleTime: loadSettleTime,
            environment: environment
        ) { spec in spec.makeServices(networking: provider, clock: clock) }
        app.onQuit = { [weak self] in self?.quitStatus = $0 }
    }

    /// The dashboard of `yaml` (read as if from `file`) over fake networking.
    public convenience init(
        _ yaml: String, columns: Int = 80, rows: Int = 20, file: String = "hammock.yaml", minimumFrameInterval: Double = 0,
        loadSettleTime: Double? = nil, environment: [String: String] = ["PATH": "/usr/bin:/bin"], batchWindow: Double = 0
    ) throws {
        let spec = try ConfigLoader.parse(yaml, file: file, environment: environment)
        self.init(
            spec: spec, columns: columns, rows: rows, minimumFrameInterval: minimumFrameInterval, loadSettleTime: loadSettleTime,
            environment: environment, batchWindow: batchWindow)
    }

    /// `path` under `base`.
    public func url(_ path: String) -> String { Self.base + path }

    /// Stubs `method` on `path` (under `base`) on the fake network.
    public func stub(_ path: String, _ response: FakeNetworkingProvider.FakeResponse, method: RequestMethod = .get) {
        network.stub(method, url(path), response)
    }

    /// Waits for every load in flight (unless the test is holding responses), then for the frame
    /// they asked for.
    public func settle() async throws {
        for _ in 0..<5 where !network.holdsResponses {
            let requests = app.panes.flatMap(\.probe.resource.loadRequests)
            if requests.isEmpty { break }
            for request in requests { _ = try await request.awaitResult() }
        }
        try await drainMainQueue(turns: 3)
    }

    /// Sends keys, lets their effects settle, and returns the screen.
    @discardableResult
    public func press(_ keys: KeyEvent...) async throws -> [String] {
        for key in keys { app.send(.key(key)) }
        try await settle()
        return screen
    }

    /// Stops holding responses and sends the held ones.
    public func release() async throws {
        network.holdsResponses = false
        network.releaseAll()
        try await settle()
    }

    /// The screen's lines as text.
    public var screen: [String] { backend.lines }

    /// Moves time (timers fire), then settles.
    public func advance(_ seconds: Double) async throws {
        scheduler.advance(by: seconds)
        try await settle()
    }

    /// Prints the screen between bars, for writing a test's picture.
    public func printScreen() {
        print(screen.map { "|\($0)|" }.joined(separator: "\n"))
    }
}

/// True if `line` shows any spinner frame.
public func hasSpinner(_ line: String) -> Bool {
    Spinner.frames.contains { line.contains($0) }
}
