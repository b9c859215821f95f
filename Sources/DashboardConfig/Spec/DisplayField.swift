import ResourceEngine

/// One entry of a pane's `fields:` or `columns:`: a path into each value, the label it is shown
/// under, and how its values are shown.
///
///     fields: [status]                                  # short form: label "status"
///     columns:
///       - { path: labels.job, label: Job }
///       - { path: health, colors: { up: green, down: red } }
///       - { path: lastScrapeDuration, format: duration }
///       - { path: lastError, width: fill }
public struct DisplayField: Sendable, Equatable {
    /// How wide a table column is.
    public enum Width: Sendable, Equatable {
        /// As wide as its header and widest value, giving way when space runs out.
        case natural
        /// Exactly this many columns of text.
        case fixed(Int)
        /// Whatever the other columns leave.
        case fill
        /// This share of the table's width, in percent (`width: 30%`).
        case share(Int)
    }

    public var path: String
    public var label: String
    public var format: ValueFormat?
    /// Places a `number` or `percent` value is rounded to; nil keeps a number's digits.
    public var decimals: Int?
    public var width: Width
    /// Value text → colour name, e.g. `up` → `green` (matched on the value as received).
    public var colors: [String: DisplayColor]

    public init(path: String, label: String? = nil, format: ValueFormat? = nil, width: Width = .natural, colors: [String: DisplayColor] = [:]) {
        self.path = path
        self.label = label ?? DisplayField.defaultLabel(for: path)
        self.format = format
        self.width = width
        self.colors = colors
    }

    /// The last segment of the path (`labels.job` → `job`, `items[0]` → `items[0]`), or the whole
    /// path when it has none.
    public static func defaultLabel(for path: String) -> String {
        guard let parsed = try? JSONPath(path), let last = parsed.segments.last else { return path }
        let suffix: String
        switch last {
        case .key(let key): return key
        case .index(let index): suffix = "[\(index)]"
        case .all: suffix = "[*]"
        }
        if case .key(let key)? = parsed.segments.dropLast().last { return key + suffix }
        return suffix
    }

    /// Labels made unique: two fields whose paths end alike (`a.name`, `b.name`) are shown under
    /// their whole paths, unless the config gave them labels.
    public static func disambiguated(_ fields: [DisplayField], explicit: Set<Int>) -> [DisplayField] {
        var counts: [String: Int] = [:]
        for field in fields { counts[field.label, default: 0] += 1 }
        return fields.enumerated().map { index, field in
            guard !explicit.contains(index), counts[field.label, default: 0] > 1 else { return field }
            var whole = field
            whole.label = field.path
            return whole
        }
    }
}

/// The colours a config may name for values (the terminal's eight, and gray).
public enum DisplayColor: String, CaseIterable, Sendable {
    case red, green, yellow, blue, magenta, cyan, white, gray
}
