import Foundation
import Glibc

/// Debian's Prometheus, started for a test on a free port of 127.0.0.1 with its own storage.
///
/// `.ci/run` installs the `prometheus` package. Readiness is read from Prometheus's own log line
/// ("Server is ready to receive web requests."), not guessed with sleeps.
public final class PrometheusServer: Sendable {
    public static let binary = "/usr/bin/prometheus"

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let process: WatchedProcess
    private let directory: URL
    public let port: UInt16

    /// `http://127.0.0.1:PORT/`
    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    private init(process: WatchedProcess, directory: URL, port: UInt16) {
        self.process = process
        self.directory = directory
        self.port = port
    }

    /// Starts Prometheus scraping itself (and `scrapeTargets`, `host:port` each) every second.
    public static func start(scrapeTargets: [String] = [], timeout: Duration = .seconds(30)) async throws -> PrometheusServer {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw Failure(description: "\(binary) is missing: install Debian's prometheus package (.ci/run does)")
        }
        let directory = URL(fileURLWithPath: ScratchDirectory.path("prometheus"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let port = try freePort()
        let targets = (["127.0.0.1:\(port)"] + scrapeTargets).map { "\"\($0)\"" }.joined(separator: ", ")
        let config = """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: prometheus
                static_configs:
                  - targets: [\(targets)]

            """
        try config.write(to: directory.appendingPathComponent("prometheus.yml"), atomically: true, encoding: .utf8)
        let argv = [
            binary,
            "--config.file=\(directory.appendingPathComponent("prometheus.yml").path)",
            "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
            "--web.listen-address=127.0.0.1:\(port)",
        ]
        let process = try await launch(argv, keeping: directory, readyWhen: "Server is ready to receive web requests.", timeout: timeout)
        return PrometheusServer(process: process, directory: directory, port: port)
    }

    /// Starts `argv` and waits for its log to say `ready`; on failure removes `directory` (its
    /// storage) before throwing.
    static func launch(_ argv: [String], keeping directory: URL, readyWhen ready: String, timeout: Duration) async throws -> WatchedProcess {
        do {
            let (process, _) = try await WatchedProcess.start(argv, timeout: timeout) { output in output.contains(ready) ? true : nil }
            return process
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Stops Prometheus and removes its storage.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    /// A port nothing listens on right now (bound to 0, read, closed).
    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "could not find a free port") }
        return UInt16(bigEndian: address.sin_port)
    }
}
