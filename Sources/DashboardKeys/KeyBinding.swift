import TerminalUI

/// One key and what it does in one context.
public struct KeyBinding: Hashable, Sendable {
    /// Where the key means this.
    public let context: KeyContext
    /// The key.
    public let key: KeyEvent
    /// What it does there.
    public let action: KeyAction

    /// `key` does `action` in `context`.
    public init(_ context: KeyContext, _ key: KeyEvent, _ action: KeyAction) {
        self.context = context
        self.key = key
        self.action = action
    }
}
