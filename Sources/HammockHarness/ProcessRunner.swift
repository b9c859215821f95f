import CleanSpawn
import Dispatch
import Foundation
import Glibc

/// Runs a program to completion for tests, with a time limit.
///
/// Uses `posix_spawn` with an empty signal mask and default dispositions (children of main-actor
/// code otherwise inherit blocked signals), output to files (a forked daemon cannot hold a pipe
/// open), and `waitpid` on a helper thread bounded by a semaphore: past the limit the child is
/// killed, so a hung program fails the test instead of hanging the run.
public enum ProcessRunner {
    public struct Outcome: Sendable {
        public let status: Int32
        public let output: String
        public let errors: String
    }

    public struct TimedOut: Error, CustomStringConvertible {
        public let command: String
        public var description: String { "\(command) did not finish in time and was killed" }
    }

    /// Runs `argv` (looked up on PATH), stdout and stderr both to `outputPath`.
    public static func run(_ argv: [String], outputPath: String, environment: [String: String]? = nil, timeout: Double = 60) throws -> Outcome {
        try spawn(argv, stdout: outputPath, stderr: outputPath, environment: environment, timeout: timeout)
    }

    /// `capture` for async tests: waits on a thread of its own, never on the global queues Swift
    /// concurrency runs on (as many threads as cores), so servers running in the test process
    /// keep being served meanwhile.
    public static func capture(_ argv: [String], environment: [String: String]? = nil, timeout: Double = 60) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try captureBlocking(argv, environment: environment, timeout: timeout) })
            }
        }
    }

    /// Runs `argv` and returns its exit status, standard output and standard error separately.
    public static func captureBlocking(_ argv: [String], environment: [String: String]? = nil, timeout: Double = 60) throws -> Outcome {
        let base = ScratchDirectory.path("run")
        defer {
            unlink(base + ".out")
            unlink(base + ".err")
        }
        return try spawn(argv, stdout: base + ".out", stderr: base + ".err", environment: environment, timeout: timeout)
    }

    /// Starts `argv` with standard input from /dev/null, output and errors to files (the same file
    /// for both when the paths are equal), a clean signal mask and default dispositions; returns its pid.
    public static func launch(_ argv: [String], stdout: String, stderr: String, environment: [String: String]? = nil) throws -> pid_t {
        let environment = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        do {
            return try CleanSpawn.spawn(argv, environment: environment, stdout: .file(stdout), stderr: stderr == stdout ? .sameAsOutput : .file(stderr))
        } catch {
            throw TmuxHarness.Failure(description: "cannot start \(argv.first ?? "nothing"): \(error)")
        }
    }

    private static func spawn(_ argv: [String], stdout: String, stderr: String, environment: [String: String]?, timeout: Double) throws -> Outcome {
        let pid = try launch(argv, stdout: stdout, stderr: stderr, environment: environment)
        let done = DispatchSemaphore(value: 0)
        let box = StatusBox()
        let child = pid
        // A thread of its own: one of the global queues' few threads, blocked in waitpid for as
        // long as the program runs, starved the servers other tests run in this process.
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            box.set(status)
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(pid, SIGKILL)
            done.wait()
            throw TimedOut(command: argv.joined(separator: " "))
        }
        let status = box.get()
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: stdout, encoding: .utf8)) ?? ""
        let errors = stderr == stdout ? output : ((try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "")
        return Outcome(status: exit, output: output, errors: errors)
    }

    private final class StatusBox: @unchecked Sendable {
        private let lock = NSLock()
        private var status: Int32 = 0
        func set(_ value: Int32) { lock.lock(); status = value; lock.unlock() }
        func get() -> Int32 { lock.lock(); defer { lock.unlock() }; return status }
    }
}
