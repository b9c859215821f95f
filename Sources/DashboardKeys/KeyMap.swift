import TerminalUI

/// The dashboard's keys: what each key does in each context. The key handler looks actions up
/// here, and the help overlay, the footer's hints and README's Keys table (kept in step by a
/// test) are written from it (`KeyMap+Help`). `standard` is the map a config starts from;
/// `keys:` in a config and `keys.yaml` replace an action's keys (`KeyMap+Overrides`).
public struct KeyMap: Sendable, Equatable {
    /// Every binding, in the order each context names its keys (the first of an action's keys
    /// is the one the footer shows).
    public private(set) var bindings: [KeyBinding]
    private var table: [KeyContext: [KeyEvent: KeyAction]]
    /// Each action's first key in each context: what the footer names, every frame.
    private var primaries: [KeyContext: [KeyAction: KeyEvent]]

    /// A map of `bindings`; where a key is bound twice in one context the first binding counts.
    public init(_ bindings: [KeyBinding]) {
        self.bindings = bindings
        var table: [KeyContext: [KeyEvent: KeyAction]] = [:]
        var primaries: [KeyContext: [KeyAction: KeyEvent]] = [:]
        for binding in bindings {
            if table[binding.context]?[binding.key] == nil { table[binding.context, default: [:]][binding.key] = binding.action }
            if primaries[binding.context]?[binding.action] == nil { primaries[binding.context, default: [:]][binding.action] = binding.key }
        }
        self.table = table
        self.primaries = primaries
    }

    public static func == (lhs: KeyMap, rhs: KeyMap) -> Bool { lhs.bindings == rhs.bindings }

    /// What `key` does in `context`, or nil.
    public func action(for key: KeyEvent, in context: KeyContext) -> KeyAction? {
        table[context]?[key]
    }

    /// The first action `key` has in `contexts`, tried in order.
    public func action(for key: KeyEvent, in contexts: [KeyContext]) -> KeyAction? {
        for context in contexts {
            if let action = table[context]?[key] { return action }
        }
        return nil
    }

    /// The first of the keys that do `action` in `context`.
    public func primaryKey(for action: KeyAction, in context: KeyContext) -> KeyEvent? {
        primaries[context]?[action]
    }

    /// The keys that do `action` in `context`, in the order they are named.
    public func keys(for action: KeyAction, in context: KeyContext) -> [KeyEvent] {
        bindings.filter { $0.context == context && $0.action == action }.map(\.key)
    }

    /// The contexts in which `action` has a key (or, in the standard map, had one).
    func contexts(of action: KeyAction) -> [KeyContext] {
        KeyContext.allCases.filter { context in bindings.contains { $0.context == context && $0.action == action } }
    }
}
