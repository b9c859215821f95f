import DashboardConfig
import Foundation
import Testing

/// `check` in CI, where the production secrets are not: an unset variable or an unreadable
/// `${file:…}` is a warning at its place, every other problem is still found, and nothing a
/// placeholder caused is blamed on the config.
@Suite struct CheckWithoutSecretsTests {
    let config = """
        service:
          baseURL: ${API_URL}
          headers:
            Authorization: Bearer ${API_TOKEN}
        panes:
          - title: Health
            resource: /health
            headers: { X-Key: "${file:/nonexistent/key}" }
          - title: Orders
            resource: /orders
            body: { token: "${BODY_TOKEN}" }
            method: POST
        """

    @Test func missingSecretsAreWarningsAtTheirPlace() throws {
        let spec = try ConfigLoader.parse(config, file: "h.yaml", environment: [:], withoutSecrets: true)
        #expect(spec.warnings.map { "\($0.line):\($0.column)" } == ["2:12", "4:20", "8:23", "11:20"])
        #expect(spec.warnings[0].message.hasPrefix("service.baseURL: environment variable API_URL is not set"))
        #expect(spec.warnings[2].message.contains("cannot read ${file:/nonexistent/key}"))
        #expect(spec.warnings.allSatisfy { $0.message.hasSuffix("the dashboard, snapshot, events and serve refuse to start without it") })
        #expect(spec.panes.count == 2, "the panes are checked against a stand-in base URL")
    }

    @Test func everyOtherProblemIsStillFound() {
        let broken = config.replacingOccurrences(of: "method: POST", with: "method: FETCH")
        #expect(throws: ConfigErrors.self) { try ConfigLoader.parse(broken, file: "h.yaml", environment: [:], withoutSecrets: true) }
        do {
            _ = try ConfigLoader.parse(broken, file: "h.yaml", environment: [:], withoutSecrets: true)
        } catch {
            #expect(error.problems.map(\.description) == [
                "h.yaml:11:5: body needs method POST, PUT or PATCH (this pane uses GET)", "h.yaml:12:13: unknown method \"FETCH\"",
            ])
            #expect(error.warnings.count == 4, "what is missing is said beside the problems")
        }
    }

    @Test func toRunAConfigItsSecretsMustBeThere() {
        do {
            _ = try ConfigLoader.parse(config, file: "h.yaml", environment: [:])
            Issue.record("loaded without its secrets")
        } catch {
            let messages = error.problems.map(\.description)
            #expect(messages.contains { $0.hasPrefix("h.yaml:2:12: service.baseURL: environment variable API_URL is not set") }, "\(messages)")
            #expect(messages.contains { $0.contains("API_TOKEN is not set") } && messages.contains { $0.contains("BODY_TOKEN is not set") })
        }
        let set = ["API_URL": "https://api.test/", "API_TOKEN": "t0ken", "BODY_TOKEN": "b0dy"]
        #expect(throws: ConfigErrors.self, "the file is still missing") { try ConfigLoader.parse(config, file: "h.yaml", environment: set) }
    }
}
