import Dashboard
import Foundation
import Testing
import TerminalUI

/// One key map drives the handler, the help overlay, the footer and README's Keys table.
@Suite struct KeyMapTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    @Test func readmesKeysTableIsTheKeyMaps() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex(of: "## Keys"))
        let table = lines[(heading + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        #expect(table.joined(separator: "\n") == KeyMap.readmeTable)
    }

    @Test func noKeyMeansTwoThingsInOneContext() {
        for context in KeyContext.allCases {
            var seen: [KeyEvent: KeyAction] = [:]
            for binding in KeyMap.bindings where binding.context == context {
                for (key, action) in binding.keys {
                    #expect(seen[key] == nil || seen[key] == action, "\(key) in \(context): \(seen[key].map { "\($0)" } ?? "") and \(action)")
                    seen[key] = action
                }
            }
        }
    }

    @Test func everyDocumentedRowBindsAKeyOrSaysWhereItIsHandled() {
        // Ctrl-Z's README row documents the `.anywhere` binding.
        for binding in KeyMap.bindings where binding.keys.isEmpty {
            #expect(binding.readme?.keys == "Ctrl-Z")
        }
        #expect(KeyMap.action(for: .ctrl("z"), in: .anywhere) == .suspend)
        #expect(KeyMap.action(for: .character("s"), in: [.zoomTable, .zoom, .grid]) == .sortColumn)
        #expect(KeyMap.action(for: .character("s"), in: [.zoom, .grid]) == .sortFailingFirst)
    }
}
