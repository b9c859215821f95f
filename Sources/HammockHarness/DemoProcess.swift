import Foundation

/// `hammock demo --serve-only` in its own process, on a free port, for tests that run `hammock`.
///
/// A demo API inside the test process answers only when the test runner has a free thread; with
/// tmux tests blocking threads on a loaded machine its answers came after a pane's timeout. In its
/// own process it answers as it would for a user.
public final class DemoProcess: Sendable {
    private let process: WatchedProcess
    /// `http://127.0.0.1:PORT/`
    public let baseURL: String

    private init(process: WatchedProcess, baseURL: String) {
        self.process = process
        self.baseURL = baseURL
    }

    /// Starts the demo API; `slowDelay` is how long its `/slow` endpoint takes.
    public static func start(slowDelay: Duration = .milliseconds(50)) async throws -> DemoProcess {
        let binary = TmuxHarness.binDirectory.appendingPathComponent("hammock").path
        let milliseconds = slowDelay.components.seconds * 1000 + slowDelay.components.attoseconds / 1_000_000_000_000_000
        let argv = [binary, "demo", "--serve-only", "--port", "0", "--slow-delay-ms", "\(milliseconds)"]
        let (process, baseURL) = try await WatchedProcess.start(argv) { output -> String? in
            guard let range = output.range(of: "Demo API on "),
                  let end = output[range.upperBound...].firstIndex(of: " ")
            else { return nil }
            return String(output[range.upperBound..<end])
        }
        return DemoProcess(process: process, baseURL: baseURL)
    }

    /// Stops the demo API.
    public func stop() {
        process.stop()
    }
}
