import CCurl

/// libcurl's cookie engine for one `CookieJar`: a share handle every transfer with that jar uses,
/// in memory only (no cookie file is read or written).
final class CurlCookieStore: @unchecked Sendable {
    // Guarded by the share's own lock (see hc_cookie_share_new); freed only after every transfer
    // holding this store has released its handle.
    let shared: UnsafeMutablePointer<hc_cookie_share>

    private init(shared: UnsafeMutablePointer<hc_cookie_share>) {
        self.shared = shared
    }

    /// The store for `jar`, made on first use; nil if libcurl cannot make a share handle.
    static func store(for jar: CookieJar) -> CurlCookieStore? {
        jar.providerStore { hc_cookie_share_new().map(CurlCookieStore.init) }
    }

    deinit {
        hc_cookie_share_free(shared)
    }
}
