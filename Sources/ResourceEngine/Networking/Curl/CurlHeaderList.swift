import CCurl

/// A header list made once and lent to every transfer that sends only the provider's own lines
/// (`User-Agent`, `Accept-Encoding`): a plain GET does not build, copy and free a list of its own.
///
/// libcurl only reads a list it is given; each transfer holds this one while its handle points at
/// it and takes it off the handle before the handle goes back to the pool.
final class CurlHeaderList: @unchecked Sendable {
    /// The list; never changed after `init`.
    let list: UnsafeMutablePointer<curl_slist>?

    /// The lines in order; nil when libcurl could not copy one.
    init?(_ lines: [String]) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let appended = line.withCString({ curl_slist_append(list, $0) }) else {
                curl_slist_free_all(list)
                return nil
            }
            list = appended
        }
        self.list = list
    }

    deinit {
        curl_slist_free_all(list)
    }
}
