import DemoServer
import Foundation
import HammockHarness
import ResourceEngine
import Testing

/// Every sample in `config/` is valid and runs here: against the demo API, or against Debian's
/// Prometheus, as each file's header says.
@Suite(.serialized) struct SampleConfigTests {
    static let configDirectory = CLITests.repository.appendingPathComponent("config")
    static let secrets = ["USERS_API_TOKEN": DemoAPI.token, "BILLING_API_KEY": "sample-key"]

    static var samples: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: configDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
    }

    private func hammock(_ arguments: [String], environment extra: [String: String]) async throws -> ProcessRunner.Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["no_proxy"] = "127.0.0.1,localhost"
        for (key, value) in Self.secrets.merging(extra, uniquingKeysWith: { $1 }) { environment[key] = value }
        return try await ProcessRunner.capture([CLITests.binary] + arguments, environment: environment, timeout: 60)
    }

    private func snapshot(_ name: String, _ environment: [String: String]) async throws -> (status: Int32, lines: [String]) {
        let path = Self.configDirectory.appendingPathComponent(name).path
        let outcome = try await hammock(["snapshot", path, "--width", "120", "--height", "20"], environment: environment)
        return (outcome.status, outcome.output.split(separator: "\n").map(String.init))
    }

    @Test func everySampleChecksAndNamesOnlyLocalAddresses() async throws {
        #expect(Self.samples.count >= 7)
        for sample in Self.samples {
            let path = Self.configDirectory.appendingPathComponent(sample).path
            let outcome = try await hammock(["check", path], environment: [:])
            #expect(outcome.status == 0, "\(sample): \(outcome.errors)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains("example.com") && !text.contains(".example/"), "\(sample) points at a host no one can run")
            #expect(text.contains("127.0.0.1"), "\(sample) has no local default address")
        }
    }

    @Test func theDemoBackedSamplesShowTheirData() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let demo = ["HAMMOCK_DEMO_URL": api.baseURL]

        let health = try await snapshot("health.yaml", demo)
        #expect(health.status == 0, "\(health.lines.joined(separator: "\n"))")
        #expect(health.lines[0].contains("3 panes  ✓3 ✗0"))
        #expect(health.lines.contains { $0.contains("version  3.2.1") })
        #expect(health.lines.contains { $0.contains("built    ") && $0.contains(" ago") }, "an ISO 8601 time as an age")
        #expect(health.lines.contains { $0.contains("disk free  ") && $0.contains(" GiB") }, "bytes")
        #expect(health.lines.contains { $0.contains("│ status") && $0.contains("UP") })

        let users = try await snapshot("paginated.yaml", demo)
        #expect(users.status == 0)
        #expect(users.lines.contains { $0.contains("4212") })
        #expect(users.lines.contains { $0.contains("@example.org") && $0.contains("2026-10-28T08:00:00Z") })

        let search = try await snapshot("search.yaml", demo)
        #expect(search.status == 0)
        #expect(search.lines.contains { $0.contains("status:failed AND region:eu") })

        let billing = try await snapshot("servicestack.yaml", demo)
        #expect(billing.status == 1, "the legacy ledger fails on purpose, to show errorMessage")
        #expect(billing.lines.contains { $0.contains("INV-2041") })
        #expect(billing.lines.contains { $0.contains("400 · Validation failed (Period: must be a closed") })

        // A pane that takes its request from another's answer, two links deep, in one snapshot.
        let chained = try await snapshot("chained.yaml", demo)
        #expect(chained.status == 0, "\(chained.lines.joined(separator: "\n"))")
        #expect(chained.lines[0].contains("3 panes  ✓3 ✗0"))
        let newest = try #require(chained.lines.first { $0.contains("│ id") && !$0.contains("customer") }?.split(separator: " ").last)
        #expect(chained.lines.contains { $0.contains("status      ") && ["paid", "packed", "shipped"].contains(where: $0.contains) })
        #expect(chained.lines.filter { $0.contains(String(newest)) }.count >= 3, "the list, the order and that customer's orders name it")

        let blocked = try await snapshot("blocked.yaml", demo)
        #expect(blocked.status == 1, "Payments is down")
        #expect(blocked.lines[0].contains("✓2 ◐1 ✗0 ⊘1"), "one probe of Payments' two: degraded, its dependent blocked: \(blocked.lines.joined(separator: "\n"))")
        #expect(blocked.lines.contains { $0.contains("⊘ blocked by Payments") })

        let alerts = try await snapshot("alerts.yaml", demo)
        #expect(alerts.status == 1, "Payments is down")
        // Flaky fails one call in three, whichever this is: degraded at worst, never failing.
        #expect(alerts.lines[0].contains("◐") && alerts.lines[0].contains(" ✗0"), "one failed probe of Payments' two: degraded \(alerts.lines[0])")
        #expect(alerts.lines.contains { $0.contains("503 · ") && $0.contains("error 1/2") })

        let services = try await snapshot("services.yaml", demo)
        #expect(services.status == 0, "\(services.lines.joined(separator: "\n"))")
        #expect(services.lines[0].contains("5 panes  ✓5 ✗0"))
        for shown in ["4212", "INV-2041", "SO-1001", "payment retry for SO-1002"] {
            #expect(services.lines.contains { $0.contains(shown) }, "\(shown)")
        }
        let refused = try await snapshot("services.yaml", demo.merging(["SHOP_PASSWORD": "not-the-password"]) { $1 })
        #expect(refused.status == 1)
        #expect(refused.lines.filter { $0.contains("login failed: 401 invalid credentials") }.count == 2, "both shop panes say why")
        let path = Self.configDirectory.appendingPathComponent("services.yaml").path
        let json = try await hammock(["snapshot", path, "--json"], environment: demo.merging(["SHOP_PASSWORD": "not-the-password"]) { $1 })
        #expect(json.output.contains("login failed: 401 invalid credentials"))
        #expect(!json.output.contains("not-the-password") && !json.output.contains("demo-token"), "no secret in the snapshot")
    }

    @Test func thePaginatedSampleSaysWhenItsTokenIsMissing() async throws {
        let path = Self.configDirectory.appendingPathComponent("paginated.yaml").path
        var environment = ProcessInfo.processInfo.environment
        environment["USERS_API_TOKEN"] = nil
        // check lints without secrets: a warning naming the variable, exit 0; --strict refuses, as
        // the commands that run the config do.
        let outcome = try await ProcessRunner.capture([CLITests.binary, "check", path], environment: environment, timeout: 60)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.errors.contains("warning:") && outcome.errors.contains("USERS_API_TOKEN is not set"), "\(outcome.errors)")
        #expect(outcome.output.contains("1 warning (secrets not at hand)"), "\(outcome.output)")
        let strict = try await ProcessRunner.capture([CLITests.binary, "check", "--strict", path], environment: environment, timeout: 60)
        #expect(strict.status == 2 && strict.errors.contains("USERS_API_TOKEN is not set") && !strict.errors.contains("warning:"), "\(strict.errors)")
        let snapshot = try await ProcessRunner.capture([CLITests.binary, "snapshot", path], environment: environment, timeout: 60)
        #expect(snapshot.status == 2 && snapshot.errors.contains("USERS_API_TOKEN is not set"), "\(snapshot.errors)")
    }

    @Test func thePrometheusSamplesReadARealPrometheus() async throws {
        let prometheus = try await PrometheusServer.start()
        defer { prometheus.stop() }
        let environment = ["PROMETHEUS_URL": prometheus.baseURL]

        let api = try await snapshot("prometheus.yaml", environment)
        #expect(api.lines.contains { $0.contains("Prometheus Server is Healthy.") })
        #expect(api.lines.contains { $0.contains("version ") && $0.contains("2.") }, "labelled by the path's last segment")
        #expect(api.lines[0].contains("6 panes"))
        #expect(api.lines.contains { $0.contains("Job ") && $0.contains("Health  Scrape  Last  Error") }, "the targets' column labels")
        #expect(api.lines.contains { $0.contains("Series ") }, "the TSDB pane's labels")
        #expect(!api.lines.contains { $0.contains("in long") || $0.contains("9223372036854775807") && $0.contains("ago") })

        let metrics = try await snapshot("metrics.yaml", environment)
        #expect(metrics.status == 0)
        #expect(metrics.lines.contains { $0.contains("Prometheus Server is Ready.") })
        #expect(metrics.lines.contains { line in
            line.split(separator: " ").contains { Double($0) != nil && (Double($0) ?? 0) > 1_000_000 }
        }, "the resident memory, in bytes")
    }
}
