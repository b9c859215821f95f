import Synchronization

/// A value delivered once to whoever waits for it: the first `finish` wins, later ones are
/// ignored, and `wait` returns at once if the value is already there.
///
/// Used where a start-up has several possible endings (listening or failed; ready, exited or out
/// of time) and the first one decides.
public final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiter: CheckedContinuation<Value, Never>?
    }

    private let state = Mutex(State())

    public init() {}

    /// Delivers `value` unless one was delivered already.
    public func finish(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    /// The delivered value, as soon as there is one. One waiter at a time.
    public func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
