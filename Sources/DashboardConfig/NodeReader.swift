import FoundationEssentials
import Redaction
import ResourceEngine

/// Reads YAML nodes into typed values, collecting every problem with its position instead of
/// stopping at the first.
struct NodeReader {
    let file: String
    let interpolator: EnvironmentInterpolator
    var problems: [ConfigProblem] = []
    /// Environment values that went into request bodies (their places are not kept, so they are
    /// secrets wherever they show up).
    var bodySecrets: Set<String> = []
    /// Where values read from files put their new contents when the files change.
    let liveSecrets = LiveSecrets()
    /// Checking without secrets (`check` in CI): an unset variable or unreadable file is a
    /// warning, its value a placeholder, and a problem where one went in is not reported.
    var withoutSecrets = false
    var warnings: [ConfigProblem] = []
    /// Where values hold placeholders (line, column).
    var placeholders: Set<[Int]> = []
    /// The places of the pane being read that take values from other panes (`${pane:…}`), and
    /// where each reference is written; `ConfigLoader.readPane` takes and clears them.
    var chainFields: [PaneChain.Field] = []
    var chainReferences: [(written: String, line: Int, column: Int)] = []

    init(file: String, environment: [String: String], withoutSecrets: Bool = false) {
        self.file = file
        self.withoutSecrets = withoutSecrets
        self.interpolator = EnvironmentInterpolator(
            environment: environment, folder: URL(fileURLWithPath: file).deletingLastPathComponent().path)
    }

    mutating func problem(at node: YAMLNode?, _ message: String) {
        let mark = node?.mark
        problems.append(ConfigProblem(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, message: message))
    }

    mutating func problem(line: Int, column: Int, _ message: String) {
        problems.append(ConfigProblem(file: file, line: line, column: column, message: message))
    }

