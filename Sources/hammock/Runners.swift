import CursesBackend
import Dashboard
import DashboardConfig
import DashboardKeys
import Dispatch
import FoundationEssentials
import Glibc
import MetricsServer
import Monitor
import Redaction
import ResourceEngine
import TerminalUI

/// Connects a `DashboardApp` to the real terminal until the user quits.
@MainActor
enum DashboardRunner {
    static func run(
        spec: DashboardSpec, environment: [String: String], cacheDirectory: URL?, redactor: SharedRedactor, metricsListen: ListenAddress? = nil,
        mouse: Bool = false, greeting: String? = nil
    ) async -> Int32 {
        // Before the screen takes over: a cache that cannot be used is said on the status line,
        // an address the metrics cannot listen on ends the run with the reason.
        let diskCache = cacheDirectory.map { DiskEntityCache(directory: $0, owner: .hammock) }
        let cache = diskCache?.isUsable == true ? diskCache : nil
        let holder = AppHolder()
        var metrics: MetricsServer?
        if let metricsListen {
            do {
                metrics = try await MetricsServer.start(on: metricsListen, location: nil) { holder.app?.monitor }
            } catch {
                printError("hammock: --metrics-listen: \(error)")
                return ExitStatus.internalError.rawValue
            }
        }
        let session: TerminalSession
        do {
            session = try TerminalSession(mouse: mouse)
        } catch {
            printError("hammock: \(error)")
            return ExitStatus.internalError.rawValue
        }
        let terminal = Terminal(backend: session.backend)
        let app = DashboardApp(
            spec: spec, terminal: terminal, clock: SystemClock(), scheduler: DispatchScheduler(),
            historyStore: cache == nil ? nil : cacheDirectory.map(HistoryStore.init), environment: environment
        ) { $0.makeServices(networking: Hammock.networking(), cache: cache) }
        holder.app = app
        if let metrics { app.onStateChange = { metrics.stateChanged() } }
        let reloader = ConfigReloader(
            path: spec.file, current: spec, environment: environment, keysFile: ConfigLoader.personalKeysPath(environment: environment))
        let frameLog = FrameLog(environment: environment)
        StartupPages.releaseLater()
        let status: Int32 = await withCheckedContinuation { continuation in
            let once = Once()
            let finish: @MainActor (Int32) -> Void = { status in
                if once.claim() { continuation.resume(returning: status) }
            }
            app.onQuit = finish
            app.onSuspend = { session.suspend() }
            let pager = Pager.command(environment: environment)
            let pagerEnvironment = Pager.environment(environment)
            app.onPage = { text in session.page(text, command: pager, environment: pagerEnvironment) }
            // A config read again, by the file watch or after the editor: the redactor first.
            let applyReload: @MainActor (ConfigReloader.Outcome) -> Void = { outcome in
                if case .reloaded(let spec) = outcome { redactor.redactor = Redactor(spec) }
                app.send(.configReloaded(outcome))
            }
            let editor = Pager.editor(environment: environment)
            app.onEdit = { path in
                let problem = session.edit(path, command: editor)
                // Reloaded now, whether or not the file watch saw the save.
                applyReload(reloader.reload())
                return problem
            }
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
            let unwatched = reloader.watch(applyReload)
            app.start()
            // Until the first key: what the user should know before reading the screen.
            if let greeting { app.send(.flash(greeting + (app.spec.keyMap.primaryName(.showHelp).map { " · \($0) explains the symbols" } ?? ""))) }
            metrics?.publishNow()
            if let unwatched { app.send(.notice("editing the config does not reload it: \(unwatched)")) }
            if let problem = diskCache?.problem { app.send(.notice("running without the cache: \(problem)")) }
        }
        reloader.stop()
        app.stop()
        session.shutdown()
        cache?.flush()
        await metrics?.stop()
        return status
    }
}

/// The dashboard once it exists, for the metrics endpoint started before it.
@MainActor
final class AppHolder {
    var app: DashboardApp?
}

/// `hammock serve`: the panes probed without a screen, their state served to Prometheus.
@MainActor
enum ServeRunner {
    /// `choose` picks the panes to probe from each config (`--tag`), reloaded ones too.
    static func run(
        spec: DashboardSpec, environment: [String: String], listen: ListenAddress, location: String?, redactor: SharedRedactor,
        choose: @escaping @MainActor (DashboardSpec) -> DashboardSpec = { $0 }
    ) async -> Int32 {
        // No persistent cache: a prober reports what it saw in this run, never data from the last.
        let monitor = Monitor(
            spec: spec, clock: SystemClock(), scheduler: DispatchScheduler(), environment: environment, oneLine: Sanitizer.line
        ) { $0.makeServices(networking: Hammock.networking()) }
        monitor.onNotice = { printError("hammock serve: \($0)") }
        monitor.onAlertActionFailed = { printError("hammock serve: \($0)") }
        monitor.location = location
        let server: MetricsServer
        do {
            server = try await MetricsServer.start(on: listen, monitor: monitor, location: location)
            monitor.onStateChange = { server.stateChanged() }
        } catch {
            printError("hammock serve: \(error)")
            return ExitStatus.internalError.rawValue
        }
        let reloader = ConfigReloader(path: spec.file, current: spec, environment: environment)
        let unwatched = reloader.watch { outcome in
            // The log's redactor first: what the new config's start logs is masked by it.
            var outcome = outcome
            if case .reloaded(let newSpec) = outcome {
                redactor.redactor = Redactor(newSpec)
                outcome = .reloaded(choose(newSpec))
            }
            switch monitor.apply(outcome) {
            case .reloaded:
                let count = monitor.probes.count
                printLine("hammock serve: config reloaded: \(count) pane\(count == 1 ? "" : "s")")
            case .rejected(let line):
                printError("hammock serve: " + line)
            case .unchanged:
                break
            }
        }
        // An Alertmanager alert links back to what this prober says of its panes.
        monitor.generatorURL = "http://\(server.address)/api/panes"
        monitor.start()
        server.publishNow()
        let scope = server.address.isLoopback ? "" : " (every client that can reach \(server.address.host) can read it)"
        printLine(
            "hammock serve: \(spec.panes.count) pane\(spec.panes.count == 1 ? "" : "s") from \(spec.file)"
                + (location.map { " at location \($0)" } ?? "") + "; http://\(server.address)/metrics\(scope)")
        if let unwatched { printError("hammock serve: editing the config does not reload it: \(unwatched)") }
        StartupPages.releaseLater()
        await waitForInterrupt()
        reloader.stop()
        monitor.stop()
        await server.stop()
        return 0
    }
}

/// Runs panes without a screen and prints each resource event as a JSON line.
@MainActor
enum EventsRunner {
    static func run(spec: DashboardSpec, limit: Int?) async {
        let monitor = Monitor(spec: spec, clock: SystemClock(), scheduler: DispatchScheduler(), oneLine: Sanitizer.line) {
            $0.makeServices(networking: Hammock.networking())
        }
        var signals: SignalPipe?
        StartupPages.releaseLater()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once()
            let finish: @MainActor () -> Void = { if once.claim() { continuation.resume() } }
            var printed = 0
            monitor.onEvent = { entry in
                guard !once.isClaimed else { return }
                printLine(EventLine.json(entry))
                printed += 1
                if let limit, printed >= limit { finish() }
            }
            signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP]) { _ in finish() }
            if limit == 0 { finish() } else { monitor.start() }
        }
        monitor.stop()
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
