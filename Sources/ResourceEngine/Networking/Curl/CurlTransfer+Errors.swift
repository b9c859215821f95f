import CCurl
import FoundationEssentials
import Glibc

extension CurlTransfer {
    /// libcurl's result as the `TransportError` the engine turns into a screen message.
    ///
    /// Failures with a code of their own get it ("Could not connect to the server"); the rest
    /// keep libcurl's own explanation as the detail, which the engine shows ("transfer closed
    /// with 993 bytes remaining" reads as a connection closed mid-body). `screenMessage` says
    /// more than the code's own message ("127.0.0.1:29080: connection refused").
    static func transportError(for code: CURLcode, detail: String?, screenMessage: String? = nil) -> TransportError {
        let mapped: TransportError.Code =
            switch code {
            case CURLE_COULDNT_CONNECT: .cannotConnectToHost
            case CURLE_COULDNT_RESOLVE_HOST: .cannotFindHost
            case CURLE_OPERATION_TIMEDOUT: .timedOut
            case CURLE_TOO_MANY_REDIRECTS: .tooManyRedirects
            case CURLE_UNSUPPORTED_PROTOCOL: .unsupportedURL
            case CURLE_URL_MALFORMAT: .badURL
            case CURLE_SEND_ERROR: .networkConnectionLost
            case CURLE_WEIRD_SERVER_REPLY: .badServerResponse
            case CURLE_SSL_CONNECT_ERROR: .secureConnectionFailed
            case CURLE_PEER_FAILED_VERIFICATION: .serverCertificateUntrusted
            case CURLE_ABORTED_BY_CALLBACK: .cancelled
            default: .unknown
            }
        return TransportError(mapped, detail: detail ?? String(cString: curl_easy_strerror(code)), screenMessage: screenMessage)
    }

    /// What went wrong, named as precisely as libcurl lets us: the cases whose libcurl codes
    /// mislead ("Unsupported protocol" for a reply that is not HTTP, "Out of memory" for a huge
    /// header, one "not trusted" for every certificate problem) get a cause of their own.
    func failure(for code: CURLcode) -> any Error {
        let detail = lastErrorText
        typealias Failure = RequestError.Cause.TransportFailure
        if let value = received.invalidLength {
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return Failure("The server sent an invalid Content-Length (\(shown))", detail: detail)
        }
        if let (first, second) = received.conflictingLengths {
            return Failure("The server sent conflicting Content-Length headers (\(first) and \(second))", detail: detail)
        }
        switch code {
        case CURLE_WEIRD_SERVER_REPLY where detail?.contains("Content-Length") == true:
            // libcurl's own check (a negative or malformed length) comes before our header callback.
            return Failure("The server sent an invalid Content-Length", detail: detail)
        case CURLE_UNSUPPORTED_PROTOCOL where detail?.contains("HTTP/0.9") == true, CURLE_WEIRD_SERVER_REPLY:
            return Failure("The server did not answer in HTTP", detail: detail)
        // libcurl says "Unsupported protocol" for a status line it cannot read: a version it does
        // not speak (HTTP/3.0 over TCP), a code that is not three digits, a code of 000.
        case CURLE_UNSUPPORTED_PROTOCOL where url.scheme?.lowercased().hasPrefix("http") == true:
            let reason = detail.map { " (\($0))" } ?? ""
            return Failure("The server sent an invalid status line\(reason)", detail: detail)
        // libcurl says "Out of memory" when a header line passes its 100 KB limit; before any
        // body byte, that is what it is.
        case CURLE_OUT_OF_MEMORY where body.isEmpty:
            return Failure("The server sent a response header over 100 KB", detail: detail)
        case CURLE_PARTIAL_FILE:
            if let declared = received.declaredLength, let missing = detail.flatMap(CurlTransfer.remainingBytes) {
                return Failure("The server closed the connection before the response was complete (\(missing) of \(declared) bytes missing)", detail: detail)
            }
            return Failure("The server closed the connection before the response was complete", detail: detail)
        case CURLE_PEER_FAILED_VERIFICATION:
            return certificateFailure(detail: detail)
        case CURLE_SSL_CERTPROBLEM:
            let text = (detail ?? "").lowercased()
            if text.contains("private key") || text.contains("key file") || text.contains("bad decrypt") {
                return Failure("tls.clientKey cannot be used: it is encrypted and its passphrase is missing or wrong (tls.clientKeyPassword)", detail: detail)
            }
            return Failure("tls.clientCert cannot be used: " + (detail ?? "libcurl refused it"), detail: detail)
        case CURLE_COULDNT_CONNECT:
            // Where, and why: "127.0.0.1:29080: connection refused".
            var osError = 0
            _ = hc_getinfo_long(easy, CURLINFO_OS_ERRNO, &osError)
            let reason = CurlTransfer.connectReason(Int32(osError)) ?? "could not connect"
            return CurlTransfer.transportError(for: code, detail: detail, screenMessage: "\(CurlTransfer.hostAndPort(url)): \(reason)")
        case CURLE_COULDNT_RESOLVE_HOST:
            return CurlTransfer.transportError(for: code, detail: detail, screenMessage: "\(url.host ?? "the host"): no such host (DNS found no address)")
        case CURLE_SSL_CONNECT_ERROR, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            if let refused = clientCertificateRefusal(code, detail: detail) { return refused }
            return CurlTransfer.transportError(for: code, detail: detail)
        default:
            return CurlTransfer.transportError(for: code, detail: detail)
        }
    }

