import Dashboard
import DashboardConfig
import Foundation
import HammockHarness
import Monitor
import Redaction
import ResourceEngine
import Testing

/// The `c` command runs as pasted: run through a real shell and `curl` against a server on
/// 127.0.0.1 that echoes what it got, it sends what Hammock itself sends, whatever the URL holds,
/// and pasting it runs nothing but curl, whatever the config's values hold.
@MainActor
@Suite(.serialized) struct CurlCommandOverHTTPTests {
    let server: PythonTestServer
    let directory: String

    init() throws {
        server = try PythonTestServer()
        directory = ScratchDirectory.path("curl-over-http")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// What the server got: method, raw target, body, and the headers a config sets.
    struct Received: Equatable, CustomStringConvertible {
        let method: String
        var target: String
        let body: String
        let headers: [String: String]
        var description: String { "\(method) \(target) \(headers) \(body)" }

        /// The same target as a form decoder reads it: percent escapes in upper case, `+` in the
        /// query as `%20` (RFC 3986 §6.2.2.1; application/x-www-form-urlencoded).
        mutating func normalizeQueryEncoding() {
            var out = ""
            var scalars = Array(target.unicodeScalars)[...]
            var inQuery = false
            while let scalar = scalars.popFirst() {
                if scalar == "?" { inQuery = true }
                if scalar == "%", scalars.count >= 2 {
                    out += "%" + String(String.UnicodeScalarView(scalars.prefix(2))).uppercased()
                    scalars = scalars.dropFirst(2)
                } else if inQuery, scalar == "+" {
                    out += "%20"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            target = out
        }

        init?(_ json: JSON?) {
            guard let json, let method = json["method"]?.stringValue, let target = json["path"]?.stringValue else { return nil }
            self.method = method
            self.target = target
            body = json["body"]?.stringValue ?? ""
            var headers: [String: String] = [:]
            for (name, value) in json["headers"]?.objectValue?.members ?? [] where name.hasPrefix("x-") || name == "content-type" || name == "authorization" {
                headers[name] = value.stringValue
            }
            self.headers = headers
        }
    }

    private func run(_ command: String, environment: [String: String]) async throws -> ProcessRunner.Outcome {
        var env = ProcessInfo.processInfo.environment
        env["no_proxy"] = "127.0.0.1,localhost"
        for (key, value) in environment { env[key] = value }
        return try await ProcessRunner.capture(["/bin/bash", "-c", command], environment: env, timeout: 30)
    }

    @Test func pastedItSendsWhatHammockSendsForAnyURL() async throws {
        let environment = ["TEAM": "blue team", "LIMIT": "5&x=1 +2"]
        let spec = try ConfigLoader.parse("""
            service:
              baseURL: \(server.baseURL)api/
              headers: { X-Team: "${TEAM}", X-Tenant: "${TENANT:-acme corp}" }
            panes:
              - { title: PromQL, resource: /v1/echo, params: { query: 'rate(http_requests_total{job="prometheus"}[1m]) > 0', limit: "${LIMIT}" } }
              - { title: Written, resource: "/v1/echo?query=up == 1&range=[1m]&match={job=\\"x\\"}" }
              - { title: Escapes, resource: "/p%2Fq/echo?a=1+2&b=%2B&c=100%25" }
              - { title: Accents, resource: "/café/echo?name=Zoë&city=Zürich" }
              - { title: Absolute, resource: "\(server.baseURL)elsewhere/echo?x=[1]&y={2}" }
              - { title: Posted, resource: /v1/echo, method: POST, body: { json: { q: "a b", n: [1, 2] } }, params: { dry: "true" } }
            """, file: directory + "/curl.yaml", environment: environment)
        let services = spec.makeServices(networking: CurlProvider(), clock: SystemClock())
        defer { services.tearDown() }
        for pane in spec.panes {
            let response = await spec.resource(for: pane, in: services).load().result
            guard case .success(let entity) = response else {
                Issue.record("\(pane.title): Hammock's own request failed: \(response)")
                continue
            }
            let sent = try #require(Received(entity.content as? JSON), "\(pane.title)")
            let command = CurlCommand.make(for: pane, in: spec, redactor: Redactor(spec))
            let pasted = try await run(command, environment: environment)
            #expect(pasted.status == 0, "\(pane.title): \(command)\n\(pasted.errors)")
            var got = Received(try? JSONParser.parse(pasted.output))
            if pane.params.contains(where: { $0.value.fromEnvironment }) {
                // Values from the environment are encoded by curl when the command runs (its
                // `--url-query`): `%3d` for `%3D`, `+` for a space, the same URL to the server.
                got?.normalizeQueryEncoding()
            }
            #expect(got == sent, "\(pane.title): curl sent \(String(describing: got)), Hammock \(sent)\n\(command)")
        }
    }

    /// Nothing a config value holds runs when the command is pasted: a fallback, a path, a
    /// digest user or a literal `$${…}` that looks like a command substitution stays text.
    @Test func pastedItRunsNothingButCurl() async throws {
        let planted = directory + "/planted"
        let payload = "$(touch \(planted))"
        let spec = try ConfigLoader.parse("""
            services:
              api:
                baseURL: \(server.baseURL)
                headers: { X-Fallback: "${UNSET_HAMMOCK_VAR:-\(payload)}", X-Literal: "$${\(payload)} `touch \(planted)` \\"; touch \(planted); \\"" }
                auth: { digest: { user: "u$(touch \(planted))", password: "${UNSET_PW:-p'w$(touch \(planted))}" } }
            panes:
              - { title: Echo, service: api, resource: "/x/$(touch \(planted))/echo", params: { q: "'; touch \(planted); '" } }
            """, file: directory + "/inert.yaml", environment: [:])
        let command = CurlCommand.make(for: spec.panes[0], in: spec, redactor: Redactor(spec))
        let pasted = try await run(command, environment: [:])
        #expect(!FileManager.default.fileExists(atPath: planted), "pasting ran a command from the config:\n\(command)")
        let got = try #require(Received(try? JSONParser.parse(pasted.output)), "\(command)\n\(pasted.output)\(pasted.errors)")
        #expect(got.headers["x-fallback"] == payload, "the fallback is sent as written")
        #expect(got.headers["x-literal"]?.hasPrefix("${" + payload + "}") == true)
        #expect(got.target.contains("/x/$(touch"))
    }
}
