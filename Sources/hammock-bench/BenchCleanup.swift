import Dispatch
import Foundation
import Glibc
import Synchronization

/// What the bench has started and must not leave behind when it is interrupted: dashboards in
/// tmux servers of their own (a tmux server is a daemon; Ctrl-C does not reach it, and the
/// `hammock` inside would go on polling a thousand endpoints), child processes (nginx, the floors,
/// monit and blackbox_exporter: Ctrl-C reaches them through the process group, but a plain
/// `kill` of the bench does not), and the temporary files and directories it made, which all live
/// in one directory of its own (`scratch`).
///
/// On SIGINT, SIGTERM or SIGHUP everything still registered is stopped, then the bench exits with
/// 128 + the signal's number (its directory goes at exit).
enum BenchCleanup {
    private struct Registry {
        /// tmux servers by socket, with the pid of the `hammock` inside when known.
        var tmuxServers: [String: pid_t?] = [:]
        var children: Set<pid_t> = []
    }

    private static let registry = Mutex(Registry())
    private static let queue = DispatchQueue(label: "hammock-bench.signals")
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Stops and removes what is registered when one of the usual stop signals arrives.
    static func installSignalHandlers() {
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                FileHandle.standardError.write(Data("\nhammock-bench: interrupted; stopping what it started…\n".utf8))
                cleanUp()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// A path in this run's own directory (`hammock-bench-PID` in the temporary directory, 0700),
    /// which goes when the bench exits, however it exits short of SIGKILL; a run killed outright
    /// has its directory, and the nginx it started, swept by the next run.
    static func scratch(_ name: String) -> String { root + "/" + name }

    private static let root: String = {
        let temporary = FileManager.default.temporaryDirectory.path
        sweepRunsThatDied(in: temporary)
        let root = temporary + "/hammock-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        atexit { try? FileManager.default.removeItem(atPath: BenchCleanup.root) }
        return root
    }()

    /// Directories of bench runs whose process is gone: the nginx a run started is stopped (it
    /// left its pid in its directory), then the directory is removed.
    private static func sweepRunsThatDied(in temporary: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix("hammock-bench-") {
            guard let pid = pid_t(name.dropFirst("hammock-bench-".count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let directory = temporary + "/" + name
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where entry.hasPrefix("nginx-") {
                guard let text = try? String(contentsOfFile: "\(directory)/\(entry)/nginx.pid", encoding: .utf8),
                    let nginx = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                    (try? String(contentsOfFile: "/proc/\(nginx)/comm", encoding: .utf8))?.hasPrefix("nginx") == true
                else { continue }
                kill(nginx, SIGQUIT)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    static func register(tmuxSocket: String, hammock pid: pid_t? = nil) { registry.withLock { $0.tmuxServers[tmuxSocket] = pid } }
    static func unregister(tmuxSocket: String) { registry.withLock { _ = $0.tmuxServers.removeValue(forKey: tmuxSocket) } }
    static func register(child pid: pid_t) { registry.withLock { _ = $0.children.insert(pid) } }

    /// Ends every registered dashboard and child still running.
    static func cleanUp() {
        let registered = registry.withLock { registry -> Registry in
            defer { registry = Registry() }
            return registry
        }
        for socket in registered.tmuxServers.keys {
            run(["tmux", "-S", socket, "-f", "/dev/null", "kill-server"])
        }
        // The `hammock` inside a tmux server ends on its SIGHUP and writes its cache on the way.
        let dashboards = registered.tmuxServers.values.compactMap { $0 }
        var running = registered.children.filter(isRunningChild)
        for pid in running { kill(pid, SIGTERM) }
        for _ in 0..<40 {
            running = running.filter(isRunningChild)
            if running.isEmpty && !dashboards.contains(where: { kill($0, 0) == 0 }) { break }
            usleep(50_000)
        }
        for pid in running.filter(isRunningChild) {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Only a child not yet reaped is signalled: a pid the bench has waited for may belong to
    /// someone else by now, and `waitpid` answers only for the bench's own children (and reaps
    /// one that has ended).
    private static func isRunningChild(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Runs a command found on the PATH to its end.
    private static func run(_ argv: [String]) {
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, argv[0], nil, nil, &cArguments, environ) == 0 else { return }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
