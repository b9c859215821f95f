import CleanSpawn
import DashboardConfig
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Runs an alert's command away from the dashboard: its own session (no terminal, so it cannot
/// draw on the screen or take Ctrl-C), standard input and output from and to /dev/null, standard
/// error kept (its first 2 KiB) for the message when it fails, an empty signal mask, default
/// signal dispositions, no inherited descriptors, and a time limit after which its whole process
/// group is stopped. Never blocks the caller: `completion` gets nil for success or why not.
public enum DetachedCommand {
    /// How much of the command's standard error a failure message quotes.
    static let keptErrors = 2_048
    /// Between SIGTERM at the time limit and SIGKILL.
    static let killGrace: TimeInterval = 2

    public static func run(
        _ argv: [String], environment: [String: String], timeout: TimeInterval,
        completion: @escaping @MainActor @Sendable (String?) -> Void
    ) {
        let name = URL(fileURLWithPath: argv.first ?? "").lastPathComponent
        guard !argv.isEmpty else {
            DispatchQueue.main.async { MainActor.assumeIsolated { completion("\(name): no program") } }
            return
        }
        let pid: pid_t
        let readEnd: Int32
        do {
            let errorPipe = try CleanSpawn.pipe()
            defer { close(errorPipe.write) }
            do {
                pid = try CleanSpawn.spawn(
                    argv, environment: environment.map { "\($0.key)=\($0.value)" }, stderr: .descriptor(errorPipe.write), group: .newSession)
            } catch {
                close(errorPipe.read)
                throw error
            }
            readEnd = errorPipe.read
        } catch {
            DispatchQueue.main.async { MainActor.assumeIsolated { completion("\(name): \(error)") } }
            return
        }
        let child = Child(pid: pid)
        let errors = Mutex<[UInt8]>([])
        let readDone = DispatchSemaphore(value: 0)
        // Read standard error to its end (keeping the start), so the command never blocks on a full pipe.
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                errors.withLock { kept in
                    if kept.count < keptErrors { kept += buffer[0..<min(count, keptErrors - kept.count)] }
                }
            }
            close(readEnd)
            readDone.signal()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            child.signal(SIGTERM, timedOut: true)
            DispatchQueue.global().asyncAfter(deadline: .now() + killGrace) { child.signal(SIGKILL, timedOut: true) }
        }
        DispatchQueue.global().async {
            var status: Int32 = 0
            while waitpid(child.pid, &status, 0) == -1 && errno == EINTR {}
            let timedOut = child.reaped()
            // A grandchild may hold standard error open: wait a little, then report what came.
            _ = readDone.wait(timeout: .now() + 0.5)
            let text = errors.withLock { String(decoding: $0, as: UTF8.self) }
            let reason = failure(status: status, timedOut: timedOut, timeout: timeout, errors: text)
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(reason.map { "\(name): \($0)" }) } }
        }
    }

    /// Nil for exit status 0, else what happened, with the first line of standard error.
    static func failure(status: Int32, timedOut: Bool, timeout: TimeInterval, errors: String) -> String? {
        let signal = status & 0x7F
        let code = (status >> 8) & 0xFF
        if signal == 0, code == 0 { return nil }
        var reason: String
        if timedOut {
            reason = "stopped after \(DurationText.format(timeout)) (its time limit)"
        } else if signal != 0 {
            reason = "ended by signal \(signal)"
        } else {
            reason = "exited with status \(code)"
        }
        let firstLine = errors.split(whereSeparator: \.isNewline).first.map { String($0.prefix(200)) }
        if let firstLine, !firstLine.isEmpty { reason += ": \(firstLine)" }
        return reason
    }

    /// The child's process group, signalled only while it has not been reaped.
    private final class Child: Sendable {
        let pid: pid_t
        private let state = Mutex<(reaped: Bool, timedOut: Bool)>((false, false))

        init(pid: pid_t) { self.pid = pid }

        func signal(_ signal: Int32, timedOut: Bool) {
            state.withLock { state in
                guard !state.reaped else { return }
                state.timedOut = state.timedOut || timedOut
                // Its own session, so its group id is its pid: the group takes its children along.
                kill(-pid, signal)
            }
        }

        /// Marks the child reaped; returns whether the time limit stopped it.
        func reaped() -> Bool {
            state.withLock { state in
                state.reaped = true
                return state.timedOut
            }
        }
    }
}
