import Dispatch
import Glibc

/// The write end of the pipe signal handlers report to; set once before any handler is installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The signal handler: writes the signal number to the pipe (async-signal-safe).
///
/// Top-level, not a closure in the main-actor initialiser: such a closure would be inferred
/// main-actor isolated and trap when a signal lands on another thread.
private func reportSignal(_ sig: Int32) {
    var byte = UInt8(truncatingIfNeeded: sig)
    _ = write(signalPipeWriteEnd, &byte, 1)
}

/// Delivers signals to the main actor through a self-pipe, whichever thread the kernel picks.
///
/// Dispatch signal sources on Linux only see a signal delivered to a thread that blocks it; in a
/// process that already runs URLSession, server and executor threads, a signal can land on
/// another thread and be lost. A process-wide `sigaction` handler that writes the signal number to
/// a pipe (async-signal-safe) cannot miss it; a read source on the pipe hands it to the main actor.
@MainActor
public final class SignalPipe {
    private let readEnd: Int32
    private var source: (any DispatchSourceRead)?

    /// Installs handlers for `signals` and calls `handler` on the main actor for each one received.
    public init(signals: [Int32], handler: @escaping @MainActor (Int32) -> Void) {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        readEnd = fds[0]
        if signalPipeWriteEnd < 0 { signalPipeWriteEnd = fds[1] }
        for sig in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = reportSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
        let readEnd = readEnd
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .main)
        source.setEventHandler { @Sendable in
            MainActor.assumeIsolated {
                var buffer = [UInt8](repeating: 0, count: 64)
                while true {
                    let count = read(readEnd, &buffer, buffer.count)
                    guard count > 0 else { break }
                    for byte in buffer[0..<count] { handler(Int32(byte)) }
                }
            }
        }
        source.resume()
        self.source = source
    }
}
