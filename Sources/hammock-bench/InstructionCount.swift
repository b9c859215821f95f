import Foundation
import Glibc
import HammockHarness

/// `hammock-bench instructions`: user-space instructions per probe of the release dashboard,
/// counted by callgrind, which unlike a CPU reading repeats to within a percent from run to run.
///
/// The dashboard polls N endpoints every second under tmux at 200×60, drawing for real; after a
/// warm-up callgrind's counters are zeroed, then read after the window, and the total is divided
/// by the probes the origin answered in between. Frames are included; the kernel's share (sockets,
/// wake-ups, the terminal) is not. With `serve`, `hammock serve` is counted instead: the same
/// engine, panes and cadence without a screen, so the count holds the engine's path alone and
/// does not move with how many frames callgrind's slowness lets through.
enum InstructionCount {
    /// `every`: each pane's refresh interval; a thousand panes every 5 s draw the screen of a
    /// thousand at 200 probes a second, which callgrind keeps up with.
    static func run(endpoints: Int, seconds: Double, every: String = "1s", serve: Bool = false) async throws {
        let work = URL(fileURLWithPath: ScratchDirectory.path("instructions"))
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let (valgrind, copy) = try Callgrind.ready(in: work, for: "instructions")
        let server = try await EndToEndBench.startServer()
        let config = try EndToEndBench.config(endpoints: endpoints, baseURL: server.baseURL, every: every)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let profile = work.appendingPathComponent("profile").path
        if serve {
            // No screen, so no tmux: the prober is a child of the bench, ended once counted.
            let pid = try EndToEndBench.spawn([
                "/usr/bin/env", "\(StartupPagesSetting.keep)=1", valgrind, "--tool=callgrind", "--callgrind-out-file=\(profile)", copy, "serve", config, "--listen", "127.0.0.1:0",
            ])
            defer {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            }
            try await Task.sleep(for: .seconds(20))
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == 0 else { throw TmuxHarness.Failure(description: "hammock serve under callgrind ended early") }
            let probes = try await countWindow(seconds: seconds, origin: server)
            await server.stop()
            try report(endpoints: endpoints, seconds: seconds, probes: probes, dump: profile + ".1", what: "hammock serve, every thread, no screen")
            return
        }
        let tmux = try Callgrind.start(valgrind: valgrind, hammock: copy, arguments: "'\(config)' --no-cache", profile: profile)
        try await Task.sleep(for: .seconds(20))
        let probes = try await countWindow(seconds: seconds, origin: server)
        try tmux.sendKeys("q")
        _ = try tmux.waitForLine(timeout: 120, "exit") { $0.hasPrefix("exit") }
        await server.stop()
        try report(endpoints: endpoints, seconds: seconds, probes: probes, dump: profile + ".1", what: "every thread, frames included")
    }

    /// Callgrind's counters zeroed, `seconds` of probing, the counters dumped: the probes the
    /// origin answered in that window.
    private static func countWindow(seconds: Double, origin: BenchOrigin) async throws -> Int {
        try control(["-z"])
        _ = await origin.probes()
        try await Task.sleep(for: .seconds(seconds))
        try control(["-d"])
        return await origin.probes()
    }

    private static func report(endpoints: Int, seconds: Double, probes: Int, dump: String, what: String) throws {
        let instructions = try total(dump)
        // HAMMOCK_BENCH_PROFILE keeps callgrind's profile for `callgrind_annotate`.
        if let kept = ProcessInfo.processInfo.environment["HAMMOCK_BENCH_PROFILE"] {
            try? FileManager.default.removeItem(atPath: kept)
            try FileManager.default.copyItem(atPath: dump, toPath: kept)
        }
        guard probes > 0 else { throw TmuxHarness.Failure(description: "no probe answered in \(seconds) s") }
        print("\(endpoints) endpoints, \(Int(seconds)) s: \(probes) probes, \(instructions) instructions")
        print("instructions per probe: \(instructions / UInt64(probes))  (user space, \(what))")
    }

    /// `callgrind_control` on every callgrind process of this user (the bench runs one).
    private static func control(_ arguments: [String]) throws {
        let outcome = try ProcessRunner.captureBlocking(["callgrind_control"] + arguments, timeout: 60)
        guard outcome.status == 0 else { throw TmuxHarness.Failure(description: "callgrind_control \(arguments.joined(separator: " ")) failed: \(outcome.output)") }
    }

    /// The instruction count a dump reports (`summary:` or `totals:`).
    static func total(_ dump: String) throws -> UInt64 {
        let text = try String(contentsOfFile: dump, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
            if let value = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }) { return value }
        }
        throw TmuxHarness.Failure(description: "no instruction total in \(dump)")
    }
}
