import Dispatch
import Foundation
import Glibc
import HammockHarness
import Synchronization

/// What the bench has started and must not leave behind when it is interrupted: dashboards in
/// tmux servers of their own (a tmux server is a daemon; Ctrl-C does not reach it, and the
/// `hammock` inside would go on polling a thousand endpoints), child processes (nginx, the floors,
/// monit and blackbox_exporter: Ctrl-C reaches them through the process group, but a plain
/// `kill` of the bench does not). Its files are in `ScratchDirectory`, which goes at exit (and
/// whose sweep ends what a run killed outright left running).
///
/// On SIGINT, SIGTERM or SIGHUP everything still registered is stopped, then the bench exits with
/// 128 + the signal's number.
enum BenchCleanup {
    private struct Registry {
        /// tmux servers by socket, with the pid of the `hammock` inside when known.
        var tmuxServers: [String: pid_t?] = [:]
        var children: Set<pid_t> = []
    }

    private static let registry = Mutex(Registry())
    private static let queue = DispatchQueue(label: "hammock-bench.signals")
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Stops what is registered when one of the usual stop signals arrives.
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
            _ = try? ProcessRunner.captureBlocking(["tmux", "-S", socket, "-f", "/dev/null", "kill-server"], timeout: 5)
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

}