    /// The server would not take the client certificate (or wants one): one message however the
    /// TLS version reports it — an alert during the handshake (TLS 1.2), on the first read
    /// ("SSL_read: … alert bad certificate"), or the connection closed under the first write
    /// right after a handshake this transfer made (TLS 1.3 sends its verdict after it).
    private func clientCertificateRefusal(_ code: CURLcode, detail: String?) -> (any Error)? {
        guard isHTTPS, !received.statusLineSeen else { return nil }
        let text = (detail ?? "").lowercased()
        let alerts = ["alert bad certificate", "alert certificate required", "alert unknown ca", "alert certificate unknown",
            "alert unsupported certificate", "alert certificate expired", "alert certificate revoked", "alert access denied"]
        typealias Failure = RequestError.Cause.TransportFailure
        let alerted = alerts.contains { text.contains($0) } || (code == CURLE_SSL_CONNECT_ERROR && text.contains("alert handshake failure"))
        var closedAfterHandshake = false
        if !alerted, code != CURLE_SSL_CONNECT_ERROR {
            var handshake: curl_off_t = 0
            _ = hc_getinfo_offset(easy, CURLINFO_APPCONNECT_TIME_T, &handshake)
            closedAfterHandshake = handshake > 0
        }
        if presentsClientCertificate, alerted || closedAfterHandshake {
            return Failure("The server refused our client certificate (tls.clientCert)", detail: detail)
        }
        if alerted {
            return Failure("The server asks for a client certificate (set tls.clientCert and tls.clientKey)", detail: detail)
        }
        if closedAfterHandshake {
            return Failure("The server closed the connection right after the TLS handshake: it may require a client certificate (tls.clientCert)", detail: detail)
        }
        return nil
    }

    /// `host:port` of `url`, an IPv6 host in brackets, the scheme's port when none is written.
    static func hostAndPort(_ url: URL) -> String {
        let host = url.host ?? "the server"
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// Why a connection could not be made, from the system's error.
    static func connectReason(_ code: Int32) -> String? {
        switch code {
        case ECONNREFUSED: "connection refused"
        case ETIMEDOUT: "connection timed out"
        case EHOSTUNREACH: "no route to the host"
        case ENETUNREACH: "network unreachable"
        case EADDRNOTAVAIL: "address not available"
        case EACCES, EPERM: "connection not permitted"
        default: nil
        }
    }

    /// Which certificate problem it was, from OpenSSL's verify result and libcurl's own text.
    private func certificateFailure(detail: String?) -> any Error {
        typealias Failure = RequestError.Cause.TransportFailure
        var result = 0
        _ = hc_getinfo_long(easy, CURLINFO_SSL_VERIFYRESULT, &result)
        let text = (detail ?? "").lowercased()
        if text.contains("subject name") || text.contains("does not match") || result == 62 {
            return Failure("The server's certificate is for another name than \(url.host ?? "this host")", detail: detail)
        }
        switch result {
        case 10: return Failure("The server's certificate has expired", detail: detail)
        case 9: return Failure("The server's certificate is not valid yet", detail: detail)
        case 18: return Failure("The server's certificate is self-signed and not trusted (trust it with tls.ca)", detail: detail)
        case 2, 19, 20, 21: return Failure("The server's certificate is signed by an unknown authority (trust it with tls.ca)", detail: detail)
        case 23: return Failure("The server's certificate has been revoked", detail: detail)
        default: return Failure("The server's certificate is not trusted" + (detail.map { " (\($0))" } ?? ""), detail: detail)
        }
    }
}