    /// A mapping's entries with string keys; reports a non-mapping, non-string and duplicate keys.
    mutating func mapping(_ node: YAMLNode, _ what: String) -> [(key: String, keyNode: YAMLNode, value: YAMLNode)]? {
        guard case .mapping(let mapping) = node else {
            problem(at: node, "\(what) must be a mapping (key: value), not \(describe(node))")
            return nil
        }
        var seen = Set<String>()
        var entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                problem(at: keyNode, "keys in \(what) must be plain names")
                continue
            }
            if !seen.insert(scalar.string).inserted {
                problem(at: keyNode, "duplicate key \"\(scalar.string)\" in \(what)")
                continue
            }
            entries.append((scalar.string, keyNode, value))
        }
        return entries
    }

    /// Reports keys not in `allowed`, with a suggestion.
    mutating func checkKeys(_ entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)], allowed: [String], in what: String) {
        for entry in entries where !allowed.contains(entry.key) {
            problem(at: entry.keyNode, "unknown key \"\(entry.key)\" in \(what)" + Suggestions.hint(for: entry.key, in: allowed))
        }
    }

    mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        guard case .scalar(let scalar) = node else {
            problem(at: node, "\(what) must be text, not \(describe(node))")
            return nil
        }
        if node.isNull, scalar.style == .plain {
            problem(at: node, "\(what) must not be empty")
            return nil
        }
        return scalar.string
    }

    mutating func interpolated(_ node: YAMLNode, _ what: String) -> ConfigString? {
        guard let text = string(node, what) else { return nil }
        return interpolate(text, at: node, what)
    }

    /// Whether the value at `node` holds a placeholder for a missing secret.
    func holdsPlaceholder(_ node: YAMLNode) -> Bool {
        placeholders.contains([node.mark.line, node.mark.column])
    }

    /// A value of a pane's request that may take values from other panes (`${pane:…}`, at
    /// `place`): interpolated with each reference's placeholder, the references noted.
    mutating func chained(_ node: YAMLNode, _ what: String, place: PaneChain.Place) -> ConfigString? {
        guard let text = string(node, what) else { return nil }
        guard text.contains("${pane:"), case .success(let pieces) = EnvironmentInterpolator.pieces(of: text),
            pieces.contains(where: { if case .pane = $0 { true } else { false } })
        else { return interpolate(text, at: node, what) }
        for piece in pieces {
            guard case .pane(let written) = piece, !chainReferences.contains(where: { $0.written == written }) else { continue }
            chainReferences.append((written, node.mark.line, node.mark.column))
        }
        guard let value = interpolate(text, at: node, what, pane: { PaneChain.placeholder($0, in: place) }) else { return nil }
        if case .resource = place, WrittenURL.isAbsolute(value.value) {
            // The origin is the config's: a value from a response goes only into the path or query.
            let afterScheme = value.value.firstRange(of: "://")!.upperBound
            let authorityEnd = value.value[afterScheme...].firstIndex { "/?#".contains($0) } ?? value.value.endIndex
            if value.value[..<authorityEnd].contains("%24%7Bpane") {
                problem(at: node, "\(what): a ${pane:…} may only stand in the path or query, after the scheme and host")
                return nil
            }
        }
        chainFields.append(PaneChain.Field(place: place, pieces: pieces))
        return value
    }

    /// `text`, written at `node`, with its variables and files filled in; a problem at `node`
    /// when that fails (without secrets, an unset variable or unreadable file is a warning).
    /// `pane` gives what a `${pane:…}` stands for where one may stand.
    mutating func interpolate(_ text: String, at node: YAMLNode, _ what: String, pane: ((String) -> String)? = nil) -> ConfigString? {
        guard withoutSecrets else {
            switch interpolator.interpolate(text, pane: pane) {
            case .success(let value): return value
            case .failure(let failure):
                problem(at: node, "\(what): \(failure)")
                return nil
            }
        }
        switch interpolator.interpolateWithoutSecrets(text, pane: pane) {
        case .success(let (value, missing)):
            let mark = node.mark
            for failure in missing {
                warnings.append(ConfigProblem(
                    file: file, line: mark.line, column: mark.column,
                    message: "\(what): \(failure); the dashboard, snapshot, events and serve refuse to start without it"))
            }
            if !missing.isEmpty { placeholders.insert([mark.line, mark.column]) }
            return value
        case .failure(let failure):
            problem(at: node, "\(what): \(failure)")
            return nil
        }
    }

    /// A value for a header or credential: interpolated, and read again whenever a file it came
    /// from (`${file:…}`) changes, through `transform` (which makes the value sent).
    mutating func live(
        _ value: ConfigString, transform: @escaping @Sendable (String) -> String = { $0 },
        validate: @escaping @Sendable (String) -> String? = LiveValueSource.headerValueProblem
    ) -> LiveValueSource? {
        guard !value.files.isEmpty else { return nil }
        return LiveValueSource(value, interpolator: interpolator, transform: transform, validate: validate)
    }

    mutating func int(_ node: YAMLNode, _ what: String, range: ClosedRange<Int>) -> Int? {
        guard case .scalar(let scalar) = node, let value = node.int else {
            // A whole number too large for an Int (2e19, 99999999999999999999) is out of range,
            // not "not a whole number".
            if case .scalar(let scalar) = node, let number = node.float ?? Double(scalar.string), number.isFinite, number.rounded() == number {
                problem(at: node, "\(what) must be between \(range.lowerBound) and \(range.upperBound), not \(scalar.string)")
                return nil
            }
            problem(at: node, "\(what) must be a whole number, not \(describe(node))")
            return nil
        }
        _ = scalar
        guard range.contains(value) else {
            problem(at: node, "\(what) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
            return nil
        }
        return value
    }

    mutating func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        guard case .scalar = node, let value = node.bool else {
            problem(at: node, "\(what) must be true or false, not \(describe(node))")
            return nil
        }
        return value
    }

    /// The longest duration a config may give: longer ones are surely mistakes, and every duration
    /// must stay far inside what timers and clocks can hold (nanoseconds in 64 bits).
    static let longestDuration: TimeInterval = 30 * 86_400

    mutating func duration(_ node: YAMLNode, _ what: String, minimum: TimeInterval = 0) -> TimeInterval? {
        guard case .scalar(let scalar) = node else {
            problem(at: node, "\(what) must be a duration like 250ms, 5s or 2m, not \(describe(node))")
            return nil
        }
        guard let seconds = DurationText.parse(scalar.string) else {
            problem(at: node, "\(what): \"\(scalar.string)\" is not a duration (use e.g. 250ms, 5s, 2m, 1h)")
            return nil
        }
        guard DurationText.hasUnit(scalar.string) else {
            problem(at: node, "\(what): \(scalar.string) needs a unit (\(DurationText.units)), e.g. \(scalar.string)s or \(scalar.string)ms")
            return nil
        }
        guard seconds >= minimum, minimum == 0 || seconds > 0 else {
            problem(at: node, "\(what) must be at least \(DurationText.format(minimum)), not \(scalar.string)")
            return nil
        }
        guard seconds <= NodeReader.longestDuration else {
            problem(at: node, "\(what) must be at most 30 days (720h), not \(scalar.string)")
            return nil
        }
        return seconds
    }

    /// A list of text; a single scalar counts as a list of one.
    /// The items of a list, or a single value as a list of one; `problem` (then nil) for
    /// anything else. Keys, tags, fields and the like are written either way.
    mutating func items(of node: YAMLNode, or problem: String) -> [YAMLNode]? {
        switch node {
        case .sequence(let sequence): return Array(sequence)
        case .scalar: return [node]
        default:
            self.problem(at: node, problem)
            return nil
        }
    }

    mutating func stringList(_ node: YAMLNode, _ what: String) -> [String]? {
        switch node {
        case .sequence(let sequence):
            var result: [String] = []
            for item in sequence {
                guard let text = string(item, "each item of \(what)") else { return nil }
                result.append(text)
            }
            return result
        case .scalar:
            return string(node, what).map { [$0] }
        default:
            problem(at: node, "\(what) must be a list, not \(describe(node))")
            return nil
        }
    }

    /// A plain (unquoted) scalar's JSON value when it is null, a boolean or a number; nil for text.
    static func plainValue(_ node: YAMLNode) -> JSON? {
        guard case .scalar(let scalar) = node, scalar.style == .plain else { return nil }
        if node.isNull { return .null }
        if let bool = node.bool { return .bool(bool) }
        if let int = node.int { return .int(int) }
        if let double = node.float { return .double(double) }
        return nil
    }

    /// YAML to JSON, keeping key order; quoted scalars stay strings.
    mutating func json(_ node: YAMLNode, _ what: String) -> JSON? {
        switch node {
        case .scalar(let scalar):
            if let typed = Self.plainValue(node) { return typed }
            guard let value = interpolate(scalar.string, at: node, what) else { return nil }
            bodySecrets.formUnion(value.environmentValues)
            return .string(value.value)
        case .sequence(let sequence):
            var items: [JSON] = []
            for item in sequence {
                guard let value = json(item, what) else { return nil }
                items.append(value)
            }
            return .array(items)
        case .mapping:
            guard let entries = mapping(node, what) else { return nil }
            var object = JSONObject()
            for entry in entries {
                guard let value = json(entry.value, what) else { return nil }
                object[entry.key] = value
            }
            return .object(object)
        }
    }

    func describe(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let scalar): node.isNull && scalar.style == .plain ? "nothing" : "\"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}
