import Foundation
import HammockHarness
import Testing

/// `contrib/prometheus/hammock-rules.yml`, the alerting rules shipped for Hammock's probers:
/// Prometheus's own `promtool` checks them and runs their unit tests (a pane failing from every
/// location, from some, a certificate expiring, a prober gone; a blocked pane is not failing).
@Suite struct PrometheusRulesTests {
    static let folder = CLITests.repository.appendingPathComponent("contrib/prometheus").path

    @Test func promtoolChecksTheRulesAndPassesTheirTests() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool"), "promtool (Debian's prometheus package; .ci/run installs it)")
        let check = try await ProcessRunner.capture(["/usr/bin/promtool", "check", "rules", Self.folder + "/hammock-rules.yml"], timeout: 60)
        #expect(check.status == 0 && check.output.contains("SUCCESS: 4 rules found"), "\(check.output) \(check.errors)")
        let test = try await ProcessRunner.capture(["/usr/bin/promtool", "test", "rules", Self.folder + "/hammock-rules.test.yml"], timeout: 60)
        #expect(test.status == 0 && test.output.contains("SUCCESS"), "\(test.output) \(test.errors)")
    }
}
