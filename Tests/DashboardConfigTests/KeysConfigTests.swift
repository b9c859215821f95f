import DashboardConfig
import DashboardKeys
import Foundation
import HammockHarness
import TerminalUI
import Testing

/// `keys:` in a config and a user's `keys.yaml`: an action's keys replaced, and every mistake a
/// problem at its line:col.
@Suite struct KeysConfigTests {
    static let panes = """
        service: { baseURL: "https://api.test/" }
        panes:
          - { title: Health, resource: /health }
        """

    private func load(_ keys: String, base: KeyMap = .standard) throws(ConfigErrors) -> KeyMap {
        try ConfigLoader.parse(Self.panes + "\n" + keys, file: "hammock.yaml", environment: [:], keys: base).keyMap
    }

    private func problems(_ keys: String) -> [String] {
        do {
            _ = try load(keys)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func anActionsKeysReplaceItsStandardOnesInEveryView() throws {
        let map = try load("""
            keys:
              reload: [x, f5]
              back: [b, esc]
              scrollDown: ctrl-n
            """)
        #expect(map.action(for: .character("x"), in: .grid) == .reload)
        #expect(map.action(for: .function(5), in: .grid) == .reload)
        #expect(map.action(for: .character("r"), in: .grid) == nil)
        for context in [KeyContext.zoom, .events, .help, .curl] {
            #expect(map.action(for: .character("b"), in: context) == .close, "\(context)")
            #expect(map.action(for: .character("q"), in: context) == nil, "\(context)")
        }
        #expect(map.action(for: .ctrl("n"), in: .zoom) == .scrollDown)
        #expect(map.action(for: .ctrl("n"), in: .events) == .scrollDown)
        #expect(map.action(for: .character("j"), in: .zoom) == nil)
        // Everything the config leaves alone is as standard.
        #expect(map.action(for: .character("t"), in: .grid) == .retry)
        #expect(map.action(for: .character("j"), in: .grid) == .moveDown)
        #expect(map.hint(.reload) == "x reload")
        #expect(map.helpLines.contains("x/F5          reload the selected pane"), "\(map.helpLines)")
        #expect(map.helpLines.contains("Ctrl-N k/↑    scroll down / up"), "\(map.helpLines)")
    }

    @Test func aKeyThatWouldMeanTwoThingsIsAProblemAtItsPlace() {
        #expect(problems("""
            keys:
              reload: [x, j]
              quit: Q
            """) == ["hammock.yaml:5:15: keys.reload: j is already down in the grid; give reload another key, or down one"])
        // Two actions given one key: both are told.
        #expect(problems("""
            keys:
              reload: x
              retry: x
            """) == [
                "hammock.yaml:5:11: keys.reload: x is already retry in the grid; give reload another key, or retry one",
                "hammock.yaml:6:10: keys.retry: x is already reload in the grid; give retry another key, or reload one",
            ])
        // A zoom's key that would hide one the grid lets through while zoomed (c: the curl command).
        #expect(problems("""
            keys:
              search: c
            """) == ["hammock.yaml:5:11: keys.search: c is curl in the grid, which still works while zoomed; give search another key"])
        // The same shadowing as the standard map has is no conflict: j scrolls a zoom, moves on the grid.
        #expect(problems("keys:\n  scrollDown: [j, down]\n  down: [j, down]") == [])
    }

    @Test func unknownActionsKeysAndReservedKeysAreProblems() {
        #expect(problems("""
            keys:
              relaod: x
              zoom: ctl-z
              quit: ctrl-c
              help: ctrl-m
              pause:
              events: { key: e }
            """) == [
                "hammock.yaml:5:3: unknown action \"relaod\" under keys (did you mean \"reload\"?) (actions: \(KeyAction.configurable.map(\.name).joined(separator: ", ")))",
                "hammock.yaml:6:9: keys.zoom: unknown key \"ctl-z\" (\(KeyEvent.namesHelp))",
                "hammock.yaml:7:9: keys.quit: Ctrl-C always quits; it cannot be bound",
                "hammock.yaml:8:9: keys.help: ctrl-m reaches Hammock as Enter; write enter",
                "hammock.yaml:9:9: keys.pause needs a key or a list of keys ([] leaves pause without one)",
                "hammock.yaml:10:11: keys.events must be a key or a list of keys, not a mapping",
            ])
    }

    @Test func everyViewKeepsAWayOut() throws {
        #expect(problems("keys:\n  back: []") == [
            "hammock.yaml:5:9: keys.back: nothing would close a zoomed pane: give back a key there"
        ])
        // The help still closes with its own key, the event log with e: only the zoom lacks one.
        #expect(problems("keys:\n  back: []\n  help: []").count == 2)
        // Unbinding an action is allowed where a view keeps a way out.
        let map = try load("keys:\n  editConfig: []")
        #expect(map.keys(for: .editConfig, in: .grid).isEmpty)
        #expect(map.hint(.editConfig) == nil)
        #expect(map.helpLines.contains { $0.hasPrefix("–") && $0.contains("edit the config") })
    }

    @Test func keysYamlComesUnderTheConfigsKeysAndItsProblemsNameItsFile() throws {
        let directory = URL(fileURLWithPath: ScratchDirectory.path("keys"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let hammock = directory.appendingPathComponent("hammock").path
        try FileManager.default.createDirectory(atPath: hammock, withIntermediateDirectories: true)
        let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": "/nonexistent"]
        let keysFile = try #require(ConfigLoader.personalKeysPath(environment: environment))
        #expect(keysFile == hammock + "/keys.yaml")
        #expect(ConfigLoader.personalKeysPath(environment: ["HOME": "/home/me"]) == "/home/me/.config/hammock/keys.yaml")
        let config = directory.appendingPathComponent("hammock.yaml").path
        try (Self.panes + "\nkeys:\n  reload: F5\n").write(toFile: config, atomically: true, encoding: .utf8)

        // No keys.yaml: the standard map under the config's keys.
        var spec = try ConfigLoader.load(path: config, environment: environment, keysFile: keysFile)
        #expect(spec.keyMap.action(for: .function(5), in: .grid) == .reload)
        #expect(spec.keyMap.action(for: .character("r"), in: .grid) == nil)

        try "reload: x\nretry: T\n".write(toFile: keysFile, atomically: true, encoding: .utf8)
        spec = try ConfigLoader.load(path: config, environment: environment, keysFile: keysFile)
        #expect(spec.keyMap.action(for: .character("T"), in: .grid) == .retry)
        #expect(spec.keyMap.action(for: .function(5), in: .grid) == .reload, "the config's keys win")
        #expect(spec.keyMap.action(for: .character("x"), in: .grid) == nil)
        // The headless commands read no keys.yaml.
        #expect(try ConfigLoader.load(path: config, environment: environment).keyMap.action(for: .character("t"), in: .grid) == .retry)

        try "retry: k\n".write(toFile: keysFile, atomically: true, encoding: .utf8)
        #expect(throws: ConfigErrors.self) { try ConfigLoader.load(path: config, environment: environment, keysFile: keysFile) }
        do {
            _ = try ConfigLoader.load(path: config, environment: environment, keysFile: keysFile)
        } catch {
            #expect(error.problems.map(\.description) == [
                "\(keysFile):1:8: keys.retry: k is already up in the grid; give retry another key, or up one"
            ])
        }
    }

    @Test func standardKeysHaveNoConflicts() {
        let (map, conflicts) = KeyMap.standard.applying([])
        #expect(conflicts.isEmpty)
        #expect(map == .standard)
        for context in KeyContext.allCases {
            var seen: [KeyEvent: KeyAction] = [:]
            for binding in KeyMap.standard.bindings where binding.context == context {
                #expect(seen[binding.key] == nil, "\(binding.key) in \(context)")
                seen[binding.key] = binding.action
            }
        }
        // Every action a config may name has a key somewhere, and a name that reads back.
        for action in KeyAction.configurable {
            #expect(KeyAction(name: action.name) == action)
            #expect(KeyContext.allCases.contains { !KeyMap.standard.keys(for: action, in: $0).isEmpty }, "\(action)")
        }
    }

    @Test func keyNamesReadAsTheyAreWritten() throws {
        let cases: [(String, KeyEvent)] = [
            ("r", .character("r")), ("R", .character("R")), ("ctrl-r", .ctrl("r")), ("C-r", .ctrl("r")), ("^R", .ctrl("r")),
            ("F5", .function(5)), ("PgDn", .pageDown), ("shift-tab", .backTab), ("space", .character(" ")), ("Esc", .escape),
            ("é", .character("é")), ("1", .character("1")),
        ]
        for (text, key) in cases { #expect(try KeyEvent.named(text).get() == key, "\(text)") }
        for text in ["f13", "ctrl-1", "ctrl-", "\u{7}", "shift-x"] {
            #expect((try? KeyEvent.named(text).get()) == nil, "\(text)")
        }
    }
}
