import Synchronization

/// A redactor that can be replaced while others use it (the log handler, across config reloads).
public final class SharedRedactor: Sendable {
    private let current: Mutex<Redactor>

    public init(_ redactor: Redactor = .none) {
        current = Mutex(redactor)
    }

    public var redactor: Redactor {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    public func redact(_ text: String) -> String { redactor.redact(text) }
}
