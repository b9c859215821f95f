import TerminalUI

extension KeyMap {
    /// The help overlay's keys: one line per row, "keys  what they do", under a heading per view.
    public var helpLines: [String] {
        let column = helpKeyColumn
        var lines: [String] = []
        var heading: String?
        for (index, row) in KeyHelpRow.all.enumerated() {
            let title = row.context.helpHeading
            if index > 0, title != heading {
                lines.append("")
                if let title { lines.append(title) }
            }
            heading = title
            lines.append(KeyMap.helpLine(label(row.actions, in: row.context), row.help, column: column))
        }
        return lines
    }

    /// "keys      what they do", the text from `column` on (or two spaces after long keys).
    public static func helpLine(_ keys: String, _ text: String, column: Int) -> String {
        keys + String(repeating: " ", count: max(2, column - DisplayWidth.of(keys))) + text
    }

    /// Where the help's text starts, under its keys: after the longest keys (within reason).
    public var helpKeyColumn: Int {
        let widest = KeyHelpRow.all.map { DisplayWidth.of(label($0.actions, in: $0.context)) }.max() ?? 0
        return min(max(widest + 2, 11), 14)
    }

    /// The keys of `actions` in `context` as the help shows them: `r`, `q/Esc/⏎`, `n N`, and
    /// single keys of many actions in columns (`←↓↑→ hjkl`: four actions of two keys each); `–`
    /// when none has a key.
    public func label(_ actions: [KeyAction], in context: KeyContext) -> String {
        let keys = actions.map { self.keys(for: $0, in: context).map(\.screenName) }.filter { !$0.isEmpty }
        guard !keys.isEmpty else { return "–" }
        if keys.count > 3, let count = keys.first?.count, keys.allSatisfy({ $0.count == count && $0.allSatisfy { $0.count == 1 } }) {
            return (0..<count).map { index in keys.map { $0[index] }.joined() }.joined(separator: " ")
        }
        return keys.map { $0.joined(separator: "/") }.joined(separator: " ")
    }

    /// The footer's hint for the row that holds `action` in `context` ("r reload", "j/k scroll"),
    /// with `word` instead of the row's own; nil when the row is not in the footer or has no key.
    public func hint(_ action: KeyAction, in context: KeyContext = .grid, word: String? = nil) -> String? {
        guard let row = KeyHelpRow.row(of: action, in: context), let word = word ?? row.hint else { return nil }
        let primaries = (row.hintActions ?? row.actions).compactMap { primaryKey(for: $0, in: context)?.screenName }
        guard !primaries.isEmpty else { return nil }
        return primaries.joined(separator: row.hintJoin) + " " + word
    }

    /// The first key of `action` in `context` as the screen names it, or nil when it has none.
    public func primaryName(_ action: KeyAction, in context: KeyContext = .grid) -> String? {
        primaryKey(for: action, in: context)?.screenName
    }

    /// README's Keys table, in Markdown.
    public var readmeTable: String {
        var lines = ["| key | where | does |", "| --- | --- | --- |"]
        for row in KeyHelpRow.all {
            let keys = row.actions.map { self.keys(for: $0, in: row.context).map(\.readmeName).joined(separator: "/") }.filter { !$0.isEmpty }
            lines.append("| \(keys.isEmpty ? "–" : keys.joined(separator: ", ")) | \(row.context.readmeName) | \(row.readme) |")
        }
        return lines.joined(separator: "\n")
    }
}

extension KeyContext {
    /// The help's heading over this context's rows; the grid's (and everywhere's) come first, without one.
    var helpHeading: String? {
        switch self {
        case .grid, .anywhere: nil
        case .zoom, .zoomTable: "Zoomed pane"
        case .events: "Event log"
        case .help: "This help"
        case .curl: "The curl command"
        }
    }

    /// README's name for it, in the "where" column.
    var readmeName: String {
        switch self {
        case .grid: "panes"
        case .anywhere: "anywhere"
        case .zoom: "zoomed"
        case .zoomTable: "zoomed table"
        case .events: "event log"
        case .help: "help"
        case .curl: "curl command"
        }
    }
}
