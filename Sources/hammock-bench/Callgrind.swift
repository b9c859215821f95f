import Foundation
import HammockHarness

/// The release `hammock` under callgrind, for `link-order` and `instructions`.
enum Callgrind {
    /// valgrind's path and a copy of the release `hammock` in `work` that it can read: valgrind
    /// 3.19 cannot read the debug information lld writes; the symbol table is enough.
    static func ready(in work: URL, for command: String) throws -> (valgrind: String, hammock: String) {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw TmuxHarness.Failure(description: "\(command) needs valgrind: sudo apt-get install valgrind")
        }
        // HAMMOCK_BENCH_HAMMOCK measures another build (a previous one, to set beside this).
        let hammock = ProcessInfo.processInfo.environment["HAMMOCK_BENCH_HAMMOCK"] ?? Bench.binDirectory.appendingPathComponent("hammock").path
        let copy = work.appendingPathComponent("hammock").path
        let stripped = try ProcessRunner.captureBlocking(["objcopy", "--strip-debug", hammock, copy], timeout: 120)
        guard stripped.status == 0 else { throw TmuxHarness.Failure(description: "objcopy --strip-debug failed: \(stripped.output)") }
        return (valgrind, copy)
    }

    /// `hammock ARGUMENTS` under callgrind in tmux at 200×60, once it has drawn its first frame.
    static func start(valgrind: String, hammock: String, arguments: String, profile: String, options: String = "") throws -> TmuxHarness {
        let command = "'\(valgrind)' --tool=callgrind \(options) --callgrind-out-file='\(profile)' '\(hammock)' \(arguments) 2>/dev/null"
        // Start-up's pages stay: valgrind forgets the symbols of pages the program unmaps.
        let tmux = try TmuxHarness(
            command: command, columns: 200, rows: 60, environment: ["no_proxy": "127.0.0.1,localhost", StartupPagesSetting.keep: "1"])
        BenchCleanup.register(tmuxSocket: tmux.socket)
        // Under callgrind everything is ~50 times slower: the first frame takes seconds.
        let first = try tmux.waitForLine(timeout: 120, "first frame") { _ in true }
        if first.hasPrefix("exit") { throw TmuxHarness.Failure(description: "hammock \(arguments) under callgrind ended: \(first)") }
        return tmux
    }
}

/// The environment variable that keeps `hammock`'s start-up pages mapped (Sources/hammock/StartupPages.swift).
enum StartupPagesSetting {
    static let keep = "HAMMOCK_KEEP_STARTUP_PAGES"
}
