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
        // Both threads are threads of their own: a test must not hold one of the few threads
        // of the global queues (they also run every other test's tasks) while it waits.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DetachedThread.start(name: "batching") {
                MainQueue.batching {
                    MainQueue.async { log.append("batched hop") }
                    let made = DispatchSemaphore(value: 0)
                    DetachedThread.start(name: "other") {
                        MainQueue.async { log.append("other thread's hop") }
                        made.signal()
                    }
                    made.wait()
                }
                DispatchQueue.main.async { done.resume() }
            }
        }
        #expect(log.entries == ["other thread's hop", "batched hop"])
    }
}
