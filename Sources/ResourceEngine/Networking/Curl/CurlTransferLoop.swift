import CCurl
import FoundationEssentials
import Synchronization

/// One libcurl multi handle and the thread that drives it.
///
/// The thread sleeps in `curl_multi_poll` until a socket is ready, a libcurl timer is due, or
/// another thread hands it work (`curl_multi_wakeup`), so an idle loop costs nothing. It alone
/// touches the multi handle and the running transfers; other threads only post to the inbox.
final class CurlTransferLoop: @unchecked Sendable {
    private struct Inbox {
        var added: [CurlTransfer] = []
        var cancelled: [Int] = []
        var stopping = false
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private let maxInFlight: Int
    /// Loop thread only.
    private var running: [Int: CurlTransfer] = [:]
    /// Loop thread only: transfers waiting for a slot, oldest first from `waitingHead`.
    private var waiting: [CurlTransfer] = []
    private var waitingHead = 0
    private let published = Mutex((queued: 0, running: 0))

    /// Starts the loop's thread.
    ///
    /// - Parameters:
    ///   - maxConnectionsPerHost: connections libcurl may open to one host at once (0: no limit).
    ///   - maxInFlight: transfers handed to libcurl at once; the rest wait here, not in libcurl,
    ///     so libcurl's clock (timeout, timing) starts only when a transfer really starts.
    init?(maxConnectionsPerHost: Int, maxInFlight: Int) {
        guard CurlTransferLoop.globalInit, let multi = curl_multi_init() else { return nil }
        self.multi = multi
        self.maxInFlight = max(1, maxInFlight)
        _ = hc_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxConnectionsPerHost)
        // libcurl's default keeps at most 4 connections per easy handle added; handles are added
        // here only while they transfer, so the last of each burst closed connections the next
        // burst opened again. As many as may transfer at once, which the file limit bounds.
        _ = hc_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, self.maxInFlight)
        DetachedThread.start(name: "hammock-curl") { [self] in run() }
    }

    /// `curl_global_init`, once per process (FoundationNetworking's own call is counted alongside).
    private static let globalInit: Bool = curl_global_init(HC_GLOBAL_ALL) == CURLE_OK

    /// Hands a transfer to the loop; it starts on the loop's next turn.
    func add(_ transfer: CurlTransfer) {
        post { $0.added.append(transfer) }
    }

    /// Stops a transfer and drops it (its completion has already been claimed by the caller).
    func cancel(_ id: Int) {
        post { $0.cancelled.append(id) }
    }

    /// Puts work in the inbox and wakes the loop, unless work already waiting there has woken it
    /// (the loop empties the inbox only after a wakeup, so one per batch is enough).
    private func post(_ change: (inout Inbox) -> Void) {
        let wasEmpty = inbox.withLock { inbox -> Bool in
            let empty = inbox.added.isEmpty && inbox.cancelled.isEmpty && !inbox.stopping
            change(&inbox)
            return empty
        }
        if wasEmpty { curl_multi_wakeup(multi) }
    }

    /// Cancels everything still running and ends the thread.
    func stop() {
        inbox.withLock { $0.stopping = true }
        curl_multi_wakeup(multi)
    }

    private func run() {
        while true {
            let work = inbox.withLock { inbox -> Inbox in
                defer {
                    inbox.added.removeAll()
                    inbox.cancelled.removeAll()
                }
                return inbox
            }
            waiting.append(contentsOf: work.added)
            // A cancelled transfer still waiting has a completed gate; `startWaiting` drops it.
            for id in work.cancelled {
                guard let transfer = running.removeValue(forKey: id) else { continue }
                curl_multi_remove_handle(multi, transfer.easy)
            }
            if work.stopping { break }
            // The turn's completions and progress reach the main actor in one hop.
            MainQueue.batching {
                startWaiting()
                var active: Int32 = 0
                curl_multi_perform(multi, &active)
                finishCompleted()
                startWaiting()
            }
            published.withLock { $0 = (waiting.count - waitingHead, running.count) }
            curl_multi_poll(multi, nil, 0, 10_000, nil)
        }
        for transfer in running.values {
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.gate.complete(.failure(TransportError(.cancelled)))
        }
        for transfer in waiting[waitingHead...] { transfer.gate.complete(.failure(TransportError(.cancelled))) }
        running.removeAll()
        waiting.removeAll()
        curl_multi_cleanup(multi)
    }

    /// Hands waiting transfers to libcurl while there are free slots; cancelled ones are dropped.
    private func startWaiting() {
        while running.count < maxInFlight, waitingHead < waiting.count {
            let transfer = waiting[waitingHead]
            waitingHead += 1
            if transfer.gate.isComplete { continue }
            if curl_multi_add_handle(multi, transfer.easy) == CURLM_OK {
                running[transfer.id] = transfer
            } else {
                _ = transfer.finish(CURLE_FAILED_INIT)
            }
        }
        if waitingHead == waiting.count || waitingHead > 1024 {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
    }

    /// Transfers waiting for a slot and running, as of the loop's last turn.
    var counts: (queued: Int, running: Int) { published.withLock { $0 } }

    /// Reads libcurl's "done" messages and completes those transfers.
    private func finishCompleted() {
        var done: [(easy: UnsafeMutableRawPointer, result: CURLcode)] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard hc_message_is_done(message) != 0, let easy = message.pointee.easy_handle else { continue }
            done.append((easy, hc_message_result(message)))
        }
        for (easy, result) in done {
            var context: UnsafeMutableRawPointer?
            _ = hc_getinfo_pointer(easy, CURLINFO_PRIVATE, &context)
            curl_multi_remove_handle(multi, easy)
            guard let context else { continue }
            let id = Int(bitPattern: context)
            guard let transfer = running[id] else { continue }
            // A redirect's next hop keeps its slot and goes again on the same handle.
            if !transfer.gate.isComplete, transfer.finish(result) == .again, curl_multi_add_handle(multi, easy) == CURLM_OK {
                continue
            }
            running.removeValue(forKey: id)
            if !transfer.gate.isComplete { _ = transfer.finish(CURLE_FAILED_INIT) }
        }
    }
}
