import Foundation
import Glibc
import HammockHarness
import ResourceEngine

/// `hammock-bench`: performance as measured figures, side by side in one run.
///
///     swift build -c release --static-swift-stdlib           the build users install, then:
///     .build/release/hammock-bench                           all figures, printed as a table
///     .build/release/hammock-bench --output docs/benchmarks.md
///     .build/release/hammock-bench --quick                   shorter end-to-end runs
///     .build/release/hammock-bench --sizes 50,200            end to end for these endpoint counts only
///     .build/release/hammock-bench engine                    in-process figures only (seconds)
///     .build/release/hammock-bench soak --minutes 10 --endpoints 200   (--floor, --floor-curl: a floor loop instead)
///     .build/release/hammock-bench serve                     the bench's server alone, for experiments
///     .build/release/hammock-bench link-order                rewrite Sources/hammock/hammock.order (needs valgrind)
///     .build/release/hammock-bench size                      the binary: sizes, ICU data, Foundation modules linked
///     .build/release/hammock-bench instructions --endpoints 50   instructions per probe, by callgrind (needs valgrind)
///     .build/release/hammock-bench instructions --serve          the same of `hammock serve`: the engine's path, no frames
///     .build/release/hammock-bench instructions --endpoints 1000 --every 5s   a thousand panes' screen at a pace callgrind keeps up with
///     .build/release/hammock-bench ratio --endpoints 1000 --runs 5   the dashboard against the C floor, interleaved runs
///     .build/release/hammock-bench compare --baseline OLD [--candidate NEW]   two builds side by side, pair by pair
///     --origin nginx                                         poll Debian's nginx instead of the built-in server
@main
struct Bench {
    @MainActor
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = usageProblem(arguments) {
            let usage = """
                usage: hammock-bench [engine] [--quick] [--sizes 50,200,1000] [--origin builtin|nginx] [--output FILE] [--baseline HAMMOCK]
                       hammock-bench soak [--minutes 10] [--endpoints 200] [--floor | --floor-curl] [--origin builtin|nginx]
                       hammock-bench serve [--origin builtin|nginx]
                       hammock-bench link-order [--output Sources/hammock/hammock.order]
                       hammock-bench size [--baseline HAMMOCK]   (sizes, ICU data, Foundation modules linked)
                       hammock-bench instructions [--endpoints 50] [--seconds 30] [--every 1s] [--serve] [--origin builtin|nginx]
                       hammock-bench ratio [--endpoints 1000] [--runs 5] [--origin builtin|nginx]
                       hammock-bench compare --baseline HAMMOCK [--candidate HAMMOCK] [--endpoints 1000] [--pairs 4]
                                     [--warmup 60] [--seconds 30] [--baseline-env KEY=VALUE] [--candidate-env KEY=VALUE]
                                     [--origin builtin|nginx]   (the candidate defaults to the hammock next to hammock-bench)
                Run it from a release build: swift build -c release --static-swift-stdlib && .build/release/hammock-bench

                """
            FileHandle.standardError.write(Data(((problem.isEmpty ? "" : "hammock-bench: \(problem)\n") + usage).utf8))
            exit(problem.isEmpty ? 0 : 2)
        }
        if arguments.first == "floor-worker", arguments.count == 4, let n = Int(arguments[2]), let s = Int(arguments[3]) {
            FloorWorker.run(baseURL: arguments[1], endpoints: n, seconds: s)
            return
        }
        if arguments.first == "floor-worker-curl", arguments.count == 4, let n = Int(arguments[2]), let s = Int(arguments[3]) {
            FloorWorker.runCurl(baseURL: arguments[1], endpoints: n, seconds: s)
            return
        }
        // `serve` stops its origin on these signals itself; everything else leaves nothing running.
        if arguments.first != "serve" { BenchCleanup.installSignalHandlers() }
        do {
            if arguments.first == "serve" {
                // A bench origin for experiments by hand: prints its base URL, serves until killed.
                let server = try await EndToEndBench.startServer()
                FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
                // nginx is a process of its own: stop it on the way out.
                let (stopping, continuation) = AsyncStream<Void>.makeStream()
                let sources = [SIGINT, SIGTERM, SIGHUP].map { signal in
                    Glibc.signal(signal, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: signal, queue: .main)
                    source.setEventHandler { continuation.yield() }
                    source.resume()
                    return source
                }
                for await _ in stopping { break }
                sources.forEach { $0.cancel() }
                await server.stop()
                exit(0)
            }
            if arguments.first == "link-order" {
                try await LinkOrder.run(output: arguments.firstIndex(of: "--output").map { arguments[$0 + 1] } ?? "Sources/hammock/hammock.order")
                return
            }
            if arguments.first == "size" {
                try BinarySize.run(baseline: arguments.firstIndex(of: "--baseline").map { arguments[$0 + 1] })
                return
            }
            if arguments.first == "instructions" {
                try await InstructionCount.run(
                    endpoints: Int(value(after: "--endpoints", in: arguments) ?? 50), seconds: value(after: "--seconds", in: arguments) ?? 30,
                    every: text(after: "--every", in: arguments) ?? "1s", serve: arguments.contains("--serve"))
                return
            }
            if arguments.first == "ratio" {
                try await FloorRatio.run(
                    endpoints: Int(value(after: "--endpoints", in: arguments) ?? 1000), runs: Int(value(after: "--runs", in: arguments) ?? 5))
                return
            }
            if arguments.first == "compare" {
                try await SideBySide.run(compareOptions(arguments))
                return
            }
            if arguments.first == "soak" {
                try await Soak.run(
                    minutes: value(after: "--minutes", in: arguments) ?? 10, endpoints: Int(value(after: "--endpoints", in: arguments) ?? 200),
                    floor: arguments.contains("--floor-curl") ? "floor-worker-curl" : arguments.contains("--floor") ? "floor-worker" : nil)
            } else {
                let sizes = arguments.firstIndex(of: "--sizes").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
                    .map { $0.split(separator: ",").compactMap { Int($0) } } ?? [50, 200, 1000]
                try await runAll(
                    quick: arguments.contains("--quick"), engineOnly: arguments.first == "engine", sizes: sizes,
                    output: arguments.firstIndex(of: "--output").map { arguments[$0 + 1] },
                    baseline: arguments.firstIndex(of: "--baseline").map { URL(fileURLWithPath: arguments[$0 + 1]).standardizedFileURL.path })
            }
        } catch {
            FileHandle.standardError.write(Data("hammock-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Nil when the arguments make sense; "" for --help; otherwise what is wrong with them.
    static func usageProblem(_ arguments: [String]) -> String? {
        if arguments.contains("--help") || arguments.contains("-h") { return "" }
        if let first = arguments.first, first.hasPrefix("floor-worker") { return nil }
        let commands = ["engine", "soak", "serve", "link-order", "instructions", "ratio", "compare", "size"]
        let flags = ["--quick", "--floor", "--floor-curl", "--serve"]
        let valued = [
            "--sizes", "--output", "--minutes", "--endpoints", "--origin", "--seconds", "--runs",
            "--baseline", "--candidate", "--pairs", "--warmup", "--baseline-env", "--candidate-env", "--every",
        ]
        if arguments.first == "compare", !arguments.contains("--baseline") {
            return "compare needs --baseline: the hammock build to measure against"
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if index == 0, commands.contains(argument) {
                index += 1
            } else if flags.contains(argument) {
                index += 1
            } else if valued.contains(argument) {
                guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else { return "\(argument) needs a value" }
                if argument == "--sizes", arguments[index + 1].split(separator: ",").contains(where: { (Int($0) ?? 0) <= 0 }) {
                    return "--sizes takes endpoint counts separated by commas, e.g. 50,200"
                }
                if argument == "--minutes" || argument == "--seconds" || argument == "--warmup", (Double(arguments[index + 1]) ?? 0) <= 0 {
                    return "\(argument) takes a positive number"
                }
                if argument == "--baseline-env" || argument == "--candidate-env", SideBySide.setting(arguments[index + 1]) == nil {
                    return "\(argument) takes KEY=VALUE"
                }
                if argument == "--endpoints" || argument == "--runs" || argument == "--pairs", (Int(arguments[index + 1]) ?? 0) <= 0 {
                    return "\(argument) takes a positive whole number"
                }
                if argument == "--every", !arguments[index + 1].hasSuffix("s") || (Double(arguments[index + 1].dropLast()) ?? 0) <= 0 {
                    return "--every takes seconds, e.g. 5s"
                }
                if argument == "--origin" {
                    guard let kind = BenchOrigin.Kind(rawValue: arguments[index + 1]) else { return "--origin is builtin or nginx" }
                    if kind == .nginx, BenchOrigin.nginxPath == nil { return "--origin nginx needs nginx: sudo apt-get install nginx-light" }
                }
                index += 2
            } else {
                return "unknown argument '\(argument)'"
            }
        }
        return nil
    }

    /// The origin named by `--origin` (the built-in server when absent).
    static var origin: BenchOrigin.Kind {
        CommandLine.arguments.firstIndex(of: "--origin").flatMap { CommandLine.arguments.indices.contains($0 + 1) ? BenchOrigin.Kind(rawValue: CommandLine.arguments[$0 + 1]) : nil } ?? .builtin
    }

    static func value(after flag: String, in arguments: [String]) -> Double? {
        text(after: flag, in: arguments).flatMap(Double.init)
    }

    static func text(after flag: String, in arguments: [String]) -> String? {
        arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }

    /// `compare`'s options from arguments `usageProblem` accepted; `--*-env` may repeat.
    static func compareOptions(_ arguments: [String]) -> SideBySide.Options {
        func text(_ flag: String) -> String? { Bench.text(after: flag, in: arguments) }
        func settings(_ flag: String) -> [String: String] {
            var environment: [String: String] = [:]
            for (index, argument) in arguments.enumerated() where argument == flag && arguments.indices.contains(index + 1) {
                if let (key, value) = SideBySide.setting(arguments[index + 1]) { environment[key] = value }
            }
            return environment
        }
        // Absolute: the dashboards start in tmux servers, not necessarily in this directory.
        func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
        var options = SideBySide.Options(
            baseline: absolute(text("--baseline") ?? ""), candidate: absolute(text("--candidate") ?? binDirectory.appendingPathComponent("hammock").path))
        options.endpoints = value(after: "--endpoints", in: arguments).map { Int($0) } ?? options.endpoints
        options.pairs = value(after: "--pairs", in: arguments).map { Int($0) } ?? options.pairs
        options.warmup = value(after: "--warmup", in: arguments) ?? options.warmup
        options.seconds = value(after: "--seconds", in: arguments) ?? options.seconds
        options.baselineEnvironment = settings("--baseline-env")
        options.candidateEnvironment = settings("--candidate-env")
        return options
    }

    static var binDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    @MainActor
    static func runAll(quick: Bool, engineOnly: Bool, sizes: [Int], output: String?, baseline: String? = nil) async throws {
        EngineLog.enabled = []
        var rows: [Row] = []
        print("engine…")
        rows.append(EngineBench.resourceLookup())
        rows.append(EngineBench.manyObservers())
        rows.append(try await EngineBench.thousandLoads())
        rows += EngineBench.pipelineThroughput()
        rows.append(try await EngineBench.parsesPerResponse())
        print("screen…")
        rows += try await EngineBench.screen()
        printTable(rows)
        if engineOnly { return }

        var endToEnd: [EndToEndBench.Result] = []
        var startUp: [(panes: Int, seconds: Double)] = []
        let hammock = binDirectory.appendingPathComponent("hammock").path
        if !FileManager.default.isExecutableFile(atPath: hammock) {
            // `swift run hammock-bench` builds only this program; the dashboard it measures is built here.
            let configuration = binDirectory.lastPathComponent
            let staticFlag = Linkage.isStatic(executable: CommandLine.arguments[0]) ? ["--static-swift-stdlib"] : []
            print("building hammock (\(configuration))…")
            _ = try? ProcessRunner.captureBlocking(["swift", "build", "-c", configuration] + staticFlag + ["--product", "hammock"], timeout: 1800)
        }
        let seconds: Double = quick ? 8 : 20
        print("hammock is measured after a \(Int(dashboardWarmup(quick: quick))) s warm-up, the floors and peers after 3 s")
        if let baseline {
            print("binary: " + ((try? BinarySize.measure(hammock))?.summary ?? "not measured"))
            print("previous build \(baseline): " + ((try? BinarySize.measure(baseline))?.summary ?? "not measured"))
        }
        if TmuxHarness.tmuxAvailable, FileManager.default.isExecutableFile(atPath: hammock) {
            for n in sizes {
                print("end to end: \(n) endpoints every second, \(Int(seconds)) s each…")
                var dashboard = try await EndToEndBench.dashboard(hammock: hammock, endpoints: n, seconds: seconds, warmup: dashboardWarmup(quick: quick))
                dashboard.allocationsPerProbe = try await EndToEndBench.allocationsPerProbe(hammock: hammock, endpoints: n)
                endToEnd.append(dashboard)
                endToEnd.append(try await EndToEndBench.serve(hammock: hammock, endpoints: n, seconds: seconds, warmup: dashboardWarmup(quick: quick)))
                var rows = 2
                if let baseline {
                    // The previous build in the same run, the same way.
                    endToEnd.append(
                        try await EndToEndBench.dashboard(hammock: baseline, endpoints: n, seconds: seconds, warmup: dashboardWarmup(quick: quick))
                            .relabelled("hammock, previous build (dashboard)"))
                    endToEnd.append(
                        try await EndToEndBench.serve(hammock: baseline, endpoints: n, seconds: seconds, warmup: dashboardWarmup(quick: quick))
                            .relabelled("hammock serve, previous build"))
                    rows += 2
                }
                if let floor = try await EndToEndBench.cFloor(endpoints: n, seconds: seconds) {
                    endToEnd.append(floor)
                    rows += 1
                } else {
                    print("  (no hammock-curl-floor next to hammock-bench: swift build -c release builds it)")
                }
                if let floor = try await EndToEndBench.swiftFloor(endpoints: n, seconds: seconds) {
                    endToEnd.append(floor)
                    rows += 1
                } else {
                    print("  (no hammock-swift-floor next to hammock-bench: swift build -c release builds it)")
                }
                endToEnd.append(try await EndToEndBench.floor(bench: CommandLine.arguments[0], endpoints: n, seconds: seconds, curl: true))
                endToEnd.append(try await EndToEndBench.floor(bench: CommandLine.arguments[0], endpoints: n, seconds: seconds))
                rows += 2
                for (name, peer) in [("monit", try await EndToEndBench.monit(endpoints: n, seconds: seconds)),
                                     ("prometheus-blackbox-exporter", try await EndToEndBench.blackbox(endpoints: n, seconds: seconds))] {
                    if let peer {
                        endToEnd.append(peer)
                        rows += 1
                    } else {
                        print("  (\(name) is not installed: sudo apt-get install \(name), for its row)")
                    }
                }
                printEndToEnd(Array(endToEnd.suffix(rows)))
            }
            print("start-up: time to the first frame…")
            for panes in [10, 1000, 10_000] {
                let seconds = try await EndToEndBench.startUp(hammock: hammock, panes: panes)
                startUp.append((panes, seconds))
                print(String(format: "  %6d panes: first frame after %.0f ms", panes, seconds * 1000))
                if let baseline {
                    let before = try await EndToEndBench.startUp(hammock: baseline, panes: panes)
                    print(String(format: "  %6d panes: first frame after %.0f ms (previous build)", panes, before * 1000))
                }
            }
            // After a minute every age reads in minutes: from then on an idle screen changes once a minute.
            print("idle: 50 panes that refresh every 10 minutes, \(Int(seconds)) s after a 65 s warm-up…")
            endToEnd.append(try await EndToEndBench.dashboard(hammock: hammock, endpoints: 50, seconds: seconds, every: "10m", warmup: 65))
            printEndToEnd(Array(endToEnd.suffix(1)))
        } else {
            print("end to end skipped: needs tmux and the hammock binary next to hammock-bench (swift build -c release)")
        }
        if let output {
            // Sections written by hand after the generated ones (the soak) are kept.
            let previous = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            let kept = previous.range(of: "\n## Soak").map { String(previous[$0.lowerBound...]) } ?? ""
            let report = Report.markdown(rows: rows, endToEnd: endToEnd, startUp: startUp, seconds: seconds, warmup: dashboardWarmup(quick: quick), hammock: hammock) + kept
            try report.write(toFile: output, atomically: true, encoding: .utf8)
            print("wrote \(output)")
        }
    }

    /// How long the dashboard runs before it is measured: its memory settles as the probe
    /// histories and caches fill (a 3 s window read 47 MiB at 1,000 endpoints where two minutes
    /// later it held 86), so full runs wait a minute; `--quick` runs say they did not.
    static func dashboardWarmup(quick: Bool) -> Double { quick ? 3 : 60 }

    static func printTable(_ rows: [Row]) {
        let width = rows.map(\.what.count).max() ?? 0
        for row in rows {
            print("\(row.area.padding(toLength: 7, withPad: " ", startingAt: 0)) \(row.what.padding(toLength: width, withPad: " ", startingAt: 0))  \(row.figure)\(row.target.isEmpty ? "" : "   (target: \(row.target))")")
        }
    }

    static func printEndToEnd(_ results: [EndToEndBench.Result]) {
        for result in results {
            var line = "  " + result.label.padding(toLength: 32, withPad: " ", startingAt: 0) + String(format: " N=%-5d CPU %6.2f %%  RSS avg %5.1f MiB  peak %5.1f MiB  %6.1f probes/s", result.endpoints, result.figures.cpuPercent, result.figures.rssAverageMiB, result.figures.rssPeakMiB, result.probesPerSecond)
            if result.figures.fromTicks { line += "  (CPU in ticks)" }
            if let perProbe = result.cpuMicrosecondsPerProbe { line += String(format: "  %6.1f µs/probe", perProbe) }
            if let allocations = result.allocationsPerProbe { line += String(format: "  %4.0f allocs/probe", allocations) }
            print(line)
        }
    }
}

/// The soak run: 200 endpoints for 10 minutes; memory must not grow past its first-minute plateau.
enum Soak {
    @MainActor
    /// - Parameter floor: a floor worker to soak instead of `hammock` (`floor-worker`: URLSession,
    ///   `floor-worker-curl`: CurlProvider).
    static func run(minutes: Double, endpoints: Int, floor: String?) async throws {
        let hammock = Bench.binDirectory.appendingPathComponent("hammock").path
        let server = try await EndToEndBench.startServer()
        let path = try EndToEndBench.config(endpoints: endpoints, baseURL: server.baseURL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var dashboard: EndToEndBench.DashboardRun?
        let pid: pid_t
        if let floor {
            pid = try EndToEndBench.spawn([CommandLine.arguments[0], floor, server.baseURL, "\(endpoints)", "\(Int(minutes * 60) + 5)"])
        } else {
            let run = try EndToEndBench.DashboardRun(hammock: hammock, config: path)
            pid = run.pid
            dashboard = run
        }
        print("soak\(floor.map { " (\($0))" } ?? ""): \(endpoints) endpoints for \(minutes) min (pid \(pid))")
        let figures = await EndToEndBench.measure(pid: pid, seconds: minutes * 60)
        let probes = Double(await server.probes()) / figures.seconds
        dashboard?.stop()
        if floor != nil { kill(pid, SIGKILL) }
        await server.stop()
        for (index, chunk) in stride(from: 0, to: figures.rssSamples.count, by: 120).enumerated() {
            let slice = figures.rssSamples[chunk..<min(chunk + 120, figures.rssSamples.count)]
            print(String(format: "  %4d s  RSS %.1f MiB", (index + 1) * 30, slice.reduce(0, +) / Double(slice.count)))
        }
        let perMinute = 240  // samples every 250 ms
        let firstMinute = figures.rssSamples.prefix(perMinute)
        let plateau = firstMinute.suffix(perMinute / 2).max() ?? 0
        let later = figures.rssSamples.dropFirst(perMinute)
        let laterPeak = later.max() ?? plateau
        let lastMinute = figures.rssSamples.suffix(perMinute)
        let ok = laterPeak <= plateau * 1.10 + 1
        print(String(format: "CPU %.1f %% of a core, %.1f probes/s", figures.cpuPercent, probes))
        print(String(format: "RSS: first-minute plateau %.1f MiB, peak after %.1f MiB, last-minute average %.1f MiB", plateau, laterPeak, lastMinute.reduce(0, +) / Double(max(1, lastMinute.count))))
        print(ok ? "PASS: memory stayed within 10 % (+1 MiB) of the first-minute plateau" : "FAIL: memory grew past the first-minute plateau")
        if !ok { exit(1) }
    }
}
