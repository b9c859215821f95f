import CleanSpawn
import Foundation
import Glibc
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HammockHarness
import ResourceEngine

/// The real `hammock` process polling N endpoints every second, and plain loops doing the same
/// requests through CurlProvider and URLSession as the floors to compare against.
enum EndToEndBench {
    struct Result {
        let label: String
        let endpoints: Int
        let figures: ProcessSampler.Figures
        let probesPerSecond: Double
        /// Heap allocations per probe, counted in a run of its own (the counter costs CPU).
        var allocationsPerProbe: Double?

        /// The same figures under another name (the previous build's row).
        func relabelled(_ label: String) -> Result {
            var result = Result(label: label, endpoints: endpoints, figures: figures, probesPerSecond: probesPerSecond)
            result.allocationsPerProbe = allocationsPerProbe
            return result
        }

        /// CPU time per probe in microseconds.
        var cpuMicrosecondsPerProbe: Double? {
            probesPerSecond > 0 ? figures.cpuPercent / 100 * 1_000_000 / probesPerSecond : nil
        }
    }

    /// The origin the run polls: `--origin nginx` or the built-in FlyingFox server.
    static func startServer() async throws -> BenchOrigin {
        try await BenchOrigin.start(Bench.origin)
    }

    static func config(endpoints: Int, baseURL: String, every: String = "1s") throws -> String {
        var yaml = """
            title: Bench \(endpoints)
            service:
              baseURL: \(baseURL)
              expiration: 500ms
              timeout: 5s
            panes:

            """
        for i in 0..<endpoints {
            yaml += "  - title: E\(i)\n    resource: /e/\(i)\n    every: \(every)\n    show: value\n    select: status\n"
        }
        yaml += "layout:\n  columns: 4\n"
        let path = ScratchDirectory.path("bench-\(endpoints)", extension: ".yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `hammock CONFIG` under tmux at 200×60: the dashboard draws for real; only its process is
    /// measured. `every` longer than the run measures it idle: loaded once, then only its clock.
    static func dashboard(hammock: String, endpoints: Int, seconds: Double, every: String = "1s", warmup: Double = 3) async throws -> Result {
        let server = try await startServer()
        let path = try config(endpoints: endpoints, baseURL: server.baseURL, every: every)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try DashboardRun(hammock: hammock, config: path)
        try await Task.sleep(for: .seconds(warmup))
        _ = await server.probes()
        let figures = await measure(pid: run.pid, seconds: seconds)
        let probes = Double(await server.probes()) / figures.seconds
        run.stop()
        await server.stop()
        let label = every == "1s" ? "hammock (dashboard under tmux)" : "hammock idle (every \(every))"
        return Result(label: label, endpoints: endpoints, figures: figures, probesPerSecond: probes)
    }

    /// `hammock serve CONFIG`: the same panes probed headless, serving `/metrics` (what
    /// blackbox_exporter does for Prometheus), no screen. Measured after the same warm-up.
    static func serve(hammock: String, endpoints: Int, seconds: Double, warmup: Double) async throws -> Result {
        let server = try await startServer()
        let path = try config(endpoints: endpoints, baseURL: server.baseURL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pid = try spawn([hammock, "serve", path, "--listen", "127.0.0.1:0"])
        let result = await sample(pid: pid, origin: server, seconds: seconds, warmup: warmup)
        await server.stop()
        return Result(label: "hammock serve (headless prober)", endpoints: endpoints, figures: result.figures, probesPerSecond: result.probes)
    }

    /// How long `hammock` takes from its start to its first frame with `panes` panes (each
    /// refreshing every minute), under tmux at 200×60: the median of `runs` starts, each with an
    /// empty cache. The config is read, the panes are built and drawn; loads start after the frame.
    static func startUp(hammock: String, panes: Int, runs: Int = 3) async throws -> Double {
        let server = try await startServer()
        let path = try config(endpoints: panes, baseURL: server.baseURL, every: "1m")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var times: [Double] = []
        for _ in 0..<runs {
            let run = try DashboardRun(hammock: hammock, config: path)
            if let age = run.ageAtFirstFrame { times.append(age) }
            run.stop()
        }
        await server.stop()
        guard let median = times.median else {
            throw TmuxHarness.Failure(description: "no first frame reported in \(runs) starts with \(panes) panes")
        }
        return median
    }

    /// `hammock CONFIG` under tmux at 200×60 with a cache directory of its own (the bench must
    /// not fill the user's), from its first frame until `stop()`.
    struct DashboardRun {
        let pid: pid_t
        /// Seconds from the process's start to the moment its first frame was reported.
        let ageAtFirstFrame: Double?
        private let tmux: TmuxHarness
        private let cacheDirectory: String

        init(hammock: String, config: String, environment: [String: String] = [:]) throws {
            cacheDirectory = ScratchDirectory.path("cache")
            let base = ["no_proxy": "127.0.0.1,localhost", "XDG_CACHE_HOME": cacheDirectory]
            tmux = try TmuxHarness(
                command: "'\(hammock)' '\(config)'", columns: 200, rows: 60, environment: base.merging(environment) { $1 })
            BenchCleanup.register(tmuxSocket: tmux.socket)
            pid = try tmux.waitForFrame(size: "200x60")
            ageAtFirstFrame = ProcessSampler(pid: pid).age()
            BenchCleanup.register(tmuxSocket: tmux.socket, hammock: pid)
        }

        /// Ends hammock and removes its cache once it has gone: it flushes the cache on its way
        /// out, and removing the directory earlier would see it written again.
        func stop() {
            BenchCleanup.unregister(tmuxSocket: tmux.socket)
            _ = try? tmux.tmux(["kill-server"])
            for _ in 0..<100 where kill(pid, 0) == 0 { usleep(50_000) }
            try? FileManager.default.removeItem(atPath: cacheDirectory)
        }
    }

    /// `hammock-bench floor-worker`: N GETs every second and nothing else, through URLSession or,
    /// with `curl`, through the `CurlProvider` that `hammock` uses.
    static func floor(bench: String, endpoints: Int, seconds: Double, curl: Bool = false, warmup: Double = 3) async throws -> Result {
        let server = try await startServer()
        let pid = try spawn([bench, curl ? "floor-worker-curl" : "floor-worker", server.baseURL, "\(endpoints)", "\(Int(seconds + warmup + 2))"])
        let result = await sample(pid: pid, origin: server, seconds: seconds, warmup: warmup)
        await server.stop()
        return Result(
            label: curl ? "CurlProvider loop (floor)" : "URLSession loop (floor)", endpoints: endpoints, figures: result.figures,
            probesPerSecond: result.probes)
    }

    /// `hammock-curl-floor`: libcurl's multi interface in C, N reused handles, nothing else.
    static func cFloor(endpoints: Int, seconds: Double, warmup: Double = 3) async throws -> Result? {
        try await loopFloor("hammock-curl-floor", label: "libcurl in C (floor)", endpoints: endpoints, seconds: seconds, warmup: warmup)
    }

    /// `hammock-swift-floor`: the same loop in Swift without Foundation, so its memory is what the
    /// Swift runtime adds to libcurl's before a program does anything of its own.
    static func swiftFloor(endpoints: Int, seconds: Double, warmup: Double = 3) async throws -> Result? {
        try await loopFloor("hammock-swift-floor", label: "libcurl in Swift, no Foundation (floor)", endpoints: endpoints, seconds: seconds, warmup: warmup)
    }

    /// A floor program next to the bench (`NAME BASE_URL N SECONDS`), or nil when it is not built.
    private static func loopFloor(_ name: String, label: String, endpoints: Int, seconds: Double, warmup: Double) async throws -> Result? {
        let floor = Bench.binDirectory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: floor) else { return nil }
        let server = try await startServer()
        let pid = try spawn([floor, server.baseURL, "\(endpoints)", "\(Int(seconds + warmup + 2))"])
        let result = await sample(pid: pid, origin: server, seconds: seconds, warmup: warmup)
        await server.stop()
        return Result(label: label, endpoints: endpoints, figures: result.figures, probesPerSecond: result.probes)
    }

    /// A peer, when its Debian package is installed: monit checking N HTTP endpoints every
    /// second (`set daemon 1`, one `check host` per endpoint).
    static func monit(endpoints: Int, seconds: Double, warmup: Double = 3) async throws -> Result? {
        guard let monit = ["/usr/bin/monit", "/usr/sbin/monit"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        let server = try await startServer()
        let directory = ScratchDirectory.path("monit")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let port = server.port
        var control = """
            set daemon 1
            set pidfile \(directory)/monit.pid
            set idfile \(directory)/monit.id
            set statefile \(directory)/monit.state
            set logfile \(directory)/monit.log

            """
        for i in 0..<endpoints {
            control += "check host e\(i) with address 127.0.0.1\n  if failed port \(port) protocol http request \"/e/\(i)\" then alert\n"
        }
        let file = directory + "/monitrc"
        try control.write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let pid = try spawn([monit, "-I", "-c", file])
        usleep(500_000)
        guard stillRunning(pid) else {
            print("  (monit exited at start; no row)")
            await server.stop()
            return nil
        }
        let result = await sample(pid: pid, origin: server, seconds: seconds, warmup: warmup)
        await server.stop()
        guard result.figures.rssAverageMiB > 0 else {
            print("  (monit stopped during the run; no row)")
            return nil
        }
        return Result(label: "monit (peer)", endpoints: endpoints, figures: result.figures, probesPerSecond: result.probes)
    }

    /// A peer, when its Debian package is installed: prometheus-blackbox-exporter probing N
    /// endpoints a second, asked by `hammock-curl-floor` standing in for Prometheus (only the
    /// exporter is measured).
    static func blackbox(endpoints: Int, seconds: Double, warmup: Double = 3) async throws -> Result? {
        let exporter = "/usr/bin/prometheus-blackbox-exporter"
        let driver = Bench.binDirectory.appendingPathComponent("hammock-curl-floor").path
        guard FileManager.default.isExecutableFile(atPath: exporter), FileManager.default.isExecutableFile(atPath: driver) else { return nil }
        let server = try await startServer()
        let directory = ScratchDirectory.path("blackbox")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "modules:\n  http_2xx:\n    prober: http\n    timeout: 5s\n".write(toFile: directory + "/blackbox.yml", atomically: true, encoding: .utf8)
        let listen = "127.0.0.1:\(try PrometheusServer.freePort())"
        let pid = try spawn([exporter, "--config.file=\(directory)/blackbox.yml", "--web.listen-address=\(listen)", "--log.level=error"])
        usleep(500_000)
        guard stillRunning(pid) else {
            print("  (blackbox_exporter exited at start; no row)")
            await server.stop()
            return nil
        }
        let base = "http://\(listen)/probe?module=http_2xx&target=\(server.baseURL)"
        let driving = try spawn([driver, base, "\(endpoints)", "\(Int(seconds + warmup + 2))"])
        let result = await sample(pid: pid, origin: server, seconds: seconds, warmup: warmup)
        kill(driving, SIGKILL)
        var status: Int32 = 0
        waitpid(driving, &status, 0)
        await server.stop()
        guard result.figures.rssAverageMiB > 0, result.probes > 0 else {
            print("  (blackbox_exporter stopped or probed nothing during the run; no row)")
            return nil
        }
        return Result(label: "blackbox_exporter (peer)", endpoints: endpoints, figures: result.figures, probesPerSecond: result.probes)
    }

    /// True while `pid` has not exited (reaping it if it has).
    private static func stillRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Measures `pid` after a warm-up, counting the probes the server saw, then ends it.
    private static func sample(pid: pid_t, origin: BenchOrigin, seconds: Double, warmup: Double) async -> (figures: ProcessSampler.Figures, probes: Double) {
        try? await Task.sleep(for: .seconds(warmup))
        _ = await origin.probes()
        let figures = await measure(pid: pid, seconds: seconds)
        let probes = Double(await origin.probes()) / figures.seconds
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (figures, probes)
    }

    /// Heap allocations per probe of the dashboard polling N endpoints every second: a run of its
    /// own with `libHammockMallocCount.so` preloaded, counted over `seconds` after a warm-up.
    static func allocationsPerProbe(hammock: String, endpoints: Int, seconds: Double = 5, warmup: Double = 3) async throws -> Double? {
        let library = Bench.binDirectory.appendingPathComponent("libHammockMallocCount.so").path
        guard FileManager.default.fileExists(atPath: library) else { return nil }
        let countFile = ScratchDirectory.path("mallocs")
        guard FileManager.default.createFile(atPath: countFile, contents: Data(count: 8)) else { return nil }
        defer { unlink(countFile) }
        let server = try await startServer()
        let path = try config(endpoints: endpoints, baseURL: server.baseURL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try DashboardRun(hammock: hammock, config: path, environment: ["LD_PRELOAD": library, "HAMMOCK_MALLOC_COUNT_FILE": countFile])
        try await Task.sleep(for: .seconds(warmup))
        let before = readCount(countFile)
        _ = await server.probes()
        try await Task.sleep(for: .seconds(seconds))
        let after = readCount(countFile)
        let probes = await server.probes()
        run.stop()
        await server.stop()
        guard let before, let after, probes > 0 else { return nil }
        return Double(after - before) / Double(probes)
    }

    private static func readCount(_ path: String) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 8 else { return nil }
        return data.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }

    /// The sampler blocks, so it runs on a dispatch thread, not the cooperative pool that serves the server.
    static func measure(pid: pid_t, seconds: Double) async -> ProcessSampler.Figures {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: ProcessSampler(pid: pid).measure(seconds: seconds))
            }
        }
    }

