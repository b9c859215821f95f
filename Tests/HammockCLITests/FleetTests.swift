import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ResourceEngine
import HammockHarness
import Testing
import Monitor

/// Watching from several places: two `hammock serve` probers with different `--location`s over
/// one local API, Debian's Prometheus scraping both, its HTTP API and `config/fleet.yaml` reading
/// the result back; `promtool check metrics` on what a prober serves.
@Suite(.serialized) struct FleetTests {
    static func get(_ url: String) async throws -> (status: Int, body: Data) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = 10
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    static func prober(config: String, location: String, api: String) async throws -> (WatchedProcess, port: UInt16) {
        var environment = ProcessInfo.processInfo.environment
        environment["HAMMOCK_DEMO_URL"] = api
        environment["no_proxy"] = "127.0.0.1,localhost"
        return try await WatchedProcess.start(
            [CLITests.binary, "serve", config, "--listen", "127.0.0.1:0", "--location", location], environment: environment
        ) { output in
            // "…; http://127.0.0.1:PORT/metrics"
            guard let range = output.range(of: "http://127.0.0.1:"), let end = output[range.upperBound...].firstIndex(of: "/") else { return nil }
            return UInt16(output[range.upperBound..<end])
        }
    }

    static let proberConfig = """
        title: Probe
        service: { baseURL: "${HAMMOCK_DEMO_URL}", retry: 1s }
        panes:
          - { title: Health, resource: /health, every: 1s, expect: ["status == 200"] }
          - { title: Payments, resource: /payments, every: 1s }
        """

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: PrometheusServer.binary), "needs Debian's prometheus package"))
    func twoProbersAtTwoLocationsReachPrometheusAndTheFleetDashboard() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = ScratchDirectory.path("fleet")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/probe.yaml"
        try Self.proberConfig.write(toFile: config, atomically: true, encoding: .utf8)
        let (home, homePort) = try await Self.prober(config: config, location: "home", api: api.baseURL)
        defer { home.stop() }
        let (office, officePort) = try await Self.prober(config: config, location: "office", api: api.baseURL)
        defer { office.stop() }

        // What a prober serves passes Prometheus's own checker.
        let served = try await Self.get("http://127.0.0.1:\(homePort)/metrics")
        #expect(served.status == 200)
        let file = directory + "/metrics.txt"
        try served.body.write(to: URL(fileURLWithPath: file))
        let checked = try await ProcessRunner.capture(["/bin/sh", "-c", "/usr/bin/promtool check metrics < '\(file)'"])
        #expect(checked.status == 0 && checked.output.isEmpty && checked.errors.isEmpty, "\(checked.output)\(checked.errors)")
        #expect(try await Self.get("http://127.0.0.1:\(homePort)/healthz").body == Data("ok\n".utf8))

        let prometheus = try await PrometheusServer.start(scrapeTargets: ["127.0.0.1:\(homePort)", "127.0.0.1:\(officePort)"])
        defer { prometheus.stop() }
        let query = prometheus.baseURL + "api/v1/query?query=hammock_probe_success"
        var series: [(pane: String, location: String, value: String)] = []
        let deadline = Date().addingTimeInterval(30)
        while series.count < 4, Date() < deadline {
            let answer = try JSONParser.parse(try await Self.get(query).body)
            series = (answer["data"]?["result"]?.arrayValue ?? []).compactMap { item in
                guard let pane = item["metric"]?["pane"]?.stringValue, let location = item["metric"]?["location"]?.stringValue,
                    let value = item["value"]?[1]?.stringValue
                else { return nil }
                return (pane, location, value)
            }
            if series.count < 4 { try await Task.sleep(for: .milliseconds(200)) }  // Prometheus scrapes each second
        }
        let found = Set(series.map { "\($0.pane)@\($0.location)=\($0.value)" })
        #expect(found == ["Health@home=1", "Health@office=1", "Payments@home=0", "Payments@office=0"], "\(found)")

        // The sample dashboard over that Prometheus shows both places.
        var environment = ProcessInfo.processInfo.environment
        environment["PROMETHEUS_URL"] = prometheus.baseURL
        environment["no_proxy"] = "127.0.0.1,localhost"
        let fleet = SampleConfigTests.configDirectory.appendingPathComponent("fleet.yaml").path
        let snapshot = try await ProcessRunner.capture(
            [CLITests.binary, "snapshot", fleet, "--width", "120", "--height", "30", "--no-cache"], environment: environment, timeout: 60)
        let lines = snapshot.output.split(separator: "\n").map(String.init)
        for row in ["Health    home      1", "Health    office    1", "Payments  home      0", "Payments  office    0"] {
            #expect(lines.contains { $0.contains(row) }, "\(row)\n\(snapshot.output)")
        }
        #expect(lines.contains { $0.contains("home      0") } && lines.contains { $0.contains("office    0") }, "Payments is down at both")
        for port in [homePort, officePort] {
            #expect(lines.contains { $0.contains("127.0.0.1:\(port)/") && $0.contains(" up ") }, "both probers scraped: \(snapshot.output)")
        }
    }

    @Test func serveSaysWhyItCannotListenAndServesNothingButReads() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = ScratchDirectory.path("serve")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/probe.yaml"
        try Self.proberConfig.write(toFile: config, atomically: true, encoding: .utf8)

        let bad = try await ProcessRunner.capture([CLITests.binary, "serve", config, "--listen", "example:9464"])
        #expect(bad.status != 0)
        #expect(bad.errors.contains("--listen \"example:9464\": \"example\" is not an IPv4 address"), "\(bad.errors)")

        let (first, port) = try await Self.prober(config: config, location: "a", api: api.baseURL)
        defer { first.stop() }
        let taken = try await ProcessRunner.capture(
            [CLITests.binary, "serve", config, "--listen", "127.0.0.1:\(port)"], environment: ["HAMMOCK_DEMO_URL": api.baseURL, "PATH": "/usr/bin:/bin"])
        #expect(taken.status == 70)
        #expect(taken.errors.contains("hammock serve: cannot listen on 127.0.0.1:\(port): the port is taken"), "\(taken.errors)")

        var post = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/metrics")!)
        post.httpMethod = "POST"
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        let (_, response) = try await session.data(for: post)
        #expect((response as? HTTPURLResponse)?.statusCode == 404, "nothing to write to")
        let panes = try JSONParser.parse(try await Self.get("http://127.0.0.1:\(port)/api/panes").body)
        #expect(panes["panes"]?.arrayValue?.map { $0["title"]?.stringValue ?? "" } == ["Health", "Payments"])

        // Editing the config reloads it, as in the dashboard.
        try (Self.proberConfig + "\n  - { title: Orders, resource: /orders, every: 1s }\n").write(toFile: config, atomically: true, encoding: .utf8)
        var titles: [String] = []
        let deadline = Date().addingTimeInterval(10)
        while titles.count < 3, Date() < deadline {
            let state = try JSONParser.parse(try await Self.get("http://127.0.0.1:\(port)/api/panes").body)
            titles = state["panes"]?.arrayValue?.map { $0["title"]?.stringValue ?? "" } ?? []
            if titles.count < 3 { try await Task.sleep(for: .milliseconds(50)) }  // the reload is the prober's own
        }
        #expect(titles == ["Health", "Payments", "Orders"])
    }
}
