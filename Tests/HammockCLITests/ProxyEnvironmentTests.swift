import Foundation
import HammockHarness
import Testing

/// Proxies come from the environment as the curl tool reads them (`http_proxy`, `no_proxy`…):
/// hammock tells libcurl "no proxy" itself only when the environment names none.
@Suite struct ProxyEnvironmentTests {
    /// What the proxy and the origin were asked: request lines, in order.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    static func answer(_ body: String) -> Data {
        Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)
    }

    @Test func anEnvironmentProxyCarriesTheProbeAndNoProxyGoesAroundIt() async throws {
        let proxied = Seen()
        let direct = Seen()
        let proxy = try RawTestServer { _, head in
            proxied.add(head.components(separatedBy: "\r\n").first ?? "")
            return Self.answer(#"{"via":"proxy"}"#)
        }
        defer { proxy.stop() }
        let origin = try RawTestServer { _, head in
            direct.add(head.components(separatedBy: "\r\n").first ?? "")
            return Self.answer(#"{"via":"origin"}"#)
        }
        defer { origin.stop() }
        let directory = ScratchDirectory.path("proxy-env")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/hammock.yaml"
        try """
            service: { baseURL: "\(origin.baseURL)" }
            panes:
              - { title: Via, resource: /status, show: value, select: via }
            """.write(toFile: config, atomically: true, encoding: .utf8)

        func snapshot(_ proxyEnvironment: [String: String]) async throws -> String {
            var environment = ProcessInfo.processInfo.environment
            for name in environment.keys where name.lowercased().hasSuffix("_proxy") { environment[name] = nil }
            environment["XDG_CONFIG_HOME"] = directory + "/config"
            for (name, value) in proxyEnvironment { environment[name] = value }
            let outcome = try await ProcessRunner.capture([CLITests.binary, "snapshot", config, "--no-cache"], environment: environment, timeout: 60)
            #expect(outcome.status == 0, "\(outcome.errors)")
            return outcome.output
        }

        let viaProxy = try await snapshot(["http_proxy": proxy.baseURL])
        #expect(viaProxy.contains("proxy"), "\(viaProxy)")
        #expect(proxied.all == ["GET \(origin.baseURL)status HTTP/1.1"], "\(proxied.all)")
        #expect(direct.all.isEmpty, "\(direct.all)")

        let around = try await snapshot(["http_proxy": proxy.baseURL, "no_proxy": "127.0.0.1"])
        #expect(around.contains("origin"), "\(around)")
        #expect(direct.all == ["GET /status HTTP/1.1"], "\(direct.all)")
        #expect(proxied.all.count == 1)

        let none = try await snapshot([:])
        #expect(none.contains("origin"), "\(none)")
        #expect(direct.all.count == 2 && proxied.all.count == 1)
    }
}
