import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import HammockHarness
import Monitor
import ResourceEngineTesting
import TerminalUI
import Testing

/// `{ schema: FILE }` in a pane's pipeline: content that breaks the schema fails the pane with
/// each place it breaks it; a schema that cannot be read is a problem at its line:col.
@MainActor
@Suite struct SchemaStepTests {
    static func schemaFile() throws -> String {
        let path = ScratchDirectory.path("orders", extension: ".schema.json")
        try #"""
            {"type":"array","items":{"type":"object","required":["id","state"],
             "properties":{"id":{"type":"integer"},"state":{"enum":["open","paid"]}}}}
            """#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func contentThatBreaksTheSchemaFailsThePaneSayingWhere() async throws {
        let schema = try Self.schemaFile()
        defer { try? FileManager.default.removeItem(atPath: schema) }
        let h = try DashboardHarness("""
            service: { baseURL: "https://api.test/" }
            panes:
              - { title: Orders, resource: /orders, every: 1s, show: table, pipeline: { model: [ { schema: "\(schema)" } ] } }
            """, columns: 100, rows: 12)
        h.stub("orders", .json(#"[{"id":1,"state":"open"},{"id":"2","state":"lost"}]"#))
        h.app.start()
        try await h.settle()
        let probe = try #require(h.app.panes.first?.probe)
        #expect(probe.health == .failing)
        let failure = try #require(probe.failure)
        #expect(failure.contains("[1].id: expected integer, got a string (\"2\")"), "\(failure)")
        #expect(failure.contains("[1].state: expected one of \"open\", \"paid\", got \"lost\""), "\(failure)")
        #expect(h.screen.contains { $0.contains("[1].state: expected one of") }, "the screen says where: \(h.screen)")

        h.stub("orders", .json(#"[{"id":1,"state":"open"},{"id":2,"state":"paid"}]"#))
        try await h.advance(1)
        #expect(h.app.panes.first?.probe.health == .ok)
        #expect(h.screen.contains { $0.contains("paid") })
    }

    @Test func aSchemaThatCannotBeUsedIsAProblemAtItsPlace() throws {
        let broken = ScratchDirectory.path("broken", extension: ".json")
        try ##"{"$ref":"#/$defs/nowhere"}"##.write(toFile: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: broken) }
        do {
            _ = try ConfigLoader.parse("""
                service: { baseURL: "https://api.test/" }
                panes:
                  - title: A
                    resource: /a
                    pipeline: { model: [ { schema: /nonexistent/s.json } ] }
                  - title: B
                    resource: /b
                    pipeline: { model: [ { schema: "\(broken)" } ] }
                """, file: "s.yaml", environment: [:])
            Issue.record("loaded")
        } catch {
            let messages = error.problems.map(\.description)
            #expect(messages.count == 2, "\(messages)")
            #expect(messages.first?.hasPrefix("s.yaml:5:36: schema: ") == true, "\(messages)")
            #expect(messages.last == "s.yaml:8:36: schema: \(broken): $ref \"#/$defs/nowhere\" leads nowhere in the schema (only # and #/… within it are read)", "\(messages)")
        }
    }
}
