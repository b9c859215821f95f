import Dispatch
import Synchronization

/// What the services had to say while running (a token file read empty mid-write, a cookie
/// dropped), for the status line: the monitor sets the handler, which is called on the main
/// queue.
public final class LiveReports: Sendable {
    private let handler = Mutex<(@MainActor @Sendable (String) -> Void)?>(nil)

    public init() {}

    /// Where reports go from now on.
    public func onReport(_ handle: (@MainActor @Sendable (String) -> Void)?) {
        handler.withLock { $0 = handle }
    }

    /// Hands `message` to the handler, on the main queue (never inside the caller's work).
    public func post(_ message: String) {
        guard let handle = handler.withLock({ $0 }) else { return }
        DispatchQueue.main.async { MainActor.assumeIsolated { handle(message) } }
    }
}
