import Dashboard
import DashboardKeys
import Foundation
import Testing
import TerminalUI

/// One key map drives the handler, the help overlay, the footer and README's Keys table.
@Suite struct KeyMapTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    @Test func readmesKeysTableIsTheStandardKeyMaps() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex(of: "## Keys"))
        let table = lines[(heading + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        #expect(table.joined(separator: "\n") == KeyMap.standard.readmeTable)
    }

    @Test func layersLetAZoomsKeysWinAndTheGridsThrough() {
        let map = KeyMap.standard
        #expect(map.action(for: .ctrl("z"), in: .anywhere) == .suspend)
        #expect(map.action(for: .character("s"), in: KeyContext.zoomTable.layers) == .sortColumn)
        #expect(map.action(for: .character("s"), in: KeyContext.zoom.layers) == .sortFailingFirst)
        #expect(map.action(for: .character("c"), in: KeyContext.zoom.layers) == .showCurl)
    }

    @Test func everyBoundActionIsInTheHelp() {
        let documented = Set(KeyHelpRow.all.flatMap { row in row.actions.map { "\(row.context)·\($0)" } })
        for binding in KeyMap.standard.bindings where binding.context != .help && binding.context != .curl {
            let layer = binding.context == .zoomTable ? KeyContext.zoomTable : binding.context
            #expect(documented.contains("\(layer)·\(binding.action)"), "\(binding.context) \(binding.action)")
        }
    }

    @Test func theStandardHelpReadsAsBefore() {
        let lines = KeyMap.standard.helpLines
        #expect(lines.first == "r             reload the selected pane")
        #expect(lines.contains("←↓↑→ hjkl     move between panes"))
        #expect(lines.contains("Tab ⇧Tab      next / previous pane"))
        #expect(lines.contains("PgDn/Space PgUp  a page down / up"), "longer keys push their text on")
        #expect(lines.contains("123456        views: data, response, request, timing, error, changes"))
        #expect(lines.contains("Zoomed pane") && lines.contains("Event log"))
        #expect(KeyMap.standard.hint(.scrollDown, in: .zoom) == "j/k scroll")
        #expect(KeyMap.standard.hint(.close, in: .zoom) == "q back")
    }

    @Test func readmeNamesEveryActionAConfigMayBindInOrder() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: "The actions: "))
        let end = try #require(text.range(of: ". A key that", range: start.upperBound..<text.endIndex))
        let named = text[start.upperBound..<end.lowerBound].replacingOccurrences(of: "\n", with: " ")
            .components(separatedBy: ", ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }
        #expect(named == KeyAction.configurable.map(\.name))
    }
}
