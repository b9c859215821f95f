@testable import DashboardConfig
import DashboardKeys
import Foundation
import HammockHarness
import ResourceEngine
import Testing

/// `hammock schema`: every key the loader reads is in the schema with a description, nothing
/// else is allowed, and every sample in `config/` passes a real validator (Python's jsonschema).
@Suite struct ConfigSchemaTests {
    static let configDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config")

    /// The object at `path` (property names, then `properties`, through `items`,
    /// `additionalProperties` and `anyOf`'s objects).
    func object(_ path: [String]) throws -> JSONObject {
        var node = ConfigSchema.json
        for step in path {
            if let next = node["properties"]?[step] {
                node = next
            } else if let next = node[step] {
                node = next
            } else {
                throw Missing(path: path, step: step)
            }
            node = Self.objectIn(node) ?? node
        }
        return try #require(node.objectValue)
    }

    /// The object schema inside `node`: itself, its list's items, or one of its `anyOf`.
    static func objectIn(_ node: JSON) -> JSON? {
        if node["properties"] != nil { return node }
        if node["type"]?.stringValue == "array", let items = node["items"] { return objectIn(items) }
        return node["anyOf"]?.arrayValue?.lazy.compactMap(objectIn).first
    }

    struct Missing: Error { let path: [String]; let step: String }

    @Test func everyKeyTheLoaderReadsIsInTheSchemaAndNoOther() throws {
        let objects: [([String], [String])] = [
            ([], ConfigLoader.topKeys), (["service"], ConfigLoader.serviceKeys), (["services", "additionalProperties"], ConfigLoader.namedServiceKeys),
            (["configure"], ConfigLoader.blockKeys), (["panes"], ConfigLoader.paneKeys), (["layout"], ConfigLoader.layoutKeys),
            (["alerts"], ConfigLoader.alertKeys), (["panes", "alerts"], ConfigLoader.alertKeys), (["alerts", "webhook"], ConfigLoader.webhookKeys),
            (["service", "tls"], ConfigLoader.tlsKeys), (["service", "auth"], ConfigLoader.authKinds), (["service", "auth", "login"], ConfigLoader.loginKeys),
            (["service", "auth", "oauth2"], ConfigLoader.oauth2Keys), (["panes", "columns"], ConfigLoader.displayFieldKeys),
            (["theme"], ["base"] + ThemeSpec.Role.allCases.map(\.rawValue)), (["keys"], KeyAction.configurable.map(\.name)),
        ]
        for (path, keys) in objects {
            let object = try object(path)
            let properties = try #require(object["properties"]?.objectValue, "\(path)")
            #expect(properties.members.map(\.key) == keys, "the schema's \(path) lists the loader's keys")
            #expect(object["additionalProperties"] == false, "\(path) refuses other keys, as the loader does")
            for (key, fragment) in properties.members {
                #expect(fragment["description"]?.stringValue?.isEmpty == false || fragment["anyOf"] != nil || fragment["properties"] != nil, "\(path).\(key) says what it is")
            }
        }
    }

    /// Every sample validates; one with a key the loader refuses does not.
    @Test func everySampleValidatesWithPythonsJSONSchema() async throws {
        let directory = URL(fileURLWithPath: ScratchDirectory.path("schema"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = directory.appendingPathComponent("hammock.schema.json")
        try ConfigSchema.json.prettyPrinted().write(to: schema, atomically: true, encoding: .utf8)
        let samples = try FileManager.default.contentsOfDirectory(atPath: Self.configDirectory.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(samples.count >= 10)
        let broken = directory.appendingPathComponent("broken.yaml")
        let demo = try String(contentsOf: Self.configDirectory.appendingPathComponent("demo.yaml"), encoding: .utf8)
        try demo.replacingOccurrences(of: "    resource: /health\n", with: "    resource: /health\n    refresh: 5s\n").write(to: broken, atomically: true, encoding: .utf8)
        let script = """
            import json, sys, yaml, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            for path in sys.argv[2:]:
                errors = list(validator.iter_errors(yaml.safe_load(open(path))))
                print(path.rsplit("/", 1)[-1], len(errors), "; ".join(".".join(map(str, e.path)) + ": " + e.message for e in errors)[:300])
            """
        let outcome = try await ProcessRunner.capture(
            ["/usr/bin/python3", "-c", script, schema.path] + samples.map { Self.configDirectory.appendingPathComponent($0).path } + [broken.path], timeout: 60)
        #expect(outcome.status == 0, "\(outcome.errors)")
        let results = outcome.output.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 2).map(String.init) }
        #expect(results.count == samples.count + 1)
        for result in results.dropLast() { #expect(result.count >= 2 && result[1] == "0", "\(result)") }
        #expect(results.last?[1] == "1" && results.last?.last?.contains("'refresh' was unexpected") == true, "\(results.last ?? [])")
        // The loader refuses it too.
        #expect(throws: ConfigErrors.self) { try ConfigLoader.load(path: broken.path, environment: ["HAMMOCK_DEMO_URL": "http://127.0.0.1:1/"]) }
    }
}
