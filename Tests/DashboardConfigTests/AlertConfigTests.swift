import DashboardConfig
import Foundation
import HammockHarness
import ResourceEngine
import Testing

/// `alerts:` read from the file: defaults, per-pane overrides, and each mistake named where it is.
@Suite struct AlertConfigTests {
    private func problems(_ text: String, file: String = "hammock.yaml", environment: [String: String] = ["PATH": "/usr/bin:/bin"]) -> [String] {
        do {
            _ = try ConfigLoader.parse(text, file: file, environment: environment)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func topLevelDefaultsAndAPanesOverrides() throws {
        let spec = try ConfigLoader.parse("""
            service: { baseURL: "https://x.test/" }
            alerts:
              failAfter: 3
              recoverAfter: 2
              bell: true
              remind: 30m
              exec: [sh, -c, "echo hi"]
              webhook: { url: "https://hooks.test/${HOOK}", body: { text: "{{pane}} is {{ state }}" } }
            panes:
              - { title: A, resource: /a }
              - { title: B, resource: /b, alerts: { failAfter: 5, bell: false, remind: off, webhook: off, onResolved: false } }
              - { title: C, resource: /c }
            """, file: "a.yaml", environment: ["PATH": "/usr/bin:/bin", "HOOK": "T0KEN-abc"])
        let a = spec.panes[0].alerts
        #expect(a.configured && a.failAfter == 3 && a.recoverAfter == 2 && a.bell && a.remind == 1800 && a.onResolved)
        #expect(a.exec == ["sh", "-c", "echo hi"] && a.timeout == 10)
        #expect(a.webhook?.url.display == "https://hooks.test/${HOOK}")
        let b = spec.panes[1].alerts
        #expect(b.failAfter == 5 && b.recoverAfter == 2 && !b.bell && b.remind == nil && b.webhook == nil && !b.onResolved)
        #expect(b.exec == ["sh", "-c", "echo hi"], "what the pane does not name stays as the file's")
        #expect(spec.secrets.contains("T0KEN-abc"), "a webhook's URL from the environment is a secret")
        #expect(spec.redactedSummary.contains("  alerts: fail after 3, ok after 2; bell, exec sh, webhook https://hooks.test/${HOOK}; remind 30m\n"))
        #expect(!spec.redactedSummary.contains("T0KEN-abc"))
        let plain = try ConfigLoader.parse("service: { baseURL: \"https://x.test/\" }\npanes:\n  - { title: A, resource: /a }\n", file: "p.yaml", environment: [:])
        #expect(!plain.panes[0].alerts.configured && plain.panes[0].alerts.failAfter == 1 && !plain.panes[0].alerts.hasActions)
    }

    @Test func aProgramNextToTheConfigIsFoundThere() throws {
        let directory = ScratchDirectory.path("alertcfg")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "#!/bin/sh\n".write(toFile: directory + "/on-alert.sh", atomically: true, encoding: .utf8)
        try "not executable\n".write(toFile: directory + "/plain.txt", atomically: true, encoding: .utf8)
        chmod(directory + "/on-alert.sh", 0o755)
        let text = """
            service: { baseURL: "https://x.test/" }
            alerts: { exec: ["./on-alert.sh", "--page"] }
            panes:
              - { title: A, resource: /a }
              - { title: B, resource: /b, alerts: { exec: ./plain.txt } }
              - { title: C, resource: /c, alerts: { exec: ./missing.sh } }
            """
        #expect(problems(text, file: directory + "/dash.yaml") == [
            "\(directory)/dash.yaml:5:47: alerts.exec: ./plain.txt is not an executable file (chmod +x it?)",
            "\(directory)/dash.yaml:6:47: alerts.exec: ./missing.sh: No such file or directory",
        ])
        let spec = try ConfigLoader.parse(text.split(separator: "\n").prefix(4).joined(separator: "\n"), file: directory + "/dash.yaml", environment: [:])
        #expect(spec.panes[0].alerts.exec == [directory + "/on-alert.sh", "--page"])
    }

    @Test func mistakesAreNamedWhereTheyAre() {
        let text = """
            service: { baseURL: "https://x.test/" }
            alerts:
              failAfer: 3
              recoverAfter: 0
              bell: loud
              exec: "./on-alert.sh --page"
              remind: 5s
              timeout: 10m
              webhook: { url: "ftp://hooks.test/", body: { text: "{{pane}} {{stat}}" } }
            panes:
              - { title: A, resource: /a, alerts: { exec: [no-such-program-here] } }
              - { title: B, resource: /b, alerts: { webhook: { body: {} } } }
            """
        #expect(problems(text) == [
            #"hammock.yaml:3:3: unknown key "failAfer" in alerts (did you mean "failAfter"?)"#,
            "hammock.yaml:4:17: alerts.recoverAfter must be between 1 and 1000, not 0",
            #"hammock.yaml:5:9: alerts.bell must be true or false, not "loud""#,
            #"hammock.yaml:6:9: alerts.exec is run without a shell: give the program and its arguments as a list, e.g. ["./on-alert.sh", "--page"]"#,
            "hammock.yaml:7:11: alerts.remind must be at least 10s, not 5s",
            "hammock.yaml:8:12: alerts.timeout must be at most 5m",
            #"hammock.yaml:9:19: alerts.webhook.url must be an http(s) URL, not "ftp://hooks.test/""#,
            "hammock.yaml:9:46: alerts.webhook.body: unknown placeholder {{stat}} (one of pane, state, event, message, url, service, status, since, time, dashboard) (did you mean \"state\"?)",
            "hammock.yaml:11:47: alerts.exec: no-such-program-here is not on PATH (write ./no-such-program-here for a file next to the config)",
            "hammock.yaml:12:50: alerts.webhook needs a url",
        ])
    }

    @Test func templatesFillInsideStringsOnly() {
        let template: JSON = ["text": "{{pane}} is {{state}}: {{message}}", "n": 3, "list": ["{{status}}", "{{unknown}}"], "{{pane}}": "key stays"]
        let filled = WebhookSpec.fill(template, with: ["pane": "Pay", "state": "failing", "message": "\"quoted\" }, {{pane}}", "status": "503"])
        #expect(filled["text"]?.stringValue == "Pay is failing: \"quoted\" }, {{pane}}", "a value is never filled again")
        #expect(filled["n"] == 3 && filled["list"] == ["503", "{{unknown}}"] && filled["{{pane}}"] == "key stays")
    }
}
