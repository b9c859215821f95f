import CCurl
import FoundationEssentials
import TextBasics

extension CurlTransfer {
    /// Keeps the jar within its limit after an exchange (browsers bound theirs the same way): the
    /// cookies the last answer set are kept first, then others up to the limit; the rest are
    /// dropped, and the jar is told how many. Runs on the transfer thread, between transfers, so
    /// no other transfer changes the jar meanwhile.
    func trimCookies() {
        guard let jar = cookieJar, cookieStore != nil, cookiesAttached else { return }
        var raw: UnsafeMutableRawPointer?
        guard hc_getinfo_pointer(easy, CURLINFO_COOKIELIST, &raw) == CURLE_OK, let raw else { return }
        let list = raw.assumingMemoryBound(to: curl_slist.self)
        defer { curl_slist_free_all(list) }
        var lines: [String] = []
        var item: UnsafeMutablePointer<curl_slist>? = list
        while let current = item {
            if let data = current.pointee.data { lines.append(String(cString: data)) }
            item = current.pointee.next
        }
        guard lines.count > jar.limit else { return }
        // Netscape format: domain, subdomains, path, secure, expiry, name, value (tab-separated).
        let headers = received.headers
        let recent = CurlTransfer.cookieNames(setBy: headers["set-cookie"])
        let name = { (line: String) in line.split(separator: "\t", omittingEmptySubsequences: false).dropFirst(5).first.map(String.init) ?? "" }
        let ordered = lines.filter { recent.contains(name($0)) } + lines.filter { !recent.contains(name($0)) }
        let kept = ordered.prefix(jar.limit)
        _ = "ALL".withCString { hc_setopt_pointer(easy, CURLOPT_COOKIELIST, $0) }
        for line in kept { _ = line.withCString { hc_setopt_pointer(easy, CURLOPT_COOKIELIST, $0) } }
        jar.onDrop?("cookie jar \(jar.name): the server set more than \(jar.limit) cookies; dropped \(lines.count - kept.count), kept the newest")
    }

    /// The names of the cookies in a response's `Set-Cookie` values as the header block joined
    /// them (`a=1; Path=/, b=2`): what stands before `=` at the start of each.
    static func cookieNames(setBy joined: String?) -> Set<String> {
        guard let joined else { return [] }
        var names = Set<String>()
        for part in joined.components(separatedBy: ", ") {
            guard let equals = part.firstIndex(of: "=") else { continue }
            names.insert(part[..<equals].trimmingWhitespace())
        }
        return names
    }
}
