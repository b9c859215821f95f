import Dispatch
@testable import ResourceEngine
import Synchronization
import Testing

/// The engine's hops to the main actor: in order, and those of one transfer-loop turn together.
@Suite struct MainQueueTests {
    private final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var entries: [String] { lines.withLock { $0 } }
    }

    /// Runs `body` on a thread of the global queue and waits until the main queue has run
    /// everything it submitted.
    private func offTheMainActor(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                body()
                DispatchQueue.main.async { done.resume() }
            }
        }
    }

    @Test func hopsInABatchReachTheMainQueueTogetherWhenItEnds() async {
        let log = Log()
        await offTheMainActor {
            MainQueue.batching {
                MainQueue.async { log.append("first hop") }
                DispatchQueue.main.async { log.append("submitted directly") }
                MainQueue.async { log.append("second hop") }
            }
        }
        #expect(log.entries == ["submitted directly", "first hop", "second hop"])
    }

    @Test func aBatchInsideABatchWaitsForTheOuterOne() async {
        let log = Log()
        await offTheMainActor {
            MainQueue.batching {
                MainQueue.batching { MainQueue.async { log.append("inner hop") } }
                DispatchQueue.main.async { log.append("submitted directly") }
                MainQueue.async { log.append("outer hop") }
            }
        }
        #expect(log.entries == ["submitted directly", "inner hop", "outer hop"])
    }

    @Test func hopsOutsideABatchGoAtOnce() async {
        let log = Log()
        await offTheMainActor {
            MainQueue.async { log.append("hop") }
            DispatchQueue.main.async { log.append("submitted directly") }
        }
        #expect(log.entries == ["hop", "submitted directly"])
    }

    @Test func anotherThreadsHopsDuringABatchGoAtOnce() async {
        let log = Log()
        await offTheMainActor {
            MainQueue.batching {
                MainQueue.async { log.append("batched hop") }
                // This thread waits, so the hop below is made on another one.
                let made = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    MainQueue.async { log.append("other thread's hop") }
                    made.signal()
                }
                made.wait()
            }
        }
        #expect(log.entries == ["other thread's hop", "batched hop"])
    }
}
