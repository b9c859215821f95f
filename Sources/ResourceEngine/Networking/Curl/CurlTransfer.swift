import CCurl
import FoundationEssentials
import Glibc
import Synchronization
import TextBasics

/// One request on libcurl: its easy handle, what has arrived so far, and its single completion.
///
/// Built on the main actor, then owned by the transfer loop's thread, which alone touches the
/// handle and the buffers; only `gate` (the once-only completion) is shared with `cancel()`.
///
/// Redirects are followed here, hop by hop on the same handle, not by libcurl: libcurl would send
/// every custom header to whatever host a redirect names. `RedirectPolicy` decides what each hop
/// carries (everything within the origin, only anonymous headers across origins) and refuses
/// https → http.
final class CurlTransfer: @unchecked Sendable {
    let id: Int
    let easy: UnsafeMutableRawPointer
    let gate: CompletionGate
    private let pool: CurlHandlePool
    /// The TLS settings the handle was made with, or nil once a hop has made it unfit for reuse
    /// (a method other than GET, a body, credentials, a cookie jar, an option libcurl refused).
    private var reusableFor: TLSOptions?
    /// The handle has gone back to the pool (loop thread; read again only in `deinit`).
    private var released = false
    private let maxResponseBytes: Int
    private let maxRedirects: Int
    /// `User-Agent: …` for a request without one of its own (made once by the provider).
    private let userAgentLine: String
    /// The provider's own lines as one list, for a hop that sends no header or body of its own.
    private let sharedHeaders: CurlHeaderList?
    private let progress: @Sendable (Double) -> Void
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(HC_ERROR_SIZE) + 1)
    private var headerList: UnsafeMutablePointer<curl_slist>?

    // The request as the current hop sends it (loop thread after setup).
    var url: URL {
        didSet { isHTTPS = CurlTransfer.isHTTPS(url) }
    }
    /// The current hop's URL is https (its certificate is read; plain http has none).
    private(set) var isHTTPS: Bool
    private var method: String
    private var requestBody: Data?
    private var requestHeaders: [(name: String, value: String)]
    /// The whole exchange's time limit in seconds (0: none), shared by every hop.
    private let timeout: TimeInterval
    private var redirectsFollowed = 0
    /// The origin credentials belong to: the first hop's.
    private let firstURL: URL
    private let credentials: HTTPCredentials?
    /// True while the handle uses the jar's shared store (not on a hop to another origin).
    var cookiesAttached = false
    /// Why the handle could not be set up, when it was a file it was given (`setFile`).
    private var setupProblem: String?
    /// True when the request presents a client certificate (`tls.clientCert`).
    let presentsClientCertificate: Bool
    /// Kept alive while the handle uses it.
    let cookieStore: CurlCookieStore?
    /// The jar, for its limit.
    let cookieJar: CookieJar?
    /// Time spent in earlier hops, and their count, for the timing reported at the end.
    private var earlierHops: TimeInterval = 0

    // Touched only on the transfer loop's thread, from libcurl's callbacks and at completion.
    var body = Data()
    var received = ResponseHeaderBlock()
    private var tooLarge = false

    /// Sets up an easy handle for `request`; nil (having completed with `TransportError(.badURL)`)
    /// when the request has no usable URL or libcurl refuses it.
    init?(
        id: Int, request: OutgoingRequest, transport: TransportOptions = TransportOptions(), options: CurlProvider.Options,
        userAgentLine: String, sharedHeaders: CurlHeaderList? = nil, pool: CurlHandlePool, gate: CompletionGate,
        progress: @escaping @Sendable (Double) -> Void
    ) {
        guard let url = request.url, let (easy, reused) = pool.take(for: transport.tls) else {
            gate.complete(.failure(TransportError(.badURL)))
            return nil
        }
        self.id = id
        self.easy = easy
        self.gate = gate
        self.pool = pool
        self.reusableFor = transport.credentials == nil && transport.cookieJar == nil ? transport.tls : nil
        self.maxResponseBytes = options.maxResponseBytes
        self.maxRedirects = max(0, transport.maxRedirects ?? options.maxRedirects)
        self.userAgentLine = userAgentLine
        self.sharedHeaders = sharedHeaders
        self.progress = progress
        self.url = url
        self.isHTTPS = CurlTransfer.isHTTPS(url)
        self.firstURL = url
        self.credentials = transport.credentials
        self.presentsClientCertificate = transport.tls.clientCertificate != nil
        self.cookieStore = transport.cookieJar.flatMap(CurlCookieStore.store(for:))
        self.cookieJar = transport.cookieJar
        self.method = (request.httpMethod ?? "GET").uppercased()
        self.requestBody = request.httpBody
        // Names are unique whatever their case (`setValue` replaces); sent in name order.
        let fields = request.headerFields
        self.requestHeaders = fields.count > 1 ? fields.sorted { $0.name < $1.name } : fields
        let timeout = request.timeoutInterval
        self.timeout = timeout > 0 && timeout.isFinite ? timeout : 0
        errorBuffer.initialize(repeating: 0, count: Int(HC_ERROR_SIZE) + 1)
        let fixed = reused || (configureHandle() && configureTLS(transport.tls))
        guard fixed, configureContext(), configureCookies(wanted: transport.cookieJar != nil), configureHop() else {
            reusableFor = nil
            if let setupProblem {
                deliver(.failure(RequestError.Cause.TransportFailure(setupProblem)))
            } else {
                deliver(.failure(TransportError(.badURL, detail: lastErrorText ?? "libcurl refused the request")))
            }
            return nil
        }
    }

    deinit {
        releaseHandle()
        errorBuffer.deallocate()
    }

    /// Gives the handle back to the pool, which keeps it only if every hop was a plain GET. The
    /// transfer is out of the multi handle and touches the handle no more; the handle keeps no
    /// pointer into this transfer.
    private func releaseHandle() {
        guard !released else { return }
        released = true
        if reusableFor != nil {
            let cleared = hc_setopt_pointer(easy, CURLOPT_ERRORBUFFER, nil) == CURLE_OK
                && hc_setopt_pointer(easy, CURLOPT_WRITEDATA, nil) == CURLE_OK
                && hc_setopt_pointer(easy, CURLOPT_HEADERDATA, nil) == CURLE_OK
                && hc_setopt_pointer(easy, CURLOPT_HTTPHEADER, nil) == CURLE_OK
            if !cleared { reusableFor = nil }
        }
        pool.giveBack(easy, reusableFor: reusableFor)
        curl_slist_free_all(headerList)
        headerList = nil
    }

    /// Releases the handle, then completes: the handle is back in the pool before whoever waits
    /// for this result can start the next request.
    private func deliver(_ result: NetworkResult) {
        releaseHandle()
        gate.complete(result)
    }

    // MARK: Setup

    private func set(_ option: CURLoption, _ value: Int) -> Bool { hc_setopt_long(easy, option, value) == CURLE_OK }
    /// A string option; libcurl copies it. `withCString` lends a native string's own bytes (passing
    /// the String as a raw pointer would copy it into a new array first).
    /// A file's bytes for a `…_BLOB` option; when it cannot be read, why (`setupProblem`).
    private func setFile(_ option: CURLoption, _ path: String, what: String) -> Bool {
        switch RegularFile.read(path, limit: TLSOptions.largestFile, what: "file") {
        case .success(let data):
            return data.withUnsafeBytes { hc_setopt_blob(easy, option, $0.baseAddress, $0.count) } == CURLE_OK
        case .failure(let failure):
            setupProblem = "\(what) \(path): \(failure.message)"
            return false
        }
    }

    /// Trusted roots by path, a file or a folder, once `stat` (which never blocks) shows it is one.
    /// Not bytes, as the client's own files are: libcurl copies a CA blob into every transfer's
    /// connection settings and parses it again for every TLS connection, where a bundle named by
    /// its path is parsed once and kept (a 214 KB bundle made each probe cost twelve times as much).
    private func setTrust(_ path: String, what: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            setupProblem = "\(what) \(path): " + (errno == ENOENT ? "no such file" : String(cString: strerror(errno)).lowercased())
            return false
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return set(CURLOPT_CAPATH, path)
        case S_IFREG: return set(CURLOPT_CAINFO, path)
        default:
            setupProblem = "\(what) \(path): is not a regular file"
            return false
        }
    }

    private func set(_ option: CURLoption, _ value: String) -> Bool {
        value.withCString { hc_setopt_pointer(easy, option, $0) } == CURLE_OK
    }

    /// What stays the same on every transfer of a handle: set once, when the handle is made.
    private func configureHandle() -> Bool {
        var ok = set(CURLOPT_NOSIGNAL, 1)
        ok = ok && set(CURLOPT_PROTOCOLS_STR, "http,https")
        ok = ok && set(CURLOPT_FOLLOWLOCATION, 0)
        ok = ok && set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl can decode; the cap applies to decoded bytes
        ok = ok && hc_setopt_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback) == CURLE_OK
        ok = ok && hc_setopt_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback) == CURLE_OK
        // libcurl looks proxies up in the environment for every transfer (no_proxy, NO_PROXY,
        // http_proxy, all_proxy, ALL_PROXY: five scans of it a probe). When the environment names
        // none, "no proxy" is said once here and libcurl looks at nothing; otherwise it reads them.
        if !CurlTransfer.environmentNamesAProxy { ok = ok && set(CURLOPT_PROXY, "") && set(CURLOPT_NOPROXY, "") }
        return ok
    }

    /// Whether a variable of the environment names a proxy (`…_proxy` in any case but `no_proxy`,
    /// not empty): libcurl's own lookups then decide, as the curl tool's do.
    static let environmentNamesAProxy: Bool = ProcessInfo.processInfo.environment.contains { name, value in
        let lowered = name.lowercased()
        return !value.isEmpty && lowered.hasSuffix("_proxy") && lowered != "no_proxy"
    }

    /// This transfer's own pointers: its error buffer, its id, itself for the callbacks.
    private func configureContext() -> Bool {
        let context = Unmanaged.passUnretained(self).toOpaque()
        var ok = hc_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer) == CURLE_OK
        ok = ok && hc_setopt_pointer(easy, CURLOPT_PRIVATE, UnsafeRawPointer(bitPattern: id)) == CURLE_OK
        ok = ok && hc_setopt_pointer(easy, CURLOPT_WRITEDATA, context) == CURLE_OK
        ok = ok && hc_setopt_pointer(easy, CURLOPT_HEADERDATA, context) == CURLE_OK
        return ok
    }

    /// Whom to trust and who to be: a CA file or directory instead of the system's roots, a
    /// client certificate, or (only when asked) no verification at all.
    ///
    /// The client's certificate and key are read here, as regular files of bounded size without
    /// blocking (`RegularFile`), and handed to libcurl as bytes; trusted roots go by path once
    /// `stat` shows a regular file or a folder: nothing libcurl or OpenSSL opens is a FIFO that
    /// could hang the transfer thread. A key always goes with a passphrase (empty without
    /// one), so OpenSSL never prompts on the terminal for an encrypted one.
    private func configureTLS(_ tls: TLSOptions) -> Bool {
        var ok = true
        if let ca = tls.caFile {
            ok = ok && setTrust(ca, what: "tls.ca")
        } else {
            let environment = CurlTransfer.environmentCA
            if let file = environment.file { ok = ok && setTrust(file, what: "the CA bundle") }
            if let directory = environment.directory { ok = ok && set(CURLOPT_CAPATH, directory) }
        }
        if let certificate = tls.clientCertificate { ok = ok && setFile(CURLOPT_SSLCERT_BLOB, certificate, what: "tls.clientCert") }
        if let key = tls.clientKey {
            ok = ok && setFile(CURLOPT_SSLKEY_BLOB, key, what: "tls.clientKey") && set(CURLOPT_KEYPASSWD, tls.clientKeyPassword ?? "")
        }
        if tls.insecure { ok = ok && set(CURLOPT_SSL_VERIFYPEER, 0) && set(CURLOPT_SSL_VERIFYHOST, 0) }
        // The server's certificate as text, read on each new connection (its expiry is watched).
        ok = ok && set(CURLOPT_CERTINFO, 1)
        return ok
    }

    /// libcurl's cookie engine on the jar's shared store: cookies set by any response of the jar
    /// (every hop to its origin included) go back with later requests, by libcurl's domain, path
    /// and expiry rules.
    private func configureCookies(wanted: Bool) -> Bool {
        guard wanted else { return true }
        guard let cookieStore else { return false }
        cookiesAttached = true
        return hc_setopt_pointer(easy, CURLOPT_SHARE, cookieStore.shared.pointee.share) == CURLE_OK && set(CURLOPT_COOKIEFILE, "")
    }

    /// A hop to another origin (another port of the same host too: cookies know no ports) goes
    /// without the jar, whose cookies stay with the origin that set them; a hop back takes it again.
    private func attachCookies() -> Bool {
        guard let cookieStore else { return true }
        let sameOrigin = url == firstURL || RedirectPolicy.sameOrigin(url, firstURL)
        guard sameOrigin != cookiesAttached else { return true }
        cookiesAttached = sameOrigin
        return hc_setopt_pointer(easy, CURLOPT_SHARE, sameOrigin ? cookieStore.shared.pointee.share : nil) == CURLE_OK
    }

    /// The CA bundle the environment names, as the curl tool and OpenSSL read it:
    /// `CURL_CA_BUNDLE`, else `SSL_CERT_FILE`, for a file; `SSL_CERT_DIR` for a folder.
    static let environmentCA: (file: String?, directory: String?) = {
        let environment = ProcessInfo.processInfo.environment
        let nonEmpty = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        return (nonEmpty("CURL_CA_BUNDLE") ?? nonEmpty("SSL_CERT_FILE"), nonEmpty("SSL_CERT_DIR"))
    }()

    /// The URL, method, body, headers and remaining time of the current hop: every option that
    /// can differ from one transfer of a reused handle to the next is set here, every time.
    private func configureHop() -> Bool {
        var ok = set(CURLOPT_URL, url.absoluteString)
        // The whole exchange, every hop and however slowly the server drips (0: libcurl's defaults).
        var milliseconds = 0
        if timeout > 0 {
            let remaining = max(0.001, timeout - earlierHops)
            milliseconds = Int(min(remaining * 1000, Double(Int32.max)).rounded(.up))
        }
        ok = ok && set(CURLOPT_TIMEOUT_MS, milliseconds) && set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        if method != "GET" || requestBody != nil { reusableFor = nil }
        ok = ok && attachCookies()
        // Credentials answer challenges from their own origin only: a redirect elsewhere gets none.
        if let credentials, RedirectPolicy.sameOrigin(url, firstURL) {
            ok = ok && set(CURLOPT_HTTPAUTH, Int(HC_AUTH_DIGEST)) && set(CURLOPT_USERNAME, credentials.user)
                && set(CURLOPT_PASSWORD, credentials.password)
        } else if credentials != nil {
            ok = ok && hc_setopt_pointer(easy, CURLOPT_USERNAME, nil) == CURLE_OK && hc_setopt_pointer(easy, CURLOPT_PASSWORD, nil) == CURLE_OK
                && set(CURLOPT_HTTPAUTH, Int(HC_AUTH_BASIC))
        }
        // Reset what an earlier hop may have set, then the method.
        ok = ok && set(CURLOPT_NOBODY, 0) && hc_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, nil) == CURLE_OK
        switch method {
        case "GET" where requestBody == nil: ok = ok && set(CURLOPT_HTTPGET, 1)
        case "HEAD": ok = ok && set(CURLOPT_NOBODY, 1)
        case "POST": ok = ok && set(CURLOPT_POST, 1)
        default: ok = ok && set(CURLOPT_CUSTOMREQUEST, method)
        }
        if let requestBody, method != "HEAD" {
            ok = ok && hc_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(requestBody.count)) == CURLE_OK
            ok = ok && requestBody.withUnsafeBytes { hc_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? UnsafeRawPointer(errorBuffer)) } == CURLE_OK
        } else if method == "POST" {
            ok = ok && hc_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0) == CURLE_OK
        }

        curl_slist_free_all(headerList)
        headerList = nil
        if requestHeaders.isEmpty, requestBody == nil, let sharedHeaders {
            return ok && hc_setopt_pointer(easy, CURLOPT_HTTPHEADER, sharedHeaders.list) == CURLE_OK
        }
        for (name, value) in requestHeaders {
            guard appendHeader(CurlTransfer.headerLine(name: name, value: value)) else { return false }
        }
        // Lines made once where they can be (libcurl copies each into the list).
        if !has("user-agent"), !appendHeader(userAgentLine) { return false }
        // libcurl formats its own Accept-Encoding line on every transfer (its printf, a byte at a
        // time); with one of ours it sends ours. CURLOPT_ACCEPT_ENCODING stays set: that is what
        // makes libcurl decode the answer.
        if let line = CurlTransfer.acceptEncodingLine, !has("accept-encoding"), !appendHeader(line) { return false }
        // No "Expect: 100-continue" round trip before a body (libcurl adds it only for a body).
        if requestBody != nil, !has("expect"), !appendHeader("Expect:") { return false }
        ok = ok && hc_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList) == CURLE_OK
        return ok
    }

    /// Adds a line to the header list; false if libcurl could not.
    private func appendHeader(_ line: String) -> Bool {
        guard let appended = line.withCString({ curl_slist_append(headerList, $0) }) else { return false }
        headerList = appended
        return true
    }

    /// Whether the current hop's own headers include `lowerCaseName`.
    private func has(_ lowerCaseName: StaticString) -> Bool {
        requestHeaders.contains { CurlTransfer.isNamed($0.name, lowerCaseName) }
    }

    /// Whether `url`'s scheme is https, read off its first bytes (its `scheme` is parsed anew on
    /// every read).
    static func isHTTPS(_ url: URL) -> Bool {
        var text = url.absoluteString
        return text.withUTF8 { bytes in
            guard bytes.count >= 6 else { return false }
            // "https:", letters in either case (a URL holds no control byte that would pass too).
            return bytes[0] | 0x20 == 0x68 && bytes[1] | 0x20 == 0x74 && bytes[2] | 0x20 == 0x74 && bytes[3] | 0x20 == 0x70
                && bytes[4] | 0x20 == 0x73 && bytes[5] == 0x3A
        }
    }

    /// `Accept-Encoding: …` naming every encoding this libcurl decodes, in libcurl's own order
    /// (what `CURLOPT_ACCEPT_ENCODING` "" sends); nil if it decodes none (libcurl's line is sent).
    static let acceptEncodingLine: String? = {
        let decoders = hc_decoders()
        guard decoders & 1 != 0 else { return nil }
        return "Accept-Encoding: deflate, gzip" + (decoders & 2 != 0 ? ", br" : "") + (decoders & 4 != 0 ? ", zstd" : "")
    }()

    // MARK: Callbacks (transfer loop thread)

    /// Appends body bytes; false stops the transfer (over the cap, or cancelled).
    fileprivate func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if gate.isComplete { return false }
        if body.isEmpty, let declared = received.declaredLength, declared > Int64(maxResponseBytes) {
            tooLarge = true
            return false
        }
        guard body.count + bytes.count <= maxResponseBytes else {
            tooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        // Only while more is to come: a body that is whole completes at once, and the completion
        // is its progress of 1 (one hop to the main actor per request, not two).
        if let declared = received.declaredLength, declared > 0, Int64(body.count) < declared {
            progress(Double(body.count) / Double(declared))
        }
        return true
    }

    /// Records one header line. A status line starts a new header block: what came before belonged
    /// to a redirect or an interim (1xx) response. False stops the transfer (conflicting lengths).
    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        received.add(bytes)
    }

    // MARK: Completion (transfer loop thread)

    /// What the transfer loop does after libcurl finished a hop.
    enum Next {
        /// The exchange is over; its completion has been called.
        case done
        /// The same handle goes again, for the next hop of a redirect.
        case again
    }

    /// Reports the outcome libcurl gave for this hop, or sets up the next hop of a redirect.
    func finish(_ code: CURLcode) -> Next {
        if code == CURLE_OK, let next = redirectTarget() {
            var status = 0
            _ = hc_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            if let refusal = RedirectPolicy.refusal(from: url, to: next, status: status, method: method, hasBody: requestBody != nil) {
                deliver(NetworkResult(error: refusal, timing: timing()))
                return .done
            }
            guard redirectsFollowed < maxRedirects else {
                deliver(NetworkResult(error: TransportError(.tooManyRedirects), timing: timing()))
                return .done
            }
            guard prepareHop(to: next) else {
                deliver(NetworkResult(error: TransportError(.badURL, detail: lastErrorText ?? "libcurl refused the redirect"), timing: timing()))
                return .done
            }
            return .again
        }
        complete(code)
        return .done
    }

    /// Where a 3xx answer sends the request, when redirects are followed (`maxRedirects` > 0).
    private func redirectTarget() -> URL? {
        guard maxRedirects > 0 else { return nil }
        var status = 0
        _ = hc_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        guard [301, 302, 303, 307, 308].contains(status) else { return nil }
        var location: UnsafeMutablePointer<CChar>?
        guard hc_getinfo_string(easy, CURLINFO_REDIRECT_URL, &location) == CURLE_OK, let location else { return nil }
        return URL(string: String(cString: location))
    }

    /// The next hop: its method and body by the status, its headers by `RedirectPolicy`.
    private func prepareHop(to next: URL) -> Bool {
        var status = 0
        _ = hc_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        earlierHops = timing().total
        let after = RedirectPolicy.method(after: status, was: method)
        requestHeaders = RedirectPolicy.headers(requestHeaders, from: url, to: next, keepsBody: after.keepsBody && requestBody != nil)
        if !after.keepsBody { requestBody = nil }
        method = after.method
        url = next
        redirectsFollowed += 1
        body = Data()
        received = ResponseHeaderBlock()
        tooLarge = false
        errorBuffer[0] = 0
        return configureHop()
    }

    /// Reports the final outcome.
    private func complete(_ code: CURLcode) {
        trimCookies()
        let timing = self.timing()
        if code == CURLE_OK {
            deliver(NetworkResult(response: response(), body: body, timing: timing, certificate: certificate()))
        } else if tooLarge {
            deliver(NetworkResult(
                response: received.statusLineSeen ? response() : nil, error: RequestError.Cause.ResponseTooLarge(limit: maxResponseBytes),
                timing: timing, certificate: certificate()))
        } else {
            deliver(NetworkResult(error: failure(for: code), timing: timing))
        }
    }

    /// libcurl's phase times (from when libcurl started the transfer, so time spent waiting for a
    /// slot in the loop is not counted). Phases are the last hop's, offset by the earlier hops;
    /// `total` covers every hop.
    private func timing() -> TransferTiming {
        let before = earlierHops
        func seconds(_ info: CURLINFO) -> TimeInterval? {
            var micros: curl_off_t = 0
            guard hc_getinfo_offset(easy, info, &micros) == CURLE_OK, micros > 0 else { return nil }
            return before + TimeInterval(micros) / 1_000_000
        }
        return TransferTiming(
            nameLookup: seconds(CURLINFO_NAMELOOKUP_TIME_T), connect: seconds(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: seconds(CURLINFO_APPCONNECT_TIME_T), firstByte: seconds(CURLINFO_STARTTRANSFER_TIME_T),
            total: seconds(CURLINFO_TOTAL_TIME_T) ?? before, redirects: redirectsFollowed)
    }

    var lastErrorText: String? {
        let text = String(cString: errorBuffer).trimmingWhitespaceAndNewlines()
        return text.isEmpty ? nil : text
    }

    /// The response head, straight from the header lines libcurl handed over (no Foundation
    /// response object per request).
    private func response() -> HTTPResponseHead? {
        var status = 0
        _ = hc_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        _ = hc_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        // The URL asked for, unless a redirect changed it: no parse (nor string) per response.
        var answered: URL?
        if let effective {
            var asked = url.absoluteString
            let same = asked.withUTF8 { bytes in strlen(effective) == bytes.count && (bytes.isEmpty || memcmp(effective, bytes.baseAddress!, bytes.count) == 0) }
            answered = same ? url : URL(string: String(cString: effective))
        }
        var head = HTTPResponseHead(statusCode: status, url: answered)
        head.headers = received.headers
        return head
    }
}

/// libcurl's write callback: the transfer is the context pointer.
private let curlWriteCallback: hc_data_callback = { data, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard let data else { return length }
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// libcurl's header callback: one line at a time, status line included.
private let curlHeaderCallback: hc_data_callback = { data, size, count, context in
    let length = size * count
    guard let context, let data else { return length }
    let accepted = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        .receiveHeader(UnsafeRawBufferPointer(start: data, count: length))
    return accepted ? length : 0
}
