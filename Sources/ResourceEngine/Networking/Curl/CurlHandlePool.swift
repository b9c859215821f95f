import CCurl
import Synchronization

/// libcurl easy handles kept between plain GETs, so a probe does not pay for a new handle and
/// its options every time (at 50 endpoints a second, a fifth of libcurl's work per probe).
///
/// A handle is not reset between transfers: the options that stay the same for every transfer
/// (protocols, callbacks, decoding, trust and identity) stay set, and each transfer sets all of
/// the options that vary (URL, method, headers, time limit, context pointers). What makes that
/// safe is which handles come back and for what:
/// - only a handle whose every hop was a GET without a body, without credentials and without a
///   cookie jar is kept; any other handle is cleaned up when its transfer ends, so no method,
///   body, digest state or cookie engine ever reaches a later request;
/// - a kept handle serves only requests with the same TLS settings (`TLSOptions`: trust, client
///   certificate, verification), which are set once when the handle is made.
final class CurlHandlePool: Sendable {
    /// Idle handles by the TLS settings they were made with. A handle is used by one thread at a
    /// time, and by none while it is here.
    private struct Idle: @unchecked Sendable {
        /// For the default settings (nearly every request): no hashing of the settings.
        var plain: [UnsafeMutableRawPointer] = []
        var handles: [TLSOptions: [UnsafeMutableRawPointer]] = [:]
        var count = 0

        mutating func pop(_ tls: TLSOptions) -> UnsafeMutableRawPointer? {
            let easy = tls == TLSOptions() ? plain.popLast() : handles[tls]?.popLast()
            if easy != nil { count -= 1 }
            return easy
        }

        mutating func push(_ easy: UnsafeMutableRawPointer, _ tls: TLSOptions) {
            if tls == TLSOptions() { plain.append(easy) } else { handles[tls, default: []].append(easy) }
            count += 1
        }
    }

    private let idle = Mutex(Idle())
    private let made = Atomic<Int>(0)
    /// Idle handles kept at most; more are cleaned up. The pool never holds more than the most
    /// transfers that were running at once.
    let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(0, capacity)
    }

    deinit {
        let idle = idle.withLock { $0 }
        for easy in idle.plain + idle.handles.values.joined() { curl_easy_cleanup(easy) }
    }

    /// An idle handle made for `tls` (`reused` true: its fixed options are set), or a new one;
    /// nil when libcurl cannot make one.
    func take(for tls: TLSOptions) -> (easy: UnsafeMutableRawPointer, reused: Bool)? {
        if let kept = idle.withLock({ $0.pop(tls) }) { return (kept, true) }
        guard let easy = curl_easy_init() else { return nil }
        made.add(1, ordering: .relaxed)
        return (easy, false)
    }

    /// Takes back a handle that is in no multi handle and that no transfer will touch again: kept
    /// for requests with the same TLS settings when `reusableFor` names them and there is room,
    /// cleaned up otherwise.
    func giveBack(_ easy: UnsafeMutableRawPointer, reusableFor tls: TLSOptions?) {
        let kept = tls.map { tls in
            idle.withLock { idle -> Bool in
                guard idle.count < capacity else { return false }
                idle.push(easy, tls)
                return true
            }
        } ?? false
        if !kept { curl_easy_cleanup(easy) }
    }

    /// Handles made so far (a reused one is not counted again), for tests and the benchmark.
    var handlesMade: Int { made.load(ordering: .relaxed) }

    /// Handles idle now.
    var idleCount: Int { idle.withLock { $0.count } }
}
