import Synchronization

/// The completion of one transfer, called at most once: by the transfer loop, or by `cancel()`
/// on the main actor, whichever comes first.
///
/// The closure is dropped as it is called: it captures the engine's request, which holds the
/// transfer's handle, which holds this gate, and keeping it would keep every request alive.
final class CompletionGate: Sendable {
    typealias Completion = @Sendable (NetworkResult) -> Void
    private let completion: Mutex<Completion?>

    init(_ completion: @escaping Completion) {
        self.completion = Mutex(completion)
    }

    var isComplete: Bool { completion.withLock { $0 == nil } }

    func complete(_ result: NetworkResult) {
        let claimed = completion.withLock { completion -> Completion? in
            defer { completion = nil }
            return completion
        }
        claimed?(result)
    }
}
