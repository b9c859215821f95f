import DashboardConfig
import FoundationEssentials
import ResourceEngine

/// What a pane's content says once its spec's `select` and `show` are applied: the value it
/// shows, and why it cannot be shown as the pane says (a failing verdict) or meets a warn
/// threshold. Pure: the probe judges with it, the screen draws from it, `snapshot` reports its
/// value.
@MainActor
public final class ContentCheck {
    /// The shape it was made for.
    public let shape: PaneContentShape
    /// The content, redacted.
    public let content: any Sendable
    /// The value after `select`, or a message saying why select did not fit.
    public let selected: Result<JSON, SelectionError>

    /// Why `select` found nothing to show.
    public struct SelectionError: Error, Sendable {
        public let message: String
    }

    /// Applies `shape` to `content` (already redacted).
    public init(shape: PaneContentShape, content: any Sendable) {
        self.shape = shape
        self.content = content
        selected = ContentCheck.select(shape.select, in: ContentCheck.json(from: content))
    }

    private static func select(_ select: String?, in value: JSON) -> Result<JSON, SelectionError> {
        guard let select else { return .success(value) }
        guard let path = PathCache.path(select) else { return .failure(SelectionError(message: "select: invalid path \(select)")) }
        do {
            return .success(try path.evaluate(value))
        } catch {
            return .failure(SelectionError(message: "select \(error)"))
        }
    }

    /// Why the value cannot be shown as the pane says, or nil: the `select` failed, a table's
    /// value is not a list of objects, or none of the listed fields or columns is there at all (a
    /// path that is sometimes absent shows "—"; one that never is means the path is wrong).
    public private(set) lazy var problem: String? = {
        let value: JSON
        switch selected {
        case .failure(let error): return error.message
        case .success(let selected): value = selected
        }
        switch shape.show {
        case .table:
            guard let items = value.arrayValue else { return "table: expected a list of objects, got \(value.kindName)" }
            guard let first = items.first else { return nil }
            guard let columns = shape.columns else {
                // A list of strings or numbers is one column; a list of lists is not a table.
                return first.arrayValue != nil ? "table: expected a list of objects or of values, got a list of lists" : nil
            }
            let paths = columns.compactMap { PathCache.path($0.path) }
            let found = items.contains { item in paths.contains { $0.lookup(item) != nil } }
            return found ? nil : "columns: none of \(columns.map(\.path).joined(separator: ", ")) is in the list's items"
        case .fields:
            guard let fields = shape.fields, !fields.isEmpty else { return nil }
            let found = fields.contains { PathCache.path($0.path)?.lookup(value) != nil }
            return found ? nil : "fields: none of \(fields.map(\.path).joined(separator: ", ")) is in the \(value.kindName)"
        case .value:
            guard let thresholds = shape.thresholds, thresholds.level(of: value) == .fail, let fail = thresholds.fail else { return nil }
            return "\(ContentCheck.inline(value)) meets the fail threshold \(Thresholds.written(fail))"
        case .text, .json:
            return nil
        }
    }()

    /// "0.85 meets the warn threshold > 0.8" when a value pane's value meets `thresholds.warn`
    /// (and not `fail`), else nil.
    public var warning: String? {
        guard shape.show == .value, let thresholds = shape.thresholds, let warn = thresholds.warn,
            case .success(let value) = selected, thresholds.level(of: value) == .warn
        else { return nil }
        return "\(ContentCheck.inline(value)) meets the warn threshold \(Thresholds.written(warn))"
    }

    /// Content as JSON: parsed JSON as is, text as a string, bytes as text when they are UTF-8.
    public static func json(from content: any Sendable) -> JSON {
        switch content {
        case let json as JSON: json
        case let text as String: .string(text)
        case let data as Data:
            String(validating: data, as: UTF8.self).map(JSON.string) ?? .string("\(data.count) bytes of binary data")
        default: .string(String(describing: content))
        }
    }

    /// One-line text for a value, at most `PaneContentLimits.value` characters: strings bare,
    /// null as "—", containers as compact JSON.
    public static func inline(_ value: JSON) -> String {
        switch value {
        case .string(let s): s.bounded(to: PaneContentLimits.value)
        case .null: "—"
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): JSON.format(d)
        case .bigInteger(let digits): digits.bounded(to: PaneContentLimits.value)
        case .array, .object:
            ((try? value.serialized()).map { String(decoding: $0, as: UTF8.self) } ?? "").bounded(to: PaneContentLimits.value)
        }
    }
}

extension String {
    /// The text cut to `limit` characters, saying how much was left out.
    public func bounded(to limit: Int) -> String {
        guard utf8.count > limit, count > limit else { return self }
        return prefix(limit) + "… (\(count - limit) more characters)"
    }
}
