import TerminalUI

/// One action's keys as a config sets them (`reload: [r, f5]`): they replace the action's keys
/// in every view where it has some.
public struct KeyOverride: Sendable, Equatable {
    /// The action.
    public var action: KeyAction
    /// Its keys, the first shown in the footer; none unbinds it.
    public var keys: [KeyEvent]

    /// `action` gets `keys`.
    public init(_ action: KeyAction, keys: [KeyEvent]) {
        self.action = action
        self.keys = keys
    }
}

/// A key an override gives that cannot mean what it asks for.
public struct KeyConflict: Sendable, Equatable {
    /// Which override (by position in the list given) and which of its keys (nil: the override
    /// as a whole).
    public let override: Int
    public let key: Int?
    /// What is wrong: "j is already down in the grid".
    public let message: String
}

extension KeyMap {
    /// Keys no config may bind: they are the terminal's way out.
    static let reserved: [KeyEvent: String] = [.ctrl("c"): "quits", .ctrl("z"): "suspends"]

    /// This map with `overrides` applied in order (a later override of an action replaces an
    /// earlier one), and every key that would then mean two things where it is pressed.
    public func applying(_ overrides: [KeyOverride]) -> (map: KeyMap, conflicts: [KeyConflict]) {
        var bindings = self.bindings
        // Where each overriding binding came from, for conflicts.
        var origin: [KeyBinding: (override: Int, key: Int)] = [:]
        var conflicts: [KeyConflict] = []
        for (index, override) in overrides.enumerated() {
            for (keyIndex, key) in override.keys.enumerated() {
                if let what = KeyMap.reserved[key] {
                    conflicts.append(KeyConflict(override: index, key: keyIndex, message: "\(key.screenName) always \(what); it cannot be bound"))
                }
            }
            for context in KeyMap.standard.contexts(of: override.action) {
                let at = bindings.firstIndex { $0.context == context && $0.action == override.action }
                    ?? (bindings.lastIndex { $0.context == context }.map { $0 + 1 } ?? bindings.endIndex)
                bindings.removeAll { $0.context == context && $0.action == override.action }
                var added: [KeyBinding] = []
                for (keyIndex, key) in override.keys.enumerated() where KeyMap.reserved[key] == nil {
                    let binding = KeyBinding(context, key, override.action)
                    guard !added.contains(binding) else { continue }
                    added.append(binding)
                    origin[binding] = (index, keyIndex)
                }
                bindings.insert(contentsOf: added, at: min(at, bindings.endIndex))
            }
        }
        let map = KeyMap(bindings)
        var reported = Set<KeyBinding>()
        for binding in bindings {
            guard let from = origin[binding], !reported.contains(binding) else { continue }
            // Two actions on one key in one view.
            if let other = bindings.first(where: { $0.context == binding.context && $0.key == binding.key && $0.action != binding.action }) {
                reported.insert(binding)
                conflicts.append(KeyConflict(
                    override: from.override, key: from.key,
                    message: "\(binding.key.screenName) is already \(other.action.name) \(binding.context.phrase); give \(binding.action.name) another key, or \(other.action.name) one"))
                continue
            }
            // A zoom's key that hides one the grid lets through, where the standard map does not.
            for lower in binding.context.layers.dropFirst() {
                guard let hidden = map.action(for: binding.key, in: lower), hidden != binding.action else { continue }
                if KeyMap.standard.action(for: binding.key, in: binding.context) == binding.action
                    && KeyMap.standard.action(for: binding.key, in: lower) == hidden
                {
                    continue
                }
                reported.insert(binding)
                conflicts.append(KeyConflict(
                    override: from.override, key: from.key,
                    message: "\(binding.key.screenName) is \(hidden.name) \(lower.phrase), which still works \(binding.context.phrase); give \(binding.action.name) another key"))
                break
            }
        }
        // Every view keeps a way out.
        let exits: [(KeyContext, String, [KeyAction])] = [
            (.zoom, "a zoomed pane", [.close]), (.events, "the event log", [.close, .showEvents]), (.help, "the help", [.close, .showHelp]),
            (.curl, "the curl command", [.close, .showCurl]),
        ]
        for (context, view, actions) in exits where !bindings.contains(where: { $0.context == context && actions.contains($0.action) }) {
            guard let last = overrides.lastIndex(where: { actions.contains($0.action) }) else { continue }
            conflicts.append(KeyConflict(
                override: last, key: nil, message: "nothing would close \(view): give \(actions[0].name) a key there"))
        }
        conflicts.sort { ($0.override, $0.key ?? -1) < ($1.override, $1.key ?? -1) }
        return (map, conflicts)
    }
}
