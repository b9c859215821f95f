import Foundation
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

    private let process: Process

    private init(process: Process) {
        self.process = process
    }

    /// Starts `argv` and waits until `ready` returns a value for its output (stdout and stderr).
    public static func start<T: Sendable>(
        _ argv: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(30),
        ready: @escaping @Sendable (String) -> T?
    ) async throws -> (WatchedProcess, T) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let signal = OutputSignal<T>(ready: ready)
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                signal.finish(nil)
            } else {
                signal.append(data)
            }
        }
        process.terminationHandler = { _ in signal.finish(nil) }
        try process.run()
        let watched = WatchedProcess(process: process)
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

    /// Ends the process (SIGTERM) and waits for it.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
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
