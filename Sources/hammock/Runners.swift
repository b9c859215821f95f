import CurlNetworking
import CursesBackend
import Dashboard
import DashboardConfig
import Dispatch
import Foundation
import Glibc
import ResourceEngine
import TerminalUI

/// Connects a `DashboardApp` to the real terminal until the user quits.
@MainActor
enum DashboardRunner {
    static func run(spec: DashboardSpec, environment: [String: String], cacheDirectory: URL?, redactor: SharedRedactor) async -> Int32 {
        // Before the screen takes over: a cache that cannot be used is said on the status line.
        let diskCache = cacheDirectory.map { DiskEntityCache(directory: $0) }
        let cache = diskCache?.isUsable == true ? diskCache : nil
        let session: TerminalSession
        do {
            session = try TerminalSession()
        } catch {
            printError("hammock: \(error)")
            return 1
        }
        let terminal = Terminal(backend: session.backend)
        let app = DashboardApp(
            spec: spec, terminal: terminal, clock: SystemClock(), scheduler: DispatchScheduler(),
            historyStore: cache == nil ? nil : cacheDirectory.map(HistoryStore.init), environment: environment
        ) { $0.makeService(networking: Hammock.networking(), cache: cache) }
        let reloader = ConfigReloader(path: spec.file, current: spec, environment: environment)
        let frameLog = FrameLog(environment: environment)
        let status: Int32 = await withCheckedContinuation { continuation in
            let once = Once()
            let finish: @MainActor (Int32) -> Void = { status in
                if once.claim() { continuation.resume(returning: status) }
            }
            app.onQuit = finish
            app.onSuspend = { session.suspend() }
            let pager = Pager.command(environment: environment)
            app.onPage = { text in session.page(text, command: pager) }
            app.onFrame = { _ in frameLog.frame(size: terminal.size) }
            session.start { event in
                switch event {
                case .key(let key): app.send(.key(key))
                case .resize: app.send(.resized)
                case .resumed:
                    terminal.forceFullRedraw()
                    app.send(.resized)
                case .signal(let signal): finish(128 + signal)
                case .inputClosed: finish(0)
                }
            }
            let unwatched = reloader.watch { outcome in
                if case .reloaded(let spec) = outcome { redactor.redactor = Redactor(spec) }
                app.send(.configReloaded(outcome))
            }
            app.start()
            if let unwatched { app.send(.notice("editing the config does not reload it: \(unwatched)")) }
            if let problem = diskCache?.problem { app.send(.notice("running without the cache: \(problem)")) }
        }
        reloader.stop()
        app.stop()
        session.shutdown()
        cache?.flush()
        return status
    }
}

/// Runs panes without a screen and prints each resource event as a JSON line.
@MainActor
enum EventsRunner {
    static func run(spec: DashboardSpec, limit: Int?) async {
        let app = DashboardApp(spec: spec, terminal: nil, clock: SystemClock(), scheduler: DispatchScheduler()) { $0.makeService(networking: Hammock.networking()) }
        var signals: SignalPipe?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once()
            let finish: @MainActor () -> Void = { if once.claim() { continuation.resume() } }
            var printed = 0
            app.onEvent = { entry in
                guard !once.isClaimed else { return }
                printLine(EventLine.json(entry))
                printed += 1
                if let limit, printed >= limit { finish() }
            }
            signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP]) { _ in finish() }
            if limit == 0 { finish() } else { app.start() }
        }
        app.stop()
        _ = signals
    }
}

/// Writes `frame N COLSxROWS pid P` lines to `HAMMOCK_FRAME_FIFO`, for end-to-end tests.
@MainActor
final class FrameLog {
    private let fd: Int32
    private var frames = 0

    init(environment: [String: String]) {
        fd = environment["HAMMOCK_FRAME_FIFO"].map { open($0, O_WRONLY | O_NONBLOCK) } ?? -1
    }

    func frame(size: Size) {
        guard fd >= 0 else { return }
        frames += 1
        let line = "frame \(frames) \(size) pid \(getpid())\n"
        _ = line.withCString { write(fd, $0, strlen($0)) }
    }
}

/// A flag that can be claimed once.
@MainActor
final class Once {
    private(set) var isClaimed = false

    func claim() -> Bool {
        defer { isClaimed = true }
        return !isClaimed
    }
}

/// Suspends until SIGINT or SIGTERM.
@MainActor
func waitForInterrupt() async {
    var signals: SignalPipe?
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let once = Once()
        signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP]) { _ in
            if once.claim() { continuation.resume() }
        }
    }
    _ = signals
}
