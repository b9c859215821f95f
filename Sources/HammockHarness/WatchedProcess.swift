import CleanSpawn
import Dispatch
import Foundation
import Glibc
import LoopbackHTTP
import Synchronization

/// A long-running child process (a server) whose start-up is read from its own output.
///
/// `start` returns once `ready` finds what it looks for in the output so far (the address the
/// process printed, its "ready" line); it throws when the process exits first or the time runs
/// out, with the output so far. The process runs outside this test process, so its answers do not
/// wait on the test runner's busy threads.
public final class WatchedProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The child's process id.
    public let pid: pid_t
    private let exit: ExitSignal

    private init(pid: pid_t, exit: ExitSignal) {
        self.pid = pid
        self.exit = exit
    }

    /// Starts `argv` and waits until `ready` returns a value for its output (stdout and stderr).
    ///
    /// Spawned with `CleanSpawn` (nothing of the test process's inherited but its output pipe)
    /// and reaped by a thread of its own with `waitpid`, not through Foundation's `Process`: that
    /// learns of an exit when a socket the child holds closes, so a child started at the same
    /// moment by another test, inheriting that socket, kept the exit from being noticed and
    /// `waitUntilExit` spun for as long as the other child lived.
    public static func start<T: Sendable>(
        _ argv: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(30),
        ready: @escaping @Sendable (String) -> T?
    ) async throws -> (WatchedProcess, T) {
        let output: (read: Int32, write: Int32)
        do {
            output = try CleanSpawn.pipe()
        } catch {
            throw Failure(description: "cannot make a pipe for \(argv[0]): \(error)")
        }
        let pid: pid_t
        do {
            defer { close(output.write) }
            pid = try CleanSpawn.spawn(
                argv, environment: environment.map { $0.map { "\($0.key)=\($0.value)" } }, stdout: .descriptor(output.write),
                stderr: .sameAsOutput)
        } catch {
            close(output.read)
            throw Failure(description: "cannot start \(argv[0]): \(error)")
        }
        let signal = OutputSignal<T>(ready: ready)
        let exit = ExitSignal()
        let readEnd = output.read
        // The output is read to its end, or, when something the child started still holds it, to
        // the last byte written before the child exited.
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, 100)
                if polled < 0, errno == EINTR { continue }
                if polled == 0, !exit.happened { continue }
                if polled <= 0 { break }
                let count = read(readEnd, &buffer, buffer.count)
                if count > 0 {
                    signal.append(Data(buffer[0..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(readEnd)
            signal.finish(nil)
        }
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            exit.mark()
        }
        let watched = WatchedProcess(pid: pid, exit: exit)
        let timer = Task {
            try await Task.sleep(for: timeout)
            signal.finish(nil)
        }
        defer { timer.cancel() }
        guard let value = await signal.wait() else {
            watched.stop()
            throw Failure(description: "\(argv[0]) did not start:\n\(signal.text.suffix(2000))")
        }
        return (watched, value)
    }

    /// Ends the process (SIGTERM; SIGKILL if it is still there after `grace` seconds) and waits
    /// for it, as long again at most: a process that will not go fails its test rather than hang
    /// the run.
    public func stop(grace: Double = 10) {
        guard !exit.happened else { return }
        kill(pid, SIGTERM)
        if exit.wait(seconds: grace) { return }
        kill(pid, SIGKILL)
        _ = exit.wait(seconds: grace)
    }

    deinit { stop() }
}

/// Set once the child has been reaped; waited for with a time limit.
private final class ExitSignal: Sendable {
    private let done = Mutex(false)
    private let semaphore = DispatchSemaphore(value: 0)

    var happened: Bool { done.withLock { $0 } }

    func mark() {
        done.withLock { $0 = true }
        semaphore.signal()
    }

    func wait(seconds: Double) -> Bool {
        if happened { return true }
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return happened }
        semaphore.signal()
        return true
    }
}

/// Collects a process's output and reports once the first thing `ready` finds in it, or nil.
private final class OutputSignal<T: Sendable>: Sendable {
    private let output = Mutex("")
    private let outcome = OneShot<T?>()
    private let ready: @Sendable (String) -> T?

    init(ready: @escaping @Sendable (String) -> T?) {
        self.ready = ready
    }

    var text: String { output.withLock { $0 } }

    func append(_ data: Data) {
        let text = output.withLock { output -> String in
            output += String(decoding: data, as: UTF8.self)
            return output
        }
        if let value = ready(text) { finish(value) }
    }

    func finish(_ value: T?) {
        outcome.finish(value)
    }

    func wait() async -> T? {
        await outcome.wait()
    }
}
