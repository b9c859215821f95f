import CCurl
import FoundationEssentials
import Synchronization

extension CurlTransfer {
    /// The leaf certificate libcurl read on this transfer's connection (CURLOPT_CERTINFO), or nil
    /// (plain HTTP, a reused connection, nothing parseable).
    func certificate() -> PeerCertificate? {
        var raw: UnsafeMutableRawPointer?
        guard isHTTPS else { return nil }
        // A reused connection brings no certificate: the one its origin showed when it opened.
        let origin = "\(url.host?.lowercased() ?? ""):\(url.port ?? 443)"
        guard hc_getinfo_pointer(easy, CURLINFO_CERTINFO, &raw) == CURLE_OK, let raw else { return CurlTransfer.seenCertificate(origin) }
        let info = raw.assumingMemoryBound(to: curl_certinfo.self).pointee
        guard info.num_of_certs > 0, let chain = info.certinfo else { return CurlTransfer.seenCertificate(origin) }
        var fields: [String: String] = [:]
        var item = chain[0]
        while let current = item {
            if let data = current.pointee.data {
                let line = String(cString: data)
                if let colon = line.firstIndex(of: ":") { fields[String(line[..<colon])] = String(line[line.index(after: colon)...]) }
            }
            item = current.pointee.next
        }
        guard let expiry = fields["Expire date"].flatMap(PeerCertificate.openSSLTime) else { return CurlTransfer.seenCertificate(origin) }
        let certificate = PeerCertificate(
            subject: fields["Subject"] ?? "", issuer: fields["Issuer"] ?? "", notBefore: fields["Start date"].flatMap(PeerCertificate.openSSLTime),
            notAfter: expiry)
        CurlTransfer.certificatesByOrigin.withLock { known in
            if known.count >= 10_000 { known.removeAll() }
            known[origin] = certificate
        }
        return certificate
    }

    /// The certificate each https origin (host:port) showed on its latest new connection.
    private static let certificatesByOrigin = Mutex<[String: PeerCertificate]>([:])

    private static func seenCertificate(_ origin: String) -> PeerCertificate? {
        certificatesByOrigin.withLock { $0[origin] }
    }
}
