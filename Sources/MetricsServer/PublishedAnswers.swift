import Dispatch
import NIOCore
import Synchronization

/// The bodies the listener serves, shared between the main actor (which renders them) and the
/// listener's thread (which writes them).
///
/// Rendered only when a request finds them out of date — a dashboard nobody asks costs nothing —
/// and at most once per `renderInterval` while requests keep coming: a request within it of the
/// last render gets that one, however many changes came since. Requests that need a render wait
/// for the one in flight; the main actor renders once for all of them.
final class PublishedAnswers: Sendable {
    /// Bodies as buffers every answer shares (an answer writes a reference, not a copy); nil
    /// while the dashboard is not there yet.
    struct Answers: Sendable {
        var metrics: ByteBuffer?
        var panes: ByteBuffer?
        /// Hammock is stopping: nothing more is rendered.
        var stopping = false
    }

    private struct State {
        var answers = Answers()
        /// Answers were rendered at least once.
        var rendered = false
        /// The dashboard changed since the last render began.
        var stale = true
        /// When the last render ended, in uptime nanoseconds.
        var lastRender: UInt64 = 0
        /// A render is on its way to the main actor.
        var rendering = false
        var waiting: [EventLoopPromise<Answers>] = []
        var stopped = false
    }

    /// The least time between two renders, in nanoseconds.
    static let renderInterval: UInt64 = 250_000_000

    private let state = Mutex(State())
    private let render: @MainActor @Sendable () -> (metrics: [UInt8], panes: [UInt8])?
    /// Uptime in nanoseconds.
    private let now: @Sendable () -> UInt64
    /// Renders so far.
    let renders = Atomic<Int>(0)

    init(
        now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
        render: @escaping @MainActor @Sendable () -> (metrics: [UInt8], panes: [UInt8])?
    ) {
        self.now = now
        self.render = render
    }

    /// The dashboard changed: the next request renders again.
    func markStale() {
        state.withLock { $0.stale = true }
    }

    /// The answers for a request on `loop`: those published while they are current or younger
    /// than `renderInterval`, else the ones the main actor renders next.
    func answers(on loop: any EventLoop) -> EventLoopFuture<Answers> {
        let now = now()
        let (current, promise, startRender) = state.withLock { state -> (Answers?, EventLoopPromise<Answers>?, Bool) in
            if state.stopped { return (Answers(stopping: true), nil, false) }
            if state.rendered, !state.stale || now &- state.lastRender < Self.renderInterval { return (state.answers, nil, false) }
            let promise = loop.makePromise(of: Answers.self)
            state.waiting.append(promise)
            defer { state.rendering = true }
            return (nil, promise, !state.rendering)
        }
        if let promise {
            if startRender {
                DispatchQueue.main.async { @Sendable in MainActor.assumeIsolated { self.renderNow() } }
            }
            return promise.futureResult
        }
        return loop.makeSucceededFuture(current ?? Answers())
    }

    @MainActor
    private func renderNow() {
        // A change from here on is after this render began: it makes the answers stale again.
        let stopped = state.withLock { state -> Bool in
            state.stale = false
            return state.stopped
        }
        guard !stopped else { return }
        renders.add(1, ordering: .relaxed)
        let bodies = render()
        let allocator = ByteBufferAllocator()
        let answers = Answers(metrics: bodies.map { allocator.buffer(bytes: $0.metrics) }, panes: bodies.map { allocator.buffer(bytes: $0.panes) })
        let now = now()
        let waiting = state.withLock { state -> [EventLoopPromise<Answers>] in
            state.answers = answers
            state.rendered = true
            state.lastRender = now
            state.rendering = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for promise in waiting { promise.succeed(answers) }
    }

    /// No more renders: requests still waiting are answered as if the dashboard were not there.
    func stop() {
        let waiting = state.withLock { state -> [EventLoopPromise<Answers>] in
            state.stopped = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for promise in waiting { promise.succeed(Answers(stopping: true)) }
    }
}
