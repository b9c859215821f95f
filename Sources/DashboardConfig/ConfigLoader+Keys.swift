import DashboardKeys
import FoundationEssentials
import ResourceEngine
import TerminalUI

extension ConfigLoader {
    /// Where a user keeps keys for every dashboard: `$XDG_CONFIG_HOME/hammock/keys.yaml`, else
    /// `~/.config/hammock/keys.yaml`; nil without either variable.
    public static func personalKeysPath(environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/hammock/keys.yaml" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/hammock/keys.yaml" }
        return nil
    }

    /// The keys in a `keys.yaml` (the same mapping as a config's `keys:`) over the standard map;
    /// a file that is not there is the standard map.
    public static func loadKeys(path: String, environment: [String: String]) throws(ConfigErrors) -> KeyMap {
        guard FileManager.default.fileExists(atPath: path) else { return .standard }
        let data: Data
        switch read(path, limit: 1 << 20, what: "keys file") {
        case .success(let contents): data = contents
        case .failure(let reason): throw ConfigErrors([ConfigProblem(file: path, line: 1, column: 1, message: reason.message)])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigErrors([ConfigProblem(file: path, line: 1, column: 1, message: "the file is not UTF-8 text")])
        }
        return try parseKeys(text, file: path, environment: environment)
    }

    /// Validates a keys file's text; `file` is used in messages.
    public static func parseKeys(_ text: String, file: String, environment: [String: String] = [:]) throws(ConfigErrors) -> KeyMap {
        let keyProblems = YAMLGuard.keyProblems(in: text)
        guard keyProblems.isEmpty else {
            throw ConfigErrors(keyProblems.map { ConfigProblem(file: file, line: $0.line, column: $0.column, message: $0.message) })
        }
        let root: YAMLNode?
        do { root = try YAMLDocument.compose(text) } catch { throw ConfigErrors([syntaxProblem(error, file: file)]) }
        guard let root, !(root.isNull && root.scalar?.style == .plain) else { return .standard }
        guard YAMLGuard.fits(root, limit: text.utf8.count + YAMLGuard.allowance) else {
            throw ConfigErrors([ConfigProblem(file: file, line: 1, column: 1, message: "the file expands to too many values through its anchors and aliases")])
        }
        var reader = NodeReader(file: file, environment: environment)
        let map = readKeys(root, base: .standard, reader: &reader)
        guard reader.problems.isEmpty else { throw ConfigErrors(reader.problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) }) }
        return map
    }

    /// `keys: { reload: [r, f5], back: esc }`: each action's keys replace its keys in `base`;
    /// an unknown action or key name, a reserved key and a key that would mean two things where
    /// it is pressed are problems at their line:col.
    static func readKeys(_ node: YAMLNode, base: KeyMap, reader: inout NodeReader) -> KeyMap {
        guard let entries = reader.mapping(node, "keys") else { return base }
        let names = KeyAction.configurable.map(\.name)
        var overrides: [KeyOverride] = []
        var nodes: [(entry: YAMLNode, keys: [YAMLNode])] = []
        for entry in entries {
            guard let action = KeyAction(name: entry.key) else {
                reader.problem(at: entry.keyNode, "unknown action \"\(entry.key)\" under keys" + Suggestions.hint(for: entry.key, in: names) + " (actions: \(names.joined(separator: ", ")))")
                continue
            }
            let items: [YAMLNode]
            switch entry.value {
            case .sequence(let sequence): items = Array(sequence)
            case .scalar where entry.value.isNull && entry.value.scalar?.style == .plain:
                reader.problem(at: entry.value, "keys.\(entry.key) needs a key or a list of keys ([] leaves \(entry.key) without one)")
                continue
            case .scalar: items = [entry.value]
            default:
                reader.problem(at: entry.value, "keys.\(entry.key) must be a key or a list of keys, not \(reader.describe(entry.value))")
                continue
            }
            var keys: [KeyEvent] = []
            var keyNodes: [YAMLNode] = []
            for item in items {
                guard let text = reader.string(item, "keys.\(entry.key)") else { continue }
                switch KeyEvent.named(text) {
                case .success(let key):
                    keys.append(key)
                    keyNodes.append(item)
                case .failure(let problem): reader.problem(at: item, "keys.\(entry.key): \(problem.message)")
                }
            }
            overrides.append(KeyOverride(action, keys: keys))
            nodes.append((entry.value, keyNodes))
        }
        let (map, conflicts) = base.applying(overrides)
        for conflict in conflicts {
            let where_ = nodes[conflict.override]
            reader.problem(at: conflict.key.map { where_.keys[$0] } ?? where_.entry, "keys.\(overrides[conflict.override].action.name): \(conflict.message)")
        }
        return map
    }
}
