import Foundation
import HammockHarness
import ResourceEngine
import Testing

/// The pipeline's JSON Schema: what each keyword says when content breaks it, and the same
/// verdicts as Python's jsonschema (Debian's python3-jsonschema) over generated schemas and
/// documents.
@Suite struct JSONSchemaTests {
    static func json(_ text: String) -> JSON { try! JSONParser.parse(text) }

    @Test func eachBreakIsListedWithItsPlace() throws {
        let schema = try JSONSchema(Self.json(#"""
            {"type":"object","required":["items","total"],"additionalProperties":false,
             "properties":{"items":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/item"}},
                           "total":{"type":"number","minimum":0},"note":{"type":"string","maxLength":5,"pattern":"^[a-z]+$"}},
             "$defs":{"item":{"type":"object","required":["id"],"properties":{"id":{"type":"integer"},
                       "state":{"enum":["up","down"]}}}}}
            """#))
        let content = Self.json(#"{"items":[{"id":1,"state":"up"},{"id":2.5},{"state":"sideways"}],"total":-1,"note":"Hello!","extra":true}"#)
        #expect(schema.violations(of: content).map(\.description) == [
            "items[1].id: expected integer, got a number (2.5)",
            "items[2]: \"id\" is required but missing",
            "items[2].state: expected one of \"up\", \"down\", got \"sideways\"",
            "total: expected at least 0, got -1",
            "note: expected at most 5 characters, got 6",
            "note: \"Hello!\" does not match ^[a-z]+$",
            "extra: no such member is allowed",
        ])
        #expect(schema.violations(of: Self.json(#"{"items":[{"id":1}],"total":3}"#)).isEmpty)
        #expect(schema.violations(of: Self.json("[]")).map(\.description) == ["(root): expected object, got an array of 0"])
    }

    @Test func combinatorsAndBooleanSchemas() throws {
        let schema = try JSONSchema(Self.json(#"{"oneOf":[{"type":"string"},{"type":"number","multipleOf":5}],"not":{"const":10}}"#))
        #expect(schema.violations(of: .string("a")).isEmpty)
        #expect(schema.violations(of: .int(15)).isEmpty)
        #expect(schema.violations(of: .int(10)).map(\.message) == ["matches the schema under not"])
        #expect(schema.violations(of: .int(7)).map(\.message) == ["matches 0 of oneOf's 2 schemas, not exactly one"])
        #expect(try JSONSchema(.bool(false)).violations(of: .null).map(\.message) == ["nothing is allowed here"])
        #expect(try JSONSchema(.bool(true)).violations(of: .null).isEmpty)
    }

    @Test func aSchemaThatCannotBeUsedSaysWhy() {
        #expect(throws: JSONSchema.Problem.self) { try JSONSchema(Self.json(##"{"$ref":"#/$defs/missing"}"##)) }
        #expect(throws: JSONSchema.Problem.self) { try JSONSchema(Self.json(#"{"$ref":"https://example.com/s.json"}"#)) }
        #expect(throws: JSONSchema.Problem.self) { try JSONSchema(Self.json(#"{"pattern":"(unclosed"}"#)) }
        // A $ref that loops never hangs.
        let loop = try? JSONSchema(Self.json(##"{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##))
        #expect(loop?.violations(of: .null).isEmpty == false)
    }

    /// Seeded, so a failure can be replayed: schemas from the keywords the validator reads,
    /// documents near them, and Python's verdict for each.
    @Test func agreesWithPythonsJSONSchema() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return }
        var random = SplitMix(seed: 0x5EED_48)
        var cases: [(JSON, JSON)] = []
        for _ in 0..<400 {
            let schema = random.schema(depth: 0)
            cases.append((schema, random.document(near: schema, depth: 0)))
        }
        let lines = try cases.map { schema, document in
            String(decoding: try JSON.array([schema, document]).serialized(), as: UTF8.self)
        }
        let input = ScratchDirectory.path("schema-cases", extension: ".jsonl")
        try lines.joined(separator: "\n").write(toFile: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let script = """
            import json, sys, jsonschema
            for line in open(sys.argv[1]):
                schema, document = json.loads(line)
                print(1 if jsonschema.Draft202012Validator(schema).is_valid(document) else 0)
            """
        let outcome = try await ProcessRunner.capture(["/usr/bin/python3", "-c", script, input], timeout: 120)
        try #require(outcome.status == 0, "\(outcome.errors)")
        let python = outcome.output.split(separator: "\n").map { $0 == "1" }
        try #require(python.count == cases.count)
        var disagreements: [String] = []
        for (index, (schema, document)) in cases.enumerated() {
            let ours = try JSONSchema(schema).violations(of: document).isEmpty
            if ours != python[index] { disagreements.append("case \(index): \(lines[index]) — Hammock \(ours), jsonschema \(python[index])") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5).joined(separator: "\n"))")
        #expect(python.contains(true) && python.contains(false), "both verdicts are exercised")
    }
}

/// Schemas and documents from a seeded generator.
struct SplitMix {
    var random: SeededRandom
    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

    static let words = ["a", "b", "up", "down", "ab", "Zed", ""]
    static let patterns = ["^a", "b$", "^[a-z]+$", "[0-9]", "^$", "p"]

    mutating func scalar() -> JSON {
        switch int(0...5) {
        case 0: .null
        case 1: .bool(chance(50))
        case 2: .int(int(-3...12))
        case 3: .double(Double(int(-10...20)) / 2)
        default: .string(pick(Self.words))
        }
    }

    mutating func schema(depth: Int) -> JSON {
        if depth > 2 || chance(15) { return chance(85) ? .object(JSONObject()) : .bool(chance(60)) }
        var object = JSONObject()
        let type = pick(["object", "array", "string", "number", "integer", "boolean", "null", "none"])
        if type != "none" { object["type"] = chance(80) ? .string(type) : .array([.string(type), .string(pick(["null", "string"]))]) }
        switch type {
        case "object":
            var properties = JSONObject()
            for name in ["a", "b", "c"] where chance(60) { properties[name] = schema(depth: depth + 1) }
            object["properties"] = .object(properties)
            if chance(50) { object["required"] = .array(["a", "b"].filter { _ in chance(50) }.map(JSON.string)) }
            if chance(40) { object["additionalProperties"] = chance(50) ? .bool(false) : schema(depth: depth + 1) }
            if chance(20) { object["minProperties"] = .int(int(0...2)) }
        case "array":
            if chance(70) { object["items"] = schema(depth: depth + 1) }
            if chance(20) { object["prefixItems"] = .array([schema(depth: depth + 1)]) }
            if chance(30) { object["minItems"] = .int(int(0...2)) }
            if chance(30) { object["maxItems"] = .int(int(1...3)) }
        case "string":
            if chance(30) { object["minLength"] = .int(int(0...2)) }
            if chance(30) { object["maxLength"] = .int(int(0...3)) }
            if chance(40) { object["pattern"] = .string(pick(Self.patterns)) }
        case "number", "integer":
            if chance(40) { object["minimum"] = .int(int(-2...5)) }
            if chance(40) { object["maximum"] = .int(int(0...10)) }
            if chance(20) { object["exclusiveMinimum"] = .int(int(-2...3)) }
            if chance(20) { object["exclusiveMaximum"] = .int(int(2...9)) }
            if chance(20) { object["multipleOf"] = .int(int(1...3)) }
        default: break
        }
        if chance(15) { object["enum"] = .array((0..<int(1...3)).map { _ in scalar() }) }
        if chance(8) { object["const"] = scalar() }
        if chance(10) { object["anyOf"] = .array([schema(depth: depth + 1), schema(depth: depth + 1)]) }
        if chance(10) { object["oneOf"] = .array([schema(depth: depth + 1), schema(depth: depth + 1)]) }
        if chance(8) { object["allOf"] = .array([schema(depth: depth + 1)]) }
        if chance(6) { object["not"] = schema(depth: depth + 1) }
        if depth == 0, chance(15) {
            object["$defs"] = .object(JSONObject([("d", schema(depth: depth + 1))]))
            object["properties"] = .object(JSONObject([("a", .object(JSONObject([("$ref", .string("#/$defs/d"))])))]))
        }
        return .object(object)
    }

    mutating func document(near schema: JSON, depth: Int) -> JSON {
        if depth > 3 { return scalar() }
        let type = schema["type"]?.stringValue ?? schema["type"]?.arrayValue?.first?.stringValue
        if chance(15) { return scalar() }
        switch type {
        case "object":
            var object = JSONObject()
            for name in ["a", "b", "c", "d"] where chance(55) {
                object[name] = document(near: schema["properties"]?[name] ?? .object(JSONObject()), depth: depth + 1)
            }
            return .object(object)
        case "array":
            return .array((0..<int(0...3)).map { _ in document(near: schema["items"] ?? .object(JSONObject()), depth: depth + 1) })
        case "string": return .string(pick(Self.words + ["a1", "ba", "upb"]))
        case "number": return chance(50) ? .int(int(-3...12)) : .double(Double(int(-6...24)) / 2)
        case "integer": return chance(80) ? .int(int(-3...12)) : .double(Double(int(-6...24)) / 2)
        case "boolean": return .bool(chance(50))
        default: return chance(30) ? .object(JSONObject([("a", scalar())])) : scalar()
        }
    }
}