    /// Starts a program (a path), its standard output thrown away, registered for `BenchCleanup`,
    /// which ends it if the bench is interrupted.
    static func spawn(_ argv: [String]) throws -> pid_t {
        let pid: pid_t
        do {
            pid = try CleanSpawn.spawn(argv, stdin: .inherited, stderr: .inherited)
        } catch {
            throw TmuxHarness.Failure(description: "cannot start \(argv[0]): \(error)")
        }
        BenchCleanup.register(child: pid)
        return pid
    }
}

/// The floors: a plain loop of requests, `endpoints` per second, and nothing else.
enum FloorWorker {
    /// Through URLSession.
    static func run(baseURL: String, endpoints: Int, seconds: Int) {
        let session = URLSession(configuration: .ephemeral)
        loop(endpoints: endpoints, seconds: seconds) { i, group in
            session.dataTask(with: URL(string: "\(baseURL)e/\(i)")!) { _, _, _ in group.leave() }.resume()
        }
    }

    /// Through `CurlProvider` alone: hammock's transport without the engine or the screen.
    @MainActor
    static func runCurl(baseURL: String, endpoints: Int, seconds: Int) {
        let provider = CurlProvider()
        loop(endpoints: endpoints, seconds: seconds) { i, group in
            _ = provider.startRequest(OutgoingRequest(url: URL(string: "\(baseURL)e/\(i)")!), progress: { _ in }) { _ in group.leave() }
        }
    }

    private static func loop(endpoints: Int, seconds: Int, start: (Int, DispatchGroup) -> Void) {
        let group = DispatchGroup()
        for _ in 0..<seconds {
            let started = Date()
            for i in 0..<endpoints {
                group.enter()
                start(i, group)
            }
            group.wait()
            let rest = 1 - Date().timeIntervalSince(started)
            if rest > 0 { usleep(useconds_t(rest * 1_000_000)) }
        }
    }
}
