import Dispatch

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
        queue.async { MainActor.assumeIsolated(body) }
    }

    static func asyncAfter(seconds: Double, _ body: @escaping @MainActor @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + seconds) { MainActor.assumeIsolated(body) }
    }
}
