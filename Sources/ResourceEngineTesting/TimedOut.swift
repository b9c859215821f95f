import Dispatch
import ResourceEngine

/// Thrown when something a test awaited did not happen within its time limit.
///
/// Every wait in the test suites is bounded, so a broken hook fails one test instead of hanging CI.
public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public let seconds: Double
    public var description: String { "timed out after \(seconds) s waiting for \(what)" }
}

/// The default limit for awaited test events: generous, only ever reached by a bug. Main-actor
/// tests share the main queue with hundreds of others running at once, so an await's wall time
/// says nothing about its test: beside a CPU hog one await took over 10 s (and a passing test
/// 15 s) while a 200-pane test held the queue. A hang still fails its test, a minute later.
public let defaultTestTimeout: Double = 60

/// Registers a callback and awaits its first call, failing with `TimedOut` after `timeout` seconds.
@MainActor
public func awaitCallback<T: Sendable>(
    _ what: String, timeout: Double = defaultTestTimeout,
    register: (@escaping @MainActor (T) -> Void) -> Void
) async throws -> T {
    let once = Once()
    return try await withCheckedThrowingContinuation { continuation in
        let guardTimer = DispatchWorkItem { @Sendable in
            MainActor.assumeIsolated {
                if once.claim() { continuation.resume(throwing: TimedOut(what: what, seconds: timeout)) }
            }
        }
        register { value in
            // The guard is cancelled at once, so long runs do not pile up pending timers.
            guardTimer.cancel()
            if once.claim() { continuation.resume(returning: value) }
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + timeout, execute: guardTimer)
    }
}

@MainActor
private final class Once {
    private var claimed = false
    func claim() -> Bool {
        defer { claimed = true }
        return !claimed
    }
}

extension Request {
    /// The outcome, failing with `TimedOut` if the request does not complete in time.
    @MainActor
    public func awaitResult(timeout: Double = defaultTestTimeout) async throws -> Response {
        try await awaitResponseInfo(timeout: timeout).response
    }

    /// The outcome with `isNew`, failing with `TimedOut` if the request does not complete in time.
    @MainActor
    public func awaitResponseInfo(timeout: Double = defaultTestTimeout) async throws -> ResponseInfo {
        try await awaitCallback("completion of \(requestDescription)", timeout: timeout) { done in
            onCompletion(done)
        }
    }
}

/// Lets every block already queued on the main queue run, then returns.
///
/// Use after an action whose effects are delivered asynchronously on the main queue (hooks of a
/// completed request, `requestCancelled` after `wipe()`): everything queued before it has run.
@MainActor
public func drainMainQueue(turns: Int = 1) async throws {
    for _ in 0..<turns {
        let _: Void = try await awaitCallback("a main queue turn") { done in
            DispatchQueue.main.async { MainActor.assumeIsolated { done(()) } }
        }
    }
}

/// Waits until `condition` holds, looking every 10 ms on the main queue (for what another
/// process does: a file it writes, a request it sends), failing with `TimedOut` after `timeout`.
@MainActor
public func waitUntil(_ what: String, timeout: Double = defaultTestTimeout, _ condition: @escaping @MainActor () -> Bool) async throws {
    if condition() { return }
    let timer = DispatchSource.makeTimerSource(queue: .main)
    defer { timer.cancel() }
    let _: Void = try await awaitCallback(what, timeout: timeout) { done in
        timer.setEventHandler { MainActor.assumeIsolated { if condition() { done(()) } } }
        timer.schedule(deadline: .now() + 0.01, repeating: 0.01)
        timer.resume()
    }
}
