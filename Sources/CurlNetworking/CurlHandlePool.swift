import CCurl
import Synchronization

/// libcurl easy handles kept between transfers, so a probe does not pay for a new handle (its
/// allocation, its 16 KiB receive buffer and the heap consolidation such requests set off).
///
/// A handle comes back through `curl_easy_reset`, which puts every option back to its default:
/// URL, method, body, headers, credentials, TLS settings, callbacks and their context pointers.
/// What reset keeps is either matched by libcurl before use (TLS sessions, against the TLS
/// settings and the host) or never set on a pooled handle: a transfer with a cookie jar gives its
/// handle back for cleanup, never for reuse (reset keeps a handle's cookie engine, which would carry
/// one service's cookies to the next request on the handle).
final class CurlHandlePool: Sendable {
    /// An idle handle: used by one thread at a time, and by none while it is here.
    private struct Idle: @unchecked Sendable {
        let easy: UnsafeMutableRawPointer
    }

    private let idle = Mutex<[Idle]>([])
    private let made = Atomic<Int>(0)
    /// Idle handles kept at most; more are cleaned up.
    let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = max(0, capacity)
    }

    deinit {
        for handle in idle.withLock({ $0 }) { curl_easy_cleanup(handle.easy) }
    }

    /// An idle handle, or a new one; nil when libcurl cannot make one.
    func take() -> UnsafeMutableRawPointer? {
        if let handle = idle.withLock({ $0.popLast() }) { return handle.easy }
        guard let easy = curl_easy_init() else { return nil }
        made.add(1, ordering: .relaxed)
        return easy
    }

    /// Takes back a handle that is in no multi handle and no transfer will touch again: reset and
    /// kept when `reusable` and there is room, cleaned up otherwise.
    func giveBack(_ easy: UnsafeMutableRawPointer, reusable: Bool) {
        guard reusable else {
            curl_easy_cleanup(easy)
            return
        }
        curl_easy_reset(easy)
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < capacity else { return false }
            idle.append(Idle(easy: easy))
            return true
        }
        if !kept { curl_easy_cleanup(easy) }
    }

    /// Handles made so far (reused ones not counted again), for tests and the benchmark.
    var handlesMade: Int { made.load(ordering: .relaxed) }

    /// Handles idle now.
    var idleCount: Int { idle.withLock { $0.count } }
}
