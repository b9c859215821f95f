import ResourceEngine

/// An observer that writes down everything it is told, for assertions on event sequences.
///
/// Events are recorded by Siesta's names (`newData(network)`) so tests read like the reference.
@MainActor
public final class RecordingObserver: ResourceObserver {
    /// Every event received, as `ResourceEvent.description`, in order.
    public private(set) var events: [String] = []
    /// The resource each event came from, parallel to `events`.
    public private(set) var sources: [Resource] = []
    /// Progress values received.
    public private(set) var progress: [Double] = []
    /// How many times `stoppedObserving` was called.
    public private(set) var stoppedCount = 0
    /// Called after each event is recorded; lets a test inspect state at that moment.
    public var onEvent: (@MainActor (Resource, ResourceEvent) -> Void)?

    private var waiters: [(count: Int, resume: @MainActor () -> Void)] = []

    public init() {}

    public func resourceChanged(_ resource: Resource, event: ResourceEvent) {
        events.append(event.description)
        sources.append(resource)
        onEvent?(resource, event)
        let ready = waiters.filter { events.count >= $0.count }
        waiters.removeAll { events.count >= $0.count }
        for waiter in ready { waiter.resume() }
    }

    public func resourceRequestProgress(for resource: Resource, progress: Double) {
        self.progress.append(progress)
    }

    public func stoppedObserving(resource: Resource) {
        stoppedCount += 1
    }

    /// Forgets what was recorded so far.
    public func reset() {
        events = []
        sources = []
        progress = []
    }

    /// Waits until at least `count` events have been recorded in total.
    public func waitForEvents(count: Int, timeout: Double = defaultTestTimeout) async throws {
        if events.count >= count { return }
        let _: Void = try await awaitCallback("\(count) events (have \(events))", timeout: timeout) { done in
            waiters.append((count, { done(()) }))
        }
    }
}
