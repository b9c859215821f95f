import FoundationEssentials
import Glibc
import Synchronization

/// A networking provider that drives libcurl directly: one multi handle on one thread.
///
/// The engine's default transport (a `Service` made without one uses a `CurlProvider`), and what
/// the `hammock` command uses. It replaces `URLSessionProvider` on Linux: swift-corelibs-foundation's
/// URLSession leaks about 200 bytes per request on Linux (its host check frees a parsed URL
/// with `curl_free` instead of `curl_url_cleanup`), which a monitor polling every second turns
/// into megabytes an hour; here every request runs on an easy handle of its own, and a plain
/// GET's handle is kept for a later request with the same TLS settings (`CurlHandlePool`).
/// The rest is what the engine expects of a provider: a total deadline from
/// `OutgoingRequest.timeoutInterval` (libcurl's, so a dripping server still times out), a cap on
/// the decoded body (`ResponseTooLarge`), redirects followed (http and https only), compressed
/// bodies decoded, TLS verified against the system's roots, proxies from the environment
/// (`http_proxy`, `https_proxy`, `no_proxy`), kept-alive connections, HTTP/2 where the server
/// offers it.
@MainActor
public final class CurlProvider: NetworkingProvider {
    /// The largest body a transport accepts unless told otherwise: 8 MiB.
    public nonisolated static let defaultMaxResponseBytes = 8 << 20

    /// Completions come from the transfer thread.
    public var completesOffTheMainActor: Bool { true }

    /// Limits and defaults for every request.
    public struct Options: Sendable {
        /// Bodies larger than this (after decompression) fail with `ResponseTooLarge`.
        public var maxResponseBytes: Int
        /// Connections open to one host at once (0: no limit, the default). A limit lets requests
        /// that hang hold every connection while a healthy endpoint on the same host waits behind
        /// them, and libcurl 7.88 sometimes leaves such queued transfers stalled until they time out.
        public var maxConnectionsPerHost: Int
        /// Transfers running at once; more wait in the provider's queue, and their waiting counts
        /// neither against their timeout nor as latency. nil: from the open-file limit (each
        /// transfer holds a socket), leaving room for the rest of the process.
        public var maxTransfersInFlight: Int?
        /// Redirects followed before "Too many redirects".
        public var maxRedirects: Int
        /// Sent when the request has no `User-Agent` of its own.
        public var userAgent: String

        /// Limits as given; the defaults: 8 MiB bodies, no cap per host, transfers from the
        /// open-file limit, 10 redirects, `User-Agent: hammock`.
        public init(
            maxResponseBytes: Int = CurlProvider.defaultMaxResponseBytes, maxConnectionsPerHost: Int = 0,
            maxTransfersInFlight: Int? = nil, maxRedirects: Int = 10, userAgent: String = "hammock"
        ) {
            self.maxResponseBytes = maxResponseBytes
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxTransfersInFlight = maxTransfersInFlight
            self.maxRedirects = maxRedirects
            self.userAgent = userAgent
        }
    }

    /// The limits and defaults every request of this provider gets.
    public let options: Options
    /// Started by the first request, so a service that never loads starts no thread.
    private(set) var startedLoop: CurlTransferLoop?
    private var loopFailedToStart = false
    /// Easy handles kept between plain GETs.
    let handles = CurlHandlePool()
    private var nextID = 0
    private let userAgentLine: String
    /// `userAgentLine` and `CurlTransfer.acceptEncodingLine` as one list, lent to plain GETs.
    private let sharedHeaders: CurlHeaderList?

    /// Makes a provider; its transfer thread starts with its first request.
    public init(options: Options = Options()) {
        self.options = options
        let userAgentLine = CurlTransfer.headerLine(name: "User-Agent", value: options.userAgent)
        self.userAgentLine = userAgentLine
        self.sharedHeaders = CurlHeaderList([userAgentLine] + (CurlTransfer.acceptEncodingLine.map { [$0] } ?? []))
    }

    deinit {
        startedLoop?.stop()
    }

    /// The transfer thread, started on first use; nil when libcurl could not start.
    private var loop: CurlTransferLoop? {
        if let startedLoop { return startedLoop }
        guard !loopFailedToStart else { return nil }
        startedLoop = CurlTransferLoop(
            maxConnectionsPerHost: options.maxConnectionsPerHost,
            maxInFlight: options.maxTransfersInFlight ?? CurlProvider.transfersTheFileLimitAllows())
        loopFailedToStart = startedLoop == nil
        return startedLoop
    }

    /// The open-file limit less room for everything else (the terminal, cache files, the config
    /// watch, libcurl's own descriptors), at least 16.
    nonisolated static func transfersTheFileLimitAllows() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return 4096 }
        return max(16, min(Int(clamping: limit.rlim_cur) - 96, 1 << 16))
    }

    /// Transfers waiting for a slot and running now, for tests and the benchmark.
    public var transfersQueuedAndRunning: (queued: Int, running: Int) { startedLoop?.counts ?? (0, 0) }

    /// libcurl easy handles made so far (a reused one is counted once; see `CurlHandlePool`).
    public var handlesMade: Int { handles.handlesMade }

    public func startRequest(
        _ request: OutgoingRequest,
        transport: TransportOptions,
        progress: @escaping @Sendable (Double) -> Void,
        completion: @escaping @Sendable (NetworkResult) -> Void
    ) -> any RequestNetworking {
        nextID += 1
        let gate = CompletionGate(completion)
        guard let loop else {
            gate.complete(.failure(TransportError(.unknown, detail: "libcurl could not start")))
            return Handle(id: nextID, gate: gate, loop: nil)
        }
        if let transfer = CurlTransfer(
            id: nextID, request: request, transport: transport, options: options, userAgentLine: userAgentLine,
            sharedHeaders: sharedHeaders, pool: handles, gate: gate, progress: progress) {
            loop.add(transfer)
        }
        return Handle(id: nextID, gate: gate, loop: loop)
    }

    private struct Handle: RequestNetworking {
        let id: Int
        let gate: CompletionGate
        let loop: CurlTransferLoop?

        func cancel() {
            guard !gate.isComplete else { return }
            gate.complete(.failure(TransportError(.cancelled)))
            loop?.cancel(id)
        }
    }
}
