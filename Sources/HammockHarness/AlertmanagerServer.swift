import Foundation

/// Debian's Alertmanager (`prometheus-alertmanager`), started for a test on a free port of
/// 127.0.0.1 with its own storage and no cluster. `.ci/run` installs the package. Readiness is
/// read from its own log line ("Listening on"), not guessed with sleeps.
public final class AlertmanagerServer: Sendable {
    public static let binary = "/usr/bin/prometheus-alertmanager"

    private let process: WatchedProcess
    private let directory: URL
    public let port: UInt16

    /// `http://127.0.0.1:PORT/`
    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// Whether the package is installed.
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    private init(process: WatchedProcess, directory: URL, port: UInt16) {
        self.process = process
        self.directory = directory
        self.port = port
    }

    /// Starts Alertmanager with one receiver that sends nowhere.
    public static func start(timeout: Duration = .seconds(30)) async throws -> AlertmanagerServer {
        guard available else {
            throw PrometheusServer.Failure(description: "\(binary) is missing: install Debian's prometheus-alertmanager package (.ci/run does)")
        }
        let directory = URL(fileURLWithPath: ScratchDirectory.path("alertmanager"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let port = try PrometheusServer.freePort()
        let config = directory.appendingPathComponent("alertmanager.yml")
        try "route:\n  receiver: nowhere\nreceivers:\n  - name: nowhere\n".write(to: config, atomically: true, encoding: .utf8)
        let argv = [
            binary, "--config.file=\(config.path)", "--storage.path=\(directory.appendingPathComponent("data").path)",
            "--web.listen-address=127.0.0.1:\(port)", "--cluster.listen-address=",
        ]
        let process = try await PrometheusServer.launch(argv, keeping: directory, readyWhen: "msg=\"Listening on\"", timeout: timeout)
        return AlertmanagerServer(process: process, directory: directory, port: port)
    }

    /// Stops Alertmanager and removes its storage.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
