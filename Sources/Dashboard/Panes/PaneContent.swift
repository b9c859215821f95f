import DashboardConfig
import Foundation
import ResourceEngine
import TerminalUI

/// Parsed JSON paths by their text, so a frame does not parse every pane's paths again.
@MainActor
enum PathCache {
    private static var parsed: [String: JSONPath] = [:]

    static func path(_ text: String) -> JSONPath? {
        if let cached = parsed[text] { return cached }
        guard let path = try? JSONPath(text) else { return nil }
        if parsed.count > 10_000 { parsed.removeAll() }
        parsed[text] = path
        return path
    }
}

/// What a pane shows of its data, for each `show` mode, as widgets and lines.
///
/// Pure: from the content value and the pane's spec. `select` is applied here, at display time,
/// so panes sharing a resource can show different parts of it.
@MainActor
struct PaneContent {
    let spec: PaneSpec
    let content: any Sendable

    /// The value after `select`, or a message saying why select did not fit.
    var selected: Result<JSON, PaneContentError> {
        let value = PaneContent.json(from: content)
        guard let select = spec.select else { return .success(value) }
        guard let path = PathCache.path(select) else { return .failure(PaneContentError(message: "select: invalid path \(select)")) }
        do {
            return .success(try path.evaluate(value))
        } catch {
            return .failure(PaneContentError(message: "select \(error)"))
        }
    }

    struct PaneContentError: Error {
        let message: String
    }

    /// Content as JSON: parsed JSON as is, text as a string, bytes as text when they are UTF-8.
    static func json(from content: any Sendable) -> JSON {
        switch content {
        case let json as JSON: json
        case let text as String: .string(text)
        case let data as Data:
            String(validating: data, as: UTF8.self).map(JSON.string) ?? .string("\(data.count) bytes of binary data")
        default: .string(String(describing: content))
        }
    }

    /// Content as JSON when it is JSON, or text or bytes that parse as JSON; else nil.
    nonisolated static func jsonIfParsed(_ content: any Sendable) -> JSON? {
        switch content {
        case let json as JSON: json
        case let data as Data: try? JSONParser.parse(data)
        case let text as String: try? JSONParser.parse(text)
        default: nil
        }
    }

    /// One-line text for a value: strings bare, null as "—", containers as compact JSON.
    static func inline(_ value: JSON) -> String {
        switch value {
        case .string(let s): s
        case .null: "—"
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): JSON.format(d)
        case .array, .object: (try? value.serialized()).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }

    /// Lines of plain text for the whole value (text and json modes, and collapsed summaries).
    static func textLines(_ value: JSON, pretty: Bool) -> [String] {
        if case .string(let s) = value { return Sanitizer.lines(s) }
        return pretty ? value.prettyPrinted().components(separatedBy: "\n") : [inline(value)]
    }

    /// Renders into `area`, scrolled by `scroll` lines.
    func render(into area: Rect, buffer: inout Buffer, scroll: Int) {
        guard !area.isEmpty else { return }
        let value: JSON
        switch selected {
        case .success(let v): value = v
        case .failure(let error):
            Paragraph(error.message, style: Style().fg(.yellow)).render(into: area, buffer: &buffer)
            return
        }
        switch spec.show {
        case .fields:
            KeyValueList(fieldPairs(value), scroll: scroll).render(into: area, buffer: &buffer)
        case .table:
            let (header, rows) = tableRows(value)
            if header.isEmpty {
                Paragraph("expected a list of objects, got \(value.kindName)", style: Style().fg(.yellow)).render(into: area, buffer: &buffer)
            } else {
                Table(header: header, rows: rows, scroll: scroll).render(into: area, buffer: &buffer)
            }
        case .text:
            Paragraph(PaneContent.textLines(value, pretty: true).joined(separator: "\n"), scroll: scroll).render(into: area, buffer: &buffer)
        case .json:
            let lines = value.stringValue.map { Sanitizer.lines($0) } ?? value.prettyPrinted().components(separatedBy: "\n")
            Paragraph(lines.joined(separator: "\n"), wrap: false, scroll: scroll).render(into: area, buffer: &buffer)
        case .value:
            let text = PaneContent.inline(value)
            let row = Rect(x: area.x, y: area.y + max(0, (area.height - 1) / 2), width: area.width, height: 1)
            Paragraph(text, style: Style().bolded, wrap: false, alignment: .center).render(into: row, buffer: &buffer)
        }
    }

    /// `fields`: the listed paths, or every top-level member.
    func fieldPairs(_ value: JSON) -> [(key: String, value: String)] {
        if let fields = spec.fields {
            return fields.map { path in
                let found = PathCache.path(path).flatMap { $0.lookup(value) }
                return (path, found.map(PaneContent.inline) ?? "—")
            }
        }
        if let object = value.objectValue {
            return object.members.map { ($0.key, PaneContent.inline($0.value)) }
        }
        return [("value", PaneContent.inline(value))]
    }

    /// `table`: the listed columns, or the keys of the first object.
    func tableRows(_ value: JSON) -> (header: [String], rows: [[String]]) {
        guard let items = value.arrayValue else { return ([], []) }
        let columns = spec.columns ?? items.first?.objectValue?.keys ?? []
        let paths = columns.map { PathCache.path($0) }
        let rows = items.map { item in
            paths.map { path in path.flatMap { $0.lookup(item) }.map(PaneContent.inline) ?? "—" }
        }
        return (columns, rows)
    }

    /// How many lines the content takes at `width`, for scroll limits.
    func lineCount(width: Int) -> Int {
        guard case .success(let value) = selected else { return 1 }
        switch spec.show {
        case .fields: return fieldPairs(value).count
        case .table: return tableRows(value).rows.count + 1
        case .text: return Paragraph(PaneContent.textLines(value, pretty: true).joined(separator: "\n")).lines(width: width).count
        case .json: return (value.stringValue.map { Sanitizer.lines($0) } ?? value.prettyPrinted().components(separatedBy: "\n")).count
        case .value: return 1
        }
    }
}
