import Dashboard
import DashboardConfig
import Foundation
import HammockHarness
import Monitor
import ResourceEngine
import ResourceEngineTesting
import Testing

/// Sessions as real APIs keep them (header tokens, Retry-After, waiting for a login) and the
/// cookie jar's bounds, against the same Python server.
extension ServiceSessionTests {
    // MARK: Sessions real APIs use

    /// A token that comes in a response header: Keystone's `X-Subject-Token` after a login, and
    /// Transmission's RPC, whose 409 carries the session id every request must send, again
    /// whenever the server changes it — one 409 each time, never a loop.
    @Test func aTokenFromAResponseHeaderAndTransmissionsSessionDance() async throws {
        let run = try setup("""
            services:
              keystone:
                baseURL: BASEkeystone/
                auth: { login: { resource: /auth/tokens, body: { json: { user: ops } }, token: header.X-Subject-Token, header: X-Auth-Token, scheme: "" } }
              tx:
                baseURL: BASEtransmission/
                auth:
                  login:
                    resource: /rpc
                    body: { json: { method: session-get } }
                    token: header.X-Transmission-Session-Id
                    header: X-Transmission-Session-Id
                    scheme: ""
                    refreshOn: [409]
            panes:
              - { title: Projects, service: keystone, resource: /projects }
              - { title: Torrents, service: tx, resource: /rpc, method: POST, body: { method: torrent-get } }
              - { title: Stats, service: tx, resource: /rpc, method: POST, body: { method: session-stats } }
            """)
        #expect(json(try await load(run, "Projects"))?["projects"]?[0]?["name"] == "demo", "the header's token in X-Auth-Token")
        #expect(try await stats()["keystone"] == 1)

        #expect(json(try await load(run, "Torrents"))?["result"] == "success")
        #expect(json(try await load(run, "Stats"))?["result"] == "success")
        #expect(try await stats()["conflicts"] == 1, "one 409, for the login; both panes then send the id")

        try await post("/admin/transmission/rotate")
        #expect(json(try await load(run, "Torrents"))?["result"] == "success", "a new id: taken from the 409, the request repeated")
        #expect(json(try await load(run, "Stats"))?["result"] == "success")
        #expect(try await stats()["conflicts"] == 2)
        #expect(try await stats()["hits"]?["/transmission/rpc"] == 6, "login, 2 panes, 409 and its repeat, the other pane")
    }

    /// A login answered 429 with `Retry-After: 165` is not tried again for 165 s, and failed logins
    /// back off: each waits twice as long as the one before.
    @Test func aFailedLoginHonoursRetryAfterAndBacksOff() async throws {
        let limited = try setup("""
            services:
              api:
                baseURL: BASE
                auth: { login: { resource: /limited/login, body: { json: { user: ops } } } }
            panes:
              - { title: Orders, service: api, resource: /orders }
            """)
        let message = try #require(message(try await load(limited, "Orders")))
        #expect(message == "login failed: 429 slow down (the server asks to wait 2m45s)", "\(message)")
        for _ in 0..<10 {
            clock.advance(by: 15)
            #expect(self.message(try await load(limited, "Orders"))?.hasPrefix("login failed: 429") == true)
        }
        #expect(try await stats()["limited"] == 1, "150 s later, still the one login")
        clock.advance(by: 16)
        _ = try await load(limited, "Orders")
        #expect(try await stats()["limited"] == 2, "after 165 s, one more")

        let refused = try setup(loginService, environment: ["SHOP_PASSWORD": "wrong"])
        let before = try #require(try await stats()["logins"]?.intValue)
        var logins: [Int] = []
        for _ in 0..<16 {
            _ = try await load(refused, "Orders")
            logins.append(try #require(try await stats()["logins"]?.intValue) - before)
            clock.advance(by: 1)
        }
        // retry 1 s, then 2, 4, 8 s between tries.
        #expect(logins == [1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5], "\(logins)")
    }

    /// A login answer without a usable token (HTML, no `access_token`, `null`, a token with a
    /// space, CR-LF or ESC) is a failed login: no request of the service goes out without its
    /// token, and the panes say why.
    @Test func noRequestGoesOutWithoutItsToken() async throws {
        let expected = [
            "html": "login failed: the answer has no access_token", "missing": "login failed: the answer has no access_token",
            "null": "login failed: the answer has no access_token",
            "spaces": "login failed: its access_token is not one word (a token has no spaces, line breaks or control characters)",
            "crlf": "login failed: its access_token is not one word (a token has no spaces, line breaks or control characters)",
            "escape": "login failed: its access_token is not one word (a token has no spaces, line breaks or control characters)",
        ]
        for (kind, message) in expected.sorted(by: { $0.key < $1.key }) {
            let run = try setup("""
                services:
                  api:
                    baseURL: BASEbad/
                    auth: { login: { resource: "/login?kind=\(kind)", body: { json: { user: ops } } } }
                panes:
                  - { title: Echo, service: api, resource: /echo }
                """)
            #expect(self.message(try await load(run, "Echo")) == message, "\(kind)")
            clock.advance(by: 5)
            #expect(self.message(try await load(run, "Echo")) == message, "\(kind), after another login")
        }
        #expect(try await stats()["hits"]?["/bad/echo"] == nil, "not one request went out without a token")
    }

    // MARK: Cookies

    /// A jar keeps at most its limit, the newest first (the session a server just set survives),
    /// and says when it drops some; a server setting 50 cookies per answer cannot grow it.
    @Test func theCookieJarIsBoundedAndSaysWhenItDrops() async throws {
        let run = try setup("""
            service: { baseURL: BASE, cookies: true }
            panes:
              - { title: Flood, resource: /cookies/flood }
              - { title: Jar, resource: /cookies }
            """)
        var reports: [String] = []
        run.service.reports.onReport { reports.append($0) }
        for _ in 0..<10 { _ = try await load(run, "Flood") }
        let carried = try #require(json(try await load(run, "Jar"))?["cookies"]?.objectValue)
        #expect(carried.count <= 150, "\(carried.count) cookies went with the request")
        #expect(carried["session"]?.stringValue?.hasPrefix("keep-") == true, "the session the last answer set is kept: \(carried.keys.sorted().prefix(8)) of \(carried.count)")
        try await drainMainQueue()
        #expect(reports.contains { $0.hasPrefix("cookie jar service: the server set more than 150 cookies; dropped") }, "\(reports)")
    }

    /// A jar's cookies stay with the origin that set them: a redirect to another port of the same
    /// host carries none (cookies know no ports; Hammock's jar does).
    @Test func jarCookiesNeverGoToAnotherPort() async throws {
        let other = try PythonTestServer()
        defer { other.stop() }
        let run = try setup("""
            service: { baseURL: BASE, cookies: true }
            panes:
              - { title: Bounce, resource: "/cookies/bounce", params: { session: "s3cret-cookie", to: "\(other.url("/cookies"))" } }
              - { title: Home, resource: /cookies }
            """)
        let elsewhere = try #require(json(try await load(run, "Bounce"))?["cookies"]?.objectValue)
        #expect(elsewhere.isEmpty, "the other port got \(elsewhere)")
        let home = try #require(json(try await load(run, "Home"))?["cookies"]?.objectValue)
        #expect(home["session"] == "s3cret-cookie", "its own origin still gets it")
    }
}
