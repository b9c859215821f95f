/// A JSON Schema (draft 2020-12) that content is checked against: `type`, `properties`,
/// `required`, `additionalProperties`, `items`, `prefixItems`, `enum`, `const`, numeric bounds,
/// `multipleOf`, length and size bounds, `pattern` (through the pipeline's linear-time regex
/// engine, searched as ECMA-262 patterns are), `$ref` within the document (`#`, `#/$defs/…`),
/// `allOf`, `anyOf`, `oneOf`, `not`, and `true`/`false` schemas. Other keywords are ignored, as
/// the specification asks of unknown ones.
public struct JSONSchema: Sendable {
    /// One place the content breaks the schema: where (`items[2].state`, or `(root)`) and how.
    public struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// The place in the content, as a path.
        public let path: String
        /// What is wrong there.
        public let message: String
        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// Why a schema cannot be used: a `$ref` that leads nowhere, a pattern the engine refuses.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        public let message: String
        /// The message.
        public var description: String { message }
    }

    let root: JSON
    private let patterns: [String: LinearRegex]

    /// A schema from its JSON; every `$ref` and `pattern` in it is checked now.
    public init(_ schema: JSON) throws(Problem) {
        root = schema
        var patterns: [String: LinearRegex] = [:]
        var problem: Problem?
        func visit(_ node: JSON, at place: String) {
            guard problem == nil else { return }
            switch node {
            case .object(let object):
                for (key, value) in object.members {
                    if key == "pattern", case .string(let text) = value, patterns[text] == nil {
                        do { patterns[text] = try LinearRegex(text) } catch { problem = Problem(message: "\(place)pattern \"\(text)\": \(error.message)") }
                    }
                    if key == "$ref", case .string(let reference) = value, JSONSchema.resolve(reference, in: schema) == nil {
                        problem = Problem(message: "\(place)$ref \"\(reference)\" leads nowhere in the schema (only # and #/… within it are read)")
                    }
                    // `const` and `enum` hold values, not schemas.
                    if key != "const", key != "enum" { visit(value, at: place) }
                }
            case .array(let items): for item in items { visit(item, at: place) }
            default: break
            }
        }
        visit(schema, at: "")
        if let problem { throw problem }
        self.patterns = patterns
    }

    /// Every place `content` breaks the schema; none when it is valid.
    public func violations(of content: JSON) -> [Violation] {
        var found: [Violation] = []
        check(content, against: root, at: "", into: &found, depth: 0)
        return found
    }

    // MARK: Checking

    private func check(_ value: JSON, against schema: JSON, at path: String, into found: inout [Violation], depth: Int) {
        func fail(_ message: String) { found.append(Violation(path: path.isEmpty ? "(root)" : path, message: message)) }
        switch schema {
        case .bool(true): return
        case .bool(false): return fail("nothing is allowed here")
        case .object: break
        default: return
        }
        // A $ref loop that never reaches a value is the schema's problem, not the content's.
        guard depth < 64 else { return fail("the schema's $ref go round more than 64 times") }
        if case .string(let reference) = schema["$ref"], let target = JSONSchema.resolve(reference, in: root) {
            check(value, against: target, at: path, into: &found, depth: depth + 1)
        }
        if let types = schema["type"] {
            let names = types.arrayValue?.compactMap(\.stringValue) ?? types.stringValue.map { [$0] } ?? []
            if !names.isEmpty, !names.contains(where: { JSONSchema.isOf(type: $0, value) }) {
                fail("expected \(names.joined(separator: " or ")), got \(JSONSchema.describe(value))")
                return
            }
        }
        if let constant = schema["const"], !JSONSchema.equal(constant, value) { fail("expected \(JSONSchema.written(constant)), got \(JSONSchema.written(value))") }
        if let options = schema["enum"]?.arrayValue, !options.contains(where: { JSONSchema.equal($0, value) }) {
            fail("expected one of \(options.map(JSONSchema.written).joined(separator: ", ")), got \(JSONSchema.written(value))")
        }
        if let number = JSONSchema.number(value) {
            if let bound = schema["minimum"].flatMap(JSONSchema.number), number < bound { fail("expected at least \(JSON.format(bound)), got \(JSON.format(number))") }
            if let bound = schema["maximum"].flatMap(JSONSchema.number), number > bound { fail("expected at most \(JSON.format(bound)), got \(JSON.format(number))") }
            if let bound = schema["exclusiveMinimum"].flatMap(JSONSchema.number), number <= bound { fail("expected more than \(JSON.format(bound)), got \(JSON.format(number))") }
            if let bound = schema["exclusiveMaximum"].flatMap(JSONSchema.number), number >= bound { fail("expected less than \(JSON.format(bound)), got \(JSON.format(number))") }
            if let step = schema["multipleOf"].flatMap(JSONSchema.number), step > 0 {
                let quotient = number / step
                if quotient.isFinite, abs(quotient - quotient.rounded()) > 1e-9 { fail("expected a multiple of \(JSON.format(step)), got \(JSON.format(number))") }
            }
        }
        if case .string(let text) = value {
            let length = text.unicodeScalars.count
            if let bound = schema["minLength"]?.intValue, length < bound { fail("expected at least \(bound) characters, got \(length)") }
            if let bound = schema["maxLength"]?.intValue, length > bound { fail("expected at most \(bound) characters, got \(length)") }
            if case .string(let pattern) = schema["pattern"], let regex = patterns[pattern] {
                // A pattern that gives up (too large a text) is not held against the content.
                let match: [Range<String.Index>?]??
                do { match = .some(try regex.firstMatch(in: text)) } catch { match = nil }
                if case .some(.none) = match { fail("\(JSONSchema.written(value)) does not match \(pattern)") }
            }
        }
        if case .array(let items) = value {
            if let bound = schema["minItems"]?.intValue, items.count < bound { fail("expected at least \(bound) items, got \(items.count)") }
            if let bound = schema["maxItems"]?.intValue, items.count > bound { fail("expected at most \(bound) items, got \(items.count)") }
            let prefix = schema["prefixItems"]?.arrayValue ?? []
            for (index, item) in items.enumerated() {
                let itemSchema = index < prefix.count ? prefix[index] : schema["items"]
                if let itemSchema { check(item, against: itemSchema, at: path + "[\(index)]", into: &found, depth: depth + 1) }
            }
        }
        if case .object(let object) = value {
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
                fail("\"\(name)\" is required but missing")
            }
            let properties = schema["properties"]?.objectValue
            for (key, member) in object.members {
                let memberPath = JSONSchema.memberPath(path, key)
                if let propertySchema = properties?[key] {
                    check(member, against: propertySchema, at: memberPath, into: &found, depth: depth + 1)
                } else if let additional = schema["additionalProperties"] {
                    if additional == .bool(false) {
                        found.append(Violation(path: memberPath, message: "no such member is allowed"))
                    } else {
                        check(member, against: additional, at: memberPath, into: &found, depth: depth + 1)
                    }
                }
            }
            if let bound = schema["minProperties"]?.intValue, object.count < bound { fail("expected at least \(bound) members, got \(object.count)") }
            if let bound = schema["maxProperties"]?.intValue, object.count > bound { fail("expected at most \(bound) members, got \(object.count)") }
        }
        if let parts = schema["allOf"]?.arrayValue {
            for part in parts { check(value, against: part, at: path, into: &found, depth: depth + 1) }
        }
        if let parts = schema["anyOf"]?.arrayValue, !parts.contains(where: { isValid(value, $0, depth: depth + 1) }) {
            fail("matches none of anyOf's \(parts.count) schemas")
        }
        if let parts = schema["oneOf"]?.arrayValue {
            let matching = parts.filter { isValid(value, $0, depth: depth + 1) }.count
            if matching != 1 { fail("matches \(matching) of oneOf's \(parts.count) schemas, not exactly one") }
        }
        if let negated = schema["not"], isValid(value, negated, depth: depth + 1) { fail("matches the schema under not") }
    }

    private func isValid(_ value: JSON, _ schema: JSON, depth: Int) -> Bool {
        var found: [Violation] = []
        check(value, against: schema, at: "", into: &found, depth: depth)
        return found.isEmpty
    }

    // MARK: Values

    /// The schema `reference` names within `document` (`#`, `#/$defs/name`, `#/properties/a/items`).
    static func resolve(_ reference: String, in document: JSON) -> JSON? {
        guard reference.hasPrefix("#") else { return nil }
        var node = document
        for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let name = token.split(separator: "~1", omittingEmptySubsequences: false).joined(separator: "/")
                .split(separator: "~0", omittingEmptySubsequences: false).joined(separator: "~")
            if case .array(let items) = node, let index = Int(name), items.indices.contains(index) {
                node = items[index]
            } else if let next = node[name] {
                node = next
            } else {
                return nil
            }
        }
        return node
    }

    static func isOf(type name: String, _ value: JSON) -> Bool {
        switch (name, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): true
        case ("number", .int), ("number", .double), ("number", .bigInteger): true
        case ("integer", .int), ("integer", .bigInteger): true
        case ("integer", .double(let number)): number.isFinite && number.rounded() == number
        default: false
        }
    }

    static func number(_ value: JSON) -> Double? {
        switch value {
        case .int(let n): Double(n)
        case .double(let n): n
        case .bigInteger(let digits): Double(digits)
        default: nil
        }
    }

    /// JSON equality, numbers by value (1 equals 1.0), members in any order.
    static func equal(_ a: JSON, _ b: JSON) -> Bool {
        if let x = number(a), let y = number(b) { return x == y }
        switch (a, b) {
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.members.allSatisfy { member in y[member.key].map { equal(member.value, $0) } ?? false }
        default: return a == b
        }
    }

    static func describe(_ value: JSON) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean (\(written(value)))"
        case .int, .double, .bigInteger: "a number (\(written(value)))"
        case .string: "a string (\(written(value)))"
        case .array(let items): "an array of \(items.count)"
        case .object: "an object"
        }
    }

    static func written(_ value: JSON) -> String {
        let text = value.description
        return text.count > 60 ? String(text.prefix(59)) + "…" : text
    }

    /// `items[2].state`, `["odd key"]`.
    static func memberPath(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
            && !(key.first?.isNumber ?? false)
        if plain { return path.isEmpty ? key : path + "." + key }
        return path + "[" + written(.string(key)) + "]"
    }
}
