import FoundationEssentials
import ResourceEngine

extension ConfigLoader {
    static let displayFieldKeys = ["path", "label", "format", "decimals", "width", "colors"]

    /// `fields:` or `columns:`: a list whose items are paths or `{ path, label, format, width,
    /// colors }` (width only for columns). Nil after reporting a problem.
    static func readDisplayFields(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> [DisplayField]? {
        guard let items = reader.items(of: node, or: "\(what) must be a list of paths or { path, label, format } entries") else { return nil }
        var fields: [DisplayField] = []
        var explicit: Set<Int> = []
        var ok = true
        for item in items {
            if case .mapping = item {
                guard let entries = reader.mapping(item, "an entry of \(what)") else {
                    ok = false
                    continue
                }
                let allowed = what == "columns" ? displayFieldKeys : displayFieldKeys.filter { $0 != "width" }
                if let width = entries.first(where: { $0.key == "width" }), what != "columns" {
                    reader.problem(at: width.keyNode, "width only applies to columns")
                    ok = false
                }
                reader.checkKeys(entries.filter { $0.key != "width" || what == "columns" }, allowed: allowed, in: "an entry of \(what)")
                let value = { (key: String) in entries.first { $0.key == key } }
                guard let pathEntry = value("path") else {
                    reader.problem(at: item, "an entry of \(what) needs a path, e.g. { path: status, label: Status }")
                    ok = false
                    continue
                }
                guard let path = reader.string(pathEntry.value, "\(what) path"), validPath(path, pathEntry.value, what, reader: &reader) else {
                    ok = false
                    continue
                }
                var field = DisplayField(path: path)
                if let entry = value("label"), let label = reader.string(entry.value, "label") {
                    field.label = label
                    explicit.insert(fields.count)
                }
                if let entry = value("format") {
                    if let format = readFormat(entry.value, reader: &reader) { field.format = format } else { ok = false }
                }
                if let entry = value("decimals") {
                    if let decimals = readDecimals(entry, format: &field.format, reader: &reader) { field.decimals = decimals } else { ok = false }
                }
                if let entry = value("width") {
                    if let width = readWidth(entry.value, reader: &reader) { field.width = width } else { ok = false }
                }
                if let entry = value("colors") {
                    if let colors = readColors(entry.value, reader: &reader) { field.colors = colors } else { ok = false }
                }
                fields.append(field)
            } else {
                guard let path = reader.string(item, "each item of \(what)"), validPath(path, item, what, reader: &reader) else {
                    ok = false
                    continue
                }
                fields.append(DisplayField(path: path))
            }
        }
        return ok ? DisplayField.disambiguated(fields, explicit: explicit) : nil
    }

    private static func validPath(_ path: String, _ node: YAMLNode, _ what: String, reader: inout NodeReader) -> Bool {
        if (try? JSONPath(path)) != nil { return true }
        reader.problem(at: node, "\(what): \"\(path)\" is not a valid path")
        return false
    }

    /// `format: number | bytes | percent | duration | age | time`.
    static func readFormat(_ node: YAMLNode, reader: inout NodeReader) -> ValueFormat? {
        guard let name = reader.string(node, "format") else { return nil }
        if let format = ValueFormat(rawValue: name) { return format }
        let names = ValueFormat.allCases.map(\.rawValue)
        reader.problem(at: node, "unknown format \"\(name)\" (one of \(names.joined(separator: ", ")))" + Suggestions.hint(for: name, in: names))
        return nil
    }

    /// `decimals: 2`: places a `number` (the format it implies when none is given) or a
    /// `percent` is rounded to.
    static func readDecimals(_ entry: (key: String, keyNode: YAMLNode, value: YAMLNode), format: inout ValueFormat?, reader: inout NodeReader) -> Int? {
        guard let decimals = reader.int(entry.value, "decimals", range: 0...12) else { return nil }
        switch format {
        case nil: format = .number
        case .number?, .percent?: break
        case let other?:
            reader.problem(at: entry.keyNode, "decimals apply to format: number or percent, not \(other.rawValue)")
            return nil
        }
        return decimals
    }

    /// `width: 12`, `width: 30%` or `width: fill`.
    static func readWidth(_ node: YAMLNode, reader: inout NodeReader) -> DisplayField.Width? {
        if case .scalar(let scalar) = node, scalar.string == "fill" { return .fill }
        if case .scalar(let scalar) = node, scalar.string.hasSuffix("%") {
            if let percent = Int(scalar.string.dropLast()), (1...100).contains(percent) { return .share(percent) }
            reader.problem(at: node, "a width share is 1% to 100%")
            return nil
        }
        if case .scalar(let scalar) = node, let columns = Int(scalar.string) {
            if (1...500).contains(columns) { return .fixed(columns) }
            reader.problem(at: node, "width must be between 1 and 500 columns, a share like 30%, or fill")
            return nil
        }
        reader.problem(at: node, "width must be a number of columns, a share like 30%, or fill")
        return nil
    }

    /// `colors: { up: green, down: red }`: a value's text → a colour.
    static func readColors(_ node: YAMLNode, reader: inout NodeReader) -> [String: DisplayColor]? {
        guard let entries = reader.mapping(node, "colors") else { return nil }
        var colors: [String: DisplayColor] = [:]
        var ok = true
        for entry in entries {
            guard let name = reader.string(entry.value, "colors.\(entry.key)") else {
                ok = false
                continue
            }
            guard let color = DisplayColor(rawValue: name.lowercased()) else {
                let names = DisplayColor.allCases.map(\.rawValue)
                reader.problem(at: entry.value, "unknown colour \"\(name)\" (one of \(names.joined(separator: ", ")))" + Suggestions.hint(for: name.lowercased(), in: names))
                ok = false
                continue
            }
            colors[entry.key] = color
        }
        return ok ? colors : nil
    }

    /// `thresholds: { warn: "> 0.8", fail: "> 0.95" }`.
    static func readThresholds(_ node: YAMLNode, reader: inout NodeReader) -> Thresholds? {
        guard let entries = reader.mapping(node, "thresholds") else { return nil }
        reader.checkKeys(entries, allowed: ["warn", "fail"], in: "thresholds")
        var thresholds = Thresholds()
        var ok = entries.allSatisfy { ["warn", "fail"].contains($0.key) }
        for entry in entries where ["warn", "fail"].contains(entry.key) {
            guard let text = reader.string(entry.value, "thresholds.\(entry.key)") else {
                ok = false
                continue
            }
            do {
                let condition = try Thresholds.condition(text)
                if entry.key == "warn" { thresholds.warn = condition } else { thresholds.fail = condition }
            } catch {
                reader.problem(at: entry.value, "thresholds.\(entry.key): \(error.message), e.g. \"> 0.8\"")
                ok = false
            }
        }
        if ok, thresholds.warn == nil, thresholds.fail == nil {
            reader.problem(at: node, "thresholds needs warn or fail, e.g. { warn: \"> 0.8\", fail: \"> 0.95\" }")
            ok = false
        }
        return ok ? thresholds : nil
    }
}
