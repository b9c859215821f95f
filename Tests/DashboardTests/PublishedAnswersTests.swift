import Foundation
@testable import MetricsServer
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// The listener's answers are rendered when a request finds them out of date, never for nobody,
/// and at most four times a second however many requests come.
@MainActor
@Suite struct PublishedAnswersTests {
    final class TestClock: Sendable {
        private let nanoseconds = Atomic<UInt64>(1_000_000_000_000)
        var now: UInt64 { nanoseconds.load(ordering: .relaxed) }
        func advance(milliseconds: UInt64) { nanoseconds.add(milliseconds * 1_000_000, ordering: .relaxed) }
    }

    private func metrics(_ answers: PublishedAnswers.Answers) -> String? {
        answers.metrics.map { String(buffer: $0) }
    }

    @Test func renderedOnlyWhenARequestFindsThemOutOfDate() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let clock = TestClock()
        let state = Mutex(0)
        let published = PublishedAnswers(now: { clock.now }) {
            let version = state.withLock { $0 }
            return (Array("state \(version)".utf8), Array("{}".utf8))
        }
        for version in 1...100 {
            state.withLock { $0 = version }
            published.markStale()
        }
        #expect(published.renders.load(ordering: .relaxed) == 0, "a hundred changes and nobody asking: nothing rendered")

        #expect(metrics(try await published.answers(on: loop).get()) == "state 100", "the first request waits for the state as it is")
        for _ in 0..<10 { #expect(metrics(try await published.answers(on: loop).get()) == "state 100") }
        #expect(published.renders.load(ordering: .relaxed) == 1, "no change, no render, however many requests")

        // A change within a quarter second of the last render: that render is the answer.
        state.withLock { $0 = 101 }
        published.markStale()
        clock.advance(milliseconds: 100)
        #expect(metrics(try await published.answers(on: loop).get()) == "state 100")
        clock.advance(milliseconds: 200)
        #expect(metrics(try await published.answers(on: loop).get()) == "state 101", "past it, rendered again")
        #expect(published.renders.load(ordering: .relaxed) == 2)

        // Requests that come together while the answers are out of date share one render.
        state.withLock { $0 = 102 }
        published.markStale()
        clock.advance(milliseconds: 300)
        let waiting = (0..<20).map { _ in published.answers(on: loop) }
        for future in waiting { #expect(metrics(try await future.get()) == "state 102") }
        #expect(published.renders.load(ordering: .relaxed) == 3)

        // Stopped: nothing more is rendered, and a request waiting is answered, not left hanging.
        published.markStale()
        clock.advance(milliseconds: 300)
        let last = published.answers(on: loop)
        published.stop()
        #expect(try await last.get().stopping)
        #expect(published.renders.load(ordering: .relaxed) == 3)
        try await group.shutdownGracefully()
    }
}
