import Dispatch
import Glibc

/// Hops onto the main actor through the main dispatch queue.
///
/// On Linux the main actor's executor is the main dispatch queue, so blocks submitted here run on
/// the main actor in submission order. The engine relies on that FIFO order: a request's completion
/// hooks must run in the order they were registered.
enum MainQueue {
    /// Kept: on Linux `DispatchQueue.main` allocates a new wrapper on every use, and the engine
    /// hops here several times per request.
    private static let queue = DispatchQueue.main

    static func async(_ body: @escaping @MainActor @Sendable () -> Void) {
        if let batch = Batch.current {
            batch.blocks.append(body)
            return
        }
        queue.async { MainActor.assumeIsolated(body) }
    }

    static func asyncAfter(seconds: Double, _ body: @escaping @MainActor @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + seconds) { MainActor.assumeIsolated(body) }
    }

    /// Runs `body`, and submits the hops this thread makes meanwhile as one block, in their
    /// order, when it returns: the transfer thread's completions of one turn then wake the main
    /// actor once, not once each. To every other thread they look made at the end of `body`.
    static func batching<T>(_ body: () -> T) -> T {
        guard Batch.current == nil else { return body() }
        let batch = Batch()
        pthread_setspecific(Batch.key, Unmanaged.passUnretained(batch).toOpaque())
        defer {
            pthread_setspecific(Batch.key, nil)
            let blocks = batch.blocks
            if !blocks.isEmpty { queue.async { MainActor.assumeIsolated { for block in blocks { block() } } } }
        }
        return body()
    }

    /// The hops one thread collects inside `batching`; only that thread touches it.
    private final class Batch: @unchecked Sendable {
        var blocks: [@MainActor @Sendable () -> Void] = []

        static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key, nil)
            return key
        }()

        static var current: Batch? {
            pthread_getspecific(key).map { Unmanaged<Batch>.fromOpaque($0).takeUnretainedValue() }
        }
    }
}
