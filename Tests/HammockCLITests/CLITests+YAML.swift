import Foundation
import HammockHarness
import Testing

/// The shipped binary reads configs with Debian's libyaml (the test binary links Yams's copy of
/// libyaml too, and its symbols win there): what only the shipped library decides is checked here.
extension CLITests {
    /// Nesting past the reader's limit is one problem at its place, in flow style too, where
    /// Debian's libyaml sets no limit of its own.
    @Test func deepNestingIsAProblemAtItsPlace() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = "service: { baseURL: \"http://127.0.0.1:9/\" }\npanes: " + String(repeating: "[", count: 100_000) + "\n"
        try text.write(toFile: directory + "/deep.yaml", atomically: true, encoding: .utf8)
        let outcome = try await hammock(["check", "deep.yaml"], in: directory)
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("deep.yaml:2:263: YAML syntax: nesting deeper than 256 levels"), "\(outcome.errors)")
    }

    /// Anchors and aliases, quoted and block scalars and YAML 1.1's numbers read as they did with Yams.
    @Test func anchorsAndScalarsReadAsBefore() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            service: { baseURL: "http://127.0.0.1:9/" }
            panes:
              - { title: 'It''s up', resource: /a, every: &often 45s, timeout: 0x1E }
              - title: |-
                  Block
                resource: /b
                every: *often
            """.write(toFile: directory + "/ok.yaml", atomically: true, encoding: .utf8)
        let outcome = try await hammock(["check", "ok.yaml"], in: directory)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("pane \"It's up\": GET http://127.0.0.1:9/a every 45s"), "\(outcome.output)")
        #expect(outcome.output.contains("pane \"Block\": GET http://127.0.0.1:9/b every 45s"), "\(outcome.output)")
    }
}
