import Dashboard
import DashboardConfig
import Foundation
import HammockHarness
import Monitor
import Redaction
import ResourceEngine
import ResourceEngineTesting
import Testing

/// What real APIs need, from the config through the engine and libcurl to a real server on
/// 127.0.0.1 (`PythonTestServer`): several services, digest, cookies, token files, logins,
/// OAuth2, bodies, per-pane requests, NDJSON.
@MainActor
@Suite(.serialized) struct ServiceSessionTests {
    let server: PythonTestServer
    let directory: String
    let clock = ManualClock(start: 900_000_000)

    init() throws {
        server = try PythonTestServer()
        directory = ScratchDirectory.path("sessions")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// A loaded config (BASE is the server) and the service it makes.
    final class Setup {
        let spec: DashboardSpec
        let service: ServiceGroup
        init(spec: DashboardSpec, service: ServiceGroup) {
            self.spec = spec
            self.service = service
        }
    }

    func setup(_ yaml: String, environment: [String: String] = [:]) throws -> Setup {
        let path = directory + "/hammock.yaml"
        let text = yaml.replacingOccurrences(of: "BASE", with: server.baseURL)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let spec = try ConfigLoader.load(path: path, environment: environment)
        return Setup(spec: spec, service: spec.makeServices(networking: CurlProvider(), clock: clock))
    }

    func load(_ setup: Setup, _ title: String) async throws -> Response {
        let pane = try #require(setup.spec.panes.first { $0.title == title })
        return await setup.spec.resource(for: pane, in: setup.service).load().result
    }

    func json(_ response: Response) -> JSON? {
        if case .success(let entity) = response { entity.content as? JSON } else { nil }
    }

    func message(_ response: Response) -> String? {
        if case .failure(let error) = response { error.userMessage } else { nil }
    }

    func status(_ response: Response) -> Int? {
        if case .failure(let error) = response { error.httpStatusCode } else { nil }
    }

    /// The server's own side, through a service of its own (no config, no credentials).
    let admin = Service(networking: CurlProvider())

    func stats() async throws -> JSON {
        try #require(json(await admin.resource(absoluteURL: server.url("/stats")).load().result))
    }

    func post(_ path: String) async throws {
        let response = await admin.resource(absoluteURL: server.url(path)).request(.post).result
        #expect(json(response)?.objectValue != nil, "\(path) answered")
    }

    // MARK: Digest, cookies, token files

    @Test func digestAuthAnswersTheChallengeAndAWrongPasswordIsRefused() async throws {
        let good = try setup("""
            services:
              api: { baseURL: BASE, auth: { digest: { user: ops, password: "${PASS}" } } }
            panes:
              - { title: Digest, service: api, resource: /digest }
            """, environment: ["PASS": "digest-pass"])
        #expect(json(try await load(good, "Digest"))?["authenticated"] == true)

        let bad = try setup(
            "service:\n  baseURL: BASE\n  auth: { digest: { user: ops, password: wrong } }\npanes:\n  - { title: Digest, resource: /digest }\n")
        #expect(status(try await load(bad, "Digest")) == 401)
    }

    @Test func cookiesSetByOneResponseGoBackWithTheNextOnlyWithAJar() async throws {
        let withJar = try setup("""
            service: { baseURL: BASE, cookies: true }
            panes:
              - { title: Set, resource: "/cookies/set?session=abc123" }
              - { title: Read, resource: /cookies }
            """)
        // The cookie set on the redirect's first hop is sent on its second.
        #expect(json(try await load(withJar, "Set"))?["cookies"]?["session"] == "abc123")
        #expect(json(try await load(withJar, "Read"))?["cookies"]?["session"] == "abc123")

        let withoutJar = try setup("""
            service: { baseURL: BASE }
            panes:
              - { title: Set, resource: "/cookies/set?session=abc123" }
              - { title: Read, resource: /cookies }
            """)
        #expect(json(try await load(withoutJar, "Set"))?["cookies"] == .object(JSONObject()))
        #expect(json(try await load(withoutJar, "Read"))?["cookies"] == .object(JSONObject()))
    }

    @Test func aTokenFileRewrittenWhileRunningIsUsedFromTheNextRequest() async throws {
        let tokenFile = directory + "/token"
        try "first-token-value\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        try await post("/admin/expect?token=first-token-value")
        let run = try setup("""
            service: { baseURL: BASE, auth: { bearer: { file: token } } }
            configure:
              - { pattern: /expected, headers: { X-Also: "${file:token}" } }
            panes:
              - { title: Expected, resource: /expected }
            """)
        #expect(json(try await load(run, "Expected"))?["ok"] == true)

        try await post("/admin/expect?token=second-token-value")
        #expect(status(try await load(run, "Expected")) == 401)

        // Rewritten in place, as a token refresher does.
        try "second-token-value\n".write(toFile: tokenFile, atomically: false, encoding: .utf8)
        #expect(json(try await load(run, "Expected"))?["ok"] == true)

        // Both values are secrets from the moment they are read.
        let redactor = Redactor(run.spec)
        #expect(redactor.redact("a first-token-value and a second-token-value") == "a ••• and a •••")
        #expect(run.spec.redactedSummary.contains("bearer ${file:token}"))
    }

    /// A value read again passes the checks it passed at load: a token file read empty mid-write,
    /// or rewritten with a control character, keeps the last good token (never `Bearer ` with
    /// none), and says so; the next good one is used from then on.
    @Test func aRotatedValueThatCannotBeUsedKeepsTheLastGoodOne() async throws {
        let tokenFile = directory + "/token"
        try "good-token-1\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let run = try setup("""
            service: { baseURL: BASE, auth: { bearer: { file: token } }, headers: { X-Key: "${file:token}" } }
            panes:
              - { title: Echo, resource: /echo }
            """)
        var reports: [String] = []
        run.service.reports.onReport { reports.append($0) }
        func sent() async throws -> (String?, String?) {
            let headers = try #require(json(try await load(run, "Echo"))?["headers"])
            return (headers["authorization"]?.stringValue, headers["x-key"]?.stringValue)
        }
        #expect(try await sent() == ("Bearer good-token-1", "good-token-1"))
        for bad in ["", "\n", "tok\u{1B}[31m", "two words"] {
            try bad.write(toFile: tokenFile, atomically: false, encoding: .utf8)
            #expect(try await sent() == ("Bearer good-token-1", bad.contains(" ") ? "two words" : "good-token-1"), "\(bad.debugDescription)")
        }
        try await drainMainQueue()
        #expect(reports.contains("${file:token}: the new value is not one word; still using the last good value"), "\(reports)")
        #expect(reports.contains { $0.contains("the file is empty; still using the last good value") }, "\(reports)")
        #expect(reports.contains("${file:token}: the new value has a control character; still using the last good value"), "\(reports)")
        try "good-token-2\n".write(toFile: tokenFile, atomically: false, encoding: .utf8)
        #expect(try await sent() == ("Bearer good-token-2", "good-token-2"))
        #expect(Redactor(run.spec).redact("good-token-1 good-token-2") == "••• •••", "the one just replaced is still masked")
    }

    // MARK: Logins

    let loginService = """
        services:
          shop:
            baseURL: BASE
            auth:
              login:
                resource: /auth/token
                body: { json: { user: ops, password: "${SHOP_PASSWORD}" } }
                token: access_token
        panes:
          - { title: Orders, service: shop, resource: /orders }
          - { title: Orders again, service: shop, resource: /orders, params: { page: "2" } }
          - { title: Orders three, service: shop, resource: /orders, params: { page: "3" } }
          - { title: Without auth, service: shop, resource: /orders, auth: none, params: { page: "4" }, expect: ["status == 401"] }
        """

    @Test func concurrentPanesShareOneLoginAndAnExpiredTokenIsRenewedOnce() async throws {
        let run = try setup(loginService, environment: ["SHOP_PASSWORD": "login-pass"])
        let titles = ["Orders", "Orders again", "Orders three"]
        let resources = titles.map { title in run.spec.resource(for: run.spec.panes.first { $0.title == title }!, in: run.service) }
        let requests = resources.map { $0.load() }
        for request in requests { #expect(json(await request.result)?["orders"]?.arrayValue?.count == 2) }
        #expect(try await stats()["logins"] == 1, "three panes, one login")

        // The token expires: the next request gets a 401, logs in again once, and is repeated.
        try await post("/admin/expire")
        #expect(json(try await load(run, "Orders"))?["orders"] != nil)
        #expect(try await stats()["logins"] == 2)

        // auth: none sends no token, so the server refuses it, and the login is not involved.
        #expect(status(try await load(run, "Without auth")) == 401)
        #expect(try await stats()["logins"] == 2)

        // Before the token's expires_in (3600 s) runs out, the next request logs in first: no 401.
        let refusals = try #require(try await stats()["unauthorized"]?.intValue)
        clock.advance(by: 3_300)
        #expect(json(try await load(run, "Orders"))?["orders"] != nil)
        #expect(try await stats()["logins"] == 3)
        #expect(try await stats()["unauthorized"]?.intValue == refusals)

        // The login is a resource like any other: its answer is there, its token a secret.
        let login = try #require(run.spec.loginResources(in: run.service).first)
        #expect(login.name == "login shop")
        let token = try #require(login.resource.json?["access_token"]?.stringValue)
        #expect(!Redactor(run.spec).redact("Bearer \(token) and \(token)").contains(token))
    }

    @Test func badCredentialsFailEveryDependentPaneClearlyWithoutALoginStorm() async throws {
        let run = try setup(loginService, environment: ["SHOP_PASSWORD": "wrong"])
        let resources = ["Orders", "Orders again"].map { title in
            run.spec.resource(for: run.spec.panes.first { $0.title == title }!, in: run.service)
        }
        let first = resources.map { $0.load() }
        for request in first { #expect(message(await request.result) == "login failed: 401 invalid credentials") }
        #expect(try await stats()["logins"] == 1)
        #expect(resources.allSatisfy { $0.latestError?.httpStatusCode == nil }, "the pane's own request never happened")

        // Within the retry time the failure stands; after it, one new try.
        #expect(message(try await load(run, "Orders three")) == "login failed: 401 invalid credentials")
        #expect(try await stats()["logins"] == 1)
        clock.advance(by: 1.5)
        #expect(message(try await load(run, "Orders three")) == "login failed: 401 invalid credentials")
        #expect(try await stats()["logins"] == 2)
    }

    @Test func oauth2ClientCredentialsGetATokenAndAWrongSecretSaysSo() async throws {
        let yaml = """
            services:
              shop:
                baseURL: BASE
                auth:
                  oauth2: { tokenURL: BASE/oauth/token, clientId: hammock, clientSecret: "${SECRET}", scopes: [orders.read] }
            panes:
              - { title: Orders, service: shop, resource: /orders }
            """.replacingOccurrences(of: "BASE/", with: server.baseURL)
        let run = try setup(yaml, environment: ["SECRET": "client-pass"])
        #expect(json(try await load(run, "Orders"))?["orders"] != nil)
        let login = try #require(run.spec.loginResources(in: run.service).first?.resource)
        #expect(login.json?["scope"] == "orders.read")
        #expect(login.json?["token_type"] == "Bearer")

        let wrong = try setup(yaml, environment: ["SECRET": "nope"])
        #expect(message(try await load(wrong, "Orders")) == "login failed: 401 invalid_client")
        #expect(Redactor(wrong.spec).redact("client secret nope, as basic \(Data("hammock:nope".utf8).base64EncodedString())") == "client secret •••, as basic •••")
    }

    // MARK: Requests

    @Test func formTextAndFileBodiesHeadersAndTimeoutsArePerPane() async throws {
        try "<ping/>".write(toFile: directory + "/ping.xml", atomically: true, encoding: .utf8)
        let run = try setup("""
            service: { baseURL: BASE, headers: { X-Team: ops, Accept-Language: en } }
            panes:
              - { title: Form, resource: /echo, method: POST, body: { form: { q: "a b&c", n: 2 } } }
              - { title: Text, resource: /echo, method: POST, body: { text: "hello", contentType: text/x-greeting } }
              - { title: File, resource: /echo, method: PUT, body: { file: ping.xml, contentType: application/xml } }
              - { title: JSON, resource: /echo, method: POST, body: { json: { text: hi } } }
              - { title: Legacy JSON, resource: /echo, method: POST, body: { query: "status:failed" } }
              - { title: German, resource: /echo, headers: { Accept-Language: de } }
              - { title: Slow, resource: "/slow?ms=3000", timeout: 300ms }
            """)
        let form = try #require(json(try await load(run, "Form")))
        #expect(form["body"] == "q=a%20b%26c&n=2")
        #expect(form["headers"]?["content-type"] == "application/x-www-form-urlencoded")
        let text = try #require(json(try await load(run, "Text")))
        #expect(text["body"] == "hello")
        #expect(text["headers"]?["content-type"] == "text/x-greeting")
        let file = try #require(json(try await load(run, "File")))
        #expect(file["method"] == "PUT")
        #expect(file["body"] == "<ping/>")
        #expect(file["headers"]?["content-type"] == "application/xml")
        #expect(json(try await load(run, "JSON"))?["body"] == #"{"text":"hi"}"#)
        #expect(json(try await load(run, "Legacy JSON"))?["body"] == #"{"query":"status:failed"}"#)
        let german = try #require(json(try await load(run, "German")))
        #expect(german["headers"]?["accept-language"] == "de", "the pane's header over the service's")
        #expect(german["headers"]?["x-team"] == "ops", "the service's other headers stay")
        #expect(message(try await load(run, "Slow")) == "The request timed out")
    }

    @Test func aPanesOwnPipelineShapesOnlyItsOwnResource() async throws {
        let run = try setup("""
            service: { baseURL: BASE }
            configure:
              - { pattern: /echo, pipeline: { model: [ { select: headers } ] } }
            panes:
              - { title: Whole, resource: /echo }
              - { title: Agent, resource: /echo, pipeline: { cleanup: [ { select: user-agent } ] } }
            """)
        #expect(json(try await load(run, "Whole"))?["host"] != nil, "the configure block applies")
        let agentResponse = try await load(run, "Agent")
        #expect(json(agentResponse) == .string("hammock"), "then the pane's own stage: \(agentResponse)")
        let whole = run.spec.resource(for: run.spec.panes[0], in: run.service)
        let agent = run.spec.resource(for: run.spec.panes[1], in: run.service)
        #expect(whole !== agent && whole.json?["host"] != nil, "each pane keeps its own content")
    }

    @Test func ndjsonParsesToAListOfValues() async throws {
        let run = try setup("service: { baseURL: BASE }\npanes:\n  - { title: Log, resource: /ndjson }\n")
        let list = try #require(json(try await load(run, "Log"))?.arrayValue)
        #expect(list.map { $0["level"] } == ["info", "warn", "error"])

        let xml = try setup("service: { baseURL: BASE }\npanes:\n  - { title: XML, resource: /xml }\n")
        guard case .success(let entity) = try await load(xml, "XML") else { Issue.record("no XML"); return }
        #expect(entity.content as? String == #"<?xml version="1.0"?><status>up</status>"#, "XML stays text")
    }

    @Test func eachNamedServiceHasItsOwnBaseHeadersAndCredentialsOnlyAtItsOrigin() async throws {
        let other = try PythonTestServer()
        defer { other.stop() }
        let run = try setup("""
            services:
              shop: { baseURL: BASE, headers: { X-Team: ops }, auth: { bearer: "${SHOP_TOKEN}" } }
              billing: { baseURL: \(other.baseURL)v1/, headers: { X-Billing: yes } }
            panes:
              - { title: Shop, service: shop, resource: /echo }
              - { title: Billing, service: billing, resource: /echo }
              - { title: Billing by URL, service: shop, resource: \(other.baseURL)echo }
            """, environment: ["SHOP_TOKEN": "shop-secret-token"])
        let shop = try #require(json(try await load(run, "Shop"))?["headers"])
        #expect(shop["x-team"] == "ops")
        #expect(shop["authorization"] == "Bearer shop-secret-token")
        #expect(shop["x-billing"] == nil)
        let billing = try #require(json(try await load(run, "Billing")))
        #expect(billing["path"] == "/v1/echo")
        #expect(billing["headers"]?["x-billing"] == "yes", "\(billing)")
        #expect(billing["headers"]?["authorization"] == nil)
        #expect(billing["headers"]?["x-team"] == nil)
        // An absolute URL elsewhere gets the settings of the origin it goes to, not the pane's service.
        let byURL = try #require(json(try await load(run, "Billing by URL"))?["headers"])
        #expect(byURL["authorization"] == nil)
        #expect(byURL["x-team"] == nil)
    }

    /// Two services whose base URLs overlap (`BASE` and `BASE-/`): each pane's request has its own
    /// service's headers and timeout, never the other's, and the same URL requested by panes of
    /// the two services is two requests, not one shared.
    @Test func aPanesServiceDecidesItsRequestHoweverTheBaseURLsOverlap() async throws {
        let run = try setup("""
            services:
              wide: { baseURL: BASE, headers: { X-Wide: w }, timeout: 5s }
              narrow: { baseURL: BASE-/, headers: { X-Narrow: n }, timeout: 300ms }
            panes:
              - { title: Wide, service: wide, resource: /-/echo }
              - { title: Narrow, service: narrow, resource: echo }
              - { title: Wide and slow, service: wide, resource: "/-/slow?ms=700" }
            """)
        let wide = try #require(json(try await load(run, "Wide"))?["headers"])
        #expect(wide["x-wide"] == "w")
        #expect(wide["x-narrow"] == nil, "the longer base URL of another service does not apply")
        let narrow = try #require(json(try await load(run, "Narrow"))?["headers"])
        #expect(narrow["x-narrow"] == "n")
        #expect(narrow["x-wide"] == nil)
        #expect(json(try await load(run, "Wide and slow"))?["slow"] == true, "its own service's timeout, not the other's 300 ms")

        let resources = run.spec.panes.prefix(2).map { run.spec.resource(for: $0, in: run.service) }
        #expect(resources[0].url == resources[1].url)
        #expect(resources[0] !== resources[1], "one URL, two services: two requests")
    }
}
