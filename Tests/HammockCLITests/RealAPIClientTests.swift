import Foundation
import Glibc
import HammockHarness
import ResourceEngine
import Testing

/// TLS, authentication, redirects and per-pane requests, against real servers on 127.0.0.1,
/// through `hammock snapshot` as a user runs it.
@Suite struct RealAPIClientTests {
    let pki: TestCertificates
    let directory: String

    init() throws {
        pki = try TestCertificates()
        directory = ScratchDirectory.path("clients")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Configs name the CA by a path relative to themselves.
        try FileManager.default.copyItem(atPath: pki.caCertificate, toPath: directory + "/ca.pem")
    }

    private func run(_ yaml: String, _ arguments: [String] = ["--json"], environment extra: [String: String] = [:]) async throws -> ProcessRunner.Outcome {
        let path = directory + "/\(UUID().uuidString).yaml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["no_proxy"] = "127.0.0.1,localhost"
        for (key, value) in extra { environment[key] = value }
        let command = arguments.first == "check" ? ["check", path] : ["snapshot", path] + arguments
        return try await ProcessRunner.capture([CLITests.binary] + command, environment: environment, timeout: 60)
    }

    private func panes(_ outcome: ProcessRunner.Outcome) throws -> [JSON] {
        try #require(try JSONParser.parse(outcome.output)["panes"]?.arrayValue)
    }

    @Test func aPrivateCAIsTrustedOnlyWhenConfiguredAndInsecureIsMarked() async throws {
        let server = try PythonTestServer(certificate: try pki.leaf(name: "server"))
        defer { server.stop() }
        let pane = "panes:\n  - { title: Health, resource: /health, show: json }\n"

        let untrusted = try await run("service:\n  baseURL: \(server.baseURL)\n" + pane)
        #expect(untrusted.status == 1)
        #expect(try panes(untrusted)[0]["error"]?.stringValue?.contains("certificate") == true, "\(untrusted.output)")

        let trusted = try await run("service:\n  baseURL: \(server.baseURL)\n  tls: { ca: ca.pem }\n" + pane)
        #expect(trusted.status == 0, "\(trusted.output)")
        #expect(try panes(trusted)[0]["data"]?["ok"] == true)

        // CURL_CA_BUNDLE wins over SSL_CERT_FILE, as for the curl tool; empty counts as unset.
        for variable in ["SSL_CERT_FILE", "CURL_CA_BUNDLE"] {
            var environment = ["CURL_CA_BUNDLE": ""]
            environment[variable] = directory + "/ca.pem"
            let fromEnvironment = try await run("service:\n  baseURL: \(server.baseURL)\n" + pane, environment: environment)
            #expect(fromEnvironment.status == 0, "\(variable) is honoured: \(fromEnvironment.output)")
        }

        let insecure = try await run("service:\n  baseURL: \(server.baseURL)\n  tls: { insecure: true }\n" + pane, ["--width", "80", "--height", "6"])
        #expect(insecure.status == 0)
        #expect(insecure.output.contains("Health · TLS unverified"), "\(insecure.output)")
    }

    @Test func aClientCertificateIsPresentedWhenTheServerAsksForOne() async throws {
        let server = try PythonTestServer(certificate: try pki.leaf(name: "server"), clientCA: pki.caCertificate)
        defer { server.stop() }
        let client = try pki.leaf(name: "me", client: true)
        let pane = "panes:\n  - { title: Health, resource: /health, show: json }\n"

        let without = try await run("service:\n  baseURL: \(server.baseURL)\n  tls: { ca: ca.pem }\n" + pane)
        #expect(without.status == 1)

        let with = try await run(
            "service:\n  baseURL: \(server.baseURL)\n  tls: { ca: ca.pem, clientCert: \(client.certificate), clientKey: \(client.key) }\n" + pane)
        #expect(with.status == 0, "\(with.output)")
    }

    /// A pane of a service with a client certificate keeps it, though another service's base URL
    /// (`BASE-/`) matches its path (`/-/healthy`) more closely.
    @Test func aPaneKeepsItsServicesClientCertificateUnderAnotherServicesBaseURL() async throws {
        let server = try PythonTestServer(certificate: try pki.leaf(name: "server"), clientCA: pki.caCertificate)
        defer { server.stop() }
        let client = try pki.leaf(name: "me", client: true)
        let outcome = try await run("""
            services:
              am: { baseURL: "\(server.baseURL)", tls: { ca: ca.pem, clientCert: \(client.certificate), clientKey: \(client.key) } }
              ui: { baseURL: "\(server.baseURL)-/", tls: { ca: ca.pem } }
            panes:
              - { title: Healthy, service: am, resource: /-/healthy, show: json }
            """)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(try panes(outcome)[0]["data"]?["path"] == "/-/healthy")
    }

    /// A client certificate the server refuses (TLS 1.3 says so after the handshake, at the first
    /// write or read) reads the same on every pane, and so does a missing one.
    @Test func aRefusedClientCertificateSaysSoOnEveryPane() async throws {
        let server = try PythonTestServer(certificate: try pki.leaf(name: "server"), clientCA: pki.caCertificate)
        defer { server.stop() }
        let otherAuthority = try TestCertificates()
        let stranger = try otherAuthority.leaf(name: "stranger", client: true)
        let refused = try await run("""
            service:
              baseURL: \(server.baseURL)
              tls: { ca: ca.pem, clientCert: \(stranger.certificate), clientKey: \(stranger.key) }
            panes:
              - { title: A, resource: /a }
              - { title: B, resource: /b, method: POST, body: { x: 1 } }
              - { title: C, resource: /c }
            """)
        #expect(refused.status == 1)
        let errors = try panes(refused).map { $0["error"]?.stringValue }
        #expect(errors == Array(repeating: "The server refused our client certificate (tls.clientCert)", count: 3), "\(refused.output)")

        let missing = try await run("service:\n  baseURL: \(server.baseURL)\n  tls: { ca: ca.pem }\npanes:\n  - { title: A, resource: /a }\n")
        let unsent = try #require(try panes(missing)[0]["error"]?.stringValue)
        #expect(unsent.contains("client certificate (set tls.clientCert") || unsent.contains("may require a client certificate"), "\(missing.output)")
        withExtendedLifetime(otherAuthority) {}
    }

    /// An encrypted client key is a problem at load unless its passphrase is given (from the
    /// environment or a file); with it, the pane works. Nothing ever prompts.
    @Test func anEncryptedKeyNeedsItsPassphraseAtLoad() async throws {
        let server = try PythonTestServer(certificate: try pki.leaf(name: "server"), clientCA: pki.caCertificate)
        defer { server.stop() }
        let client = try pki.leaf(name: "me", client: true)
        let encrypted = directory + "/me-encrypted.key"
        let made = try await ProcessRunner.capture(
            ["openssl", "pkey", "-in", client.key, "-aes256", "-passout", "pass:sesame", "-out", encrypted], environment: ProcessInfo.processInfo.environment,
            timeout: 30)
        #expect(made.status == 0)
        let yaml = """
            service:
              baseURL: \(server.baseURL)
              tls: { ca: ca.pem, clientCert: \(client.certificate), clientKey: \(encrypted)PASSWORD }
            panes:
              - { title: Health, resource: /health, show: json }
            """
        let check = try await run(yaml.replacingOccurrences(of: "PASSWORD", with: ""), ["check"])
        #expect(check.status == 2)
        #expect(check.errors.contains(":3:") && check.errors.contains("tls.clientKey is encrypted: give its passphrase as service.tls.clientKeyPassword"), "\(check.errors)")
        let with = try await run(yaml.replacingOccurrences(of: "PASSWORD", with: ", clientKeyPassword: \"${KEYPASS}\""), environment: ["KEYPASS": "sesame"])
        #expect(with.status == 0, "\(with.output)\(with.errors)")
        #expect(!with.output.contains("sesame"))
    }

    /// A FIFO (or a device) where a certificate or key should be is a problem at load: reading it
    /// would block every pane.
    @Test func aFIFOAsACertificateOrKeyIsAProblem() async throws {
        let fifo = directory + "/trap.pem"
        #expect(mkfifo(fifo, 0o600) == 0)
        for key in ["ca", "clientCert"] {
            let outcome = try await run("service:\n  baseURL: https://127.0.0.1:1/\n  tls: { \(key): \(fifo) }\npanes:\n  - { title: A, resource: /a }\n", ["check"])
            #expect(outcome.status == 2)
            #expect(outcome.errors.contains("service.tls.\(key): \(fifo) is not a regular file"), "\(outcome.errors)")
        }
    }

    @Test func basicAuthIsSentToTheServiceAndNeverShownAndAPaneCanGoWithout() async throws {
        let server = try PythonTestServer(certificate: try pki.leaf(name: "server"))
        defer { server.stop() }
        let yaml = """
            service:
              baseURL: \(server.baseURL)
              tls: { ca: ca.pem }
              auth:
                basic: { user: ops, password: "${SHOP_PASSWORD}" }
            panes:
              - title: With
                resource: /echo
                headers: { X-Team: blue }
                expect: ["body.headers.authorization == 'Basic b3BzOnMzY3JldC1wYXNz'", "body.headers.x-team == blue"]
              - title: Without
                resource: /echo
                auth: none
            """
        let outcome = try await run(yaml, environment: ["SHOP_PASSWORD": "s3cret-pass"])
        #expect(outcome.status == 0, "\(outcome.output)")
        let list = try panes(outcome)
        #expect(list[0]["unmet"] == .null)
        #expect(list[1]["data"]?["headers"]?["authorization"] == nil, "auth: none sends no Authorization")
        #expect(list[1]["data"]?["headers"]?["x-team"] == nil, "pane headers stay on their pane")
        for secret in ["s3cret-pass", "b3BzOnMzY3JldC1wYXNz"] { #expect(!outcome.output.contains(secret)) }

        let check = try await run(yaml, ["check"], environment: ["SHOP_PASSWORD": "s3cret-pass"])
        #expect(check.status == 0)
        #expect(check.output.contains("auth basic ops:${SHOP_PASSWORD}"))
        #expect(!check.output.contains("s3cret-pass"))
    }

    @Test func bearerTokensAreSentAndRedacted() async throws {
        let server = try PythonTestServer(certificate: try pki.leaf(name: "server"))
        defer { server.stop() }
        let yaml = """
            service:
              baseURL: \(server.baseURL)
              tls: { ca: ca.pem }
              auth: { bearer: "${SHOP_TOKEN}" }
            panes:
              - title: Echo
                resource: /echo
                expect: ["body.headers.authorization == 'Bearer tok-123456'"]
            """
        let outcome = try await run(yaml, environment: ["SHOP_TOKEN": "tok-123456"])
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(!outcome.output.contains("tok-123456"))
    }

    @Test func redirectsZeroShowsTheRedirectItself() async throws {
        let server = try PythonTestServer(certificate: try pki.leaf(name: "server"))
        defer { server.stop() }
        let yaml = """
            service:
              baseURL: \(server.baseURL)
              tls: { ca: ca.pem }
              redirects: 0
            panes:
              - title: Moved
                resource: /redirect
                params: { status: "302", to: /health }
                expect: ["status == 302", "header.location == /health"]
            """
        let outcome = try await run(yaml)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(try panes(outcome)[0]["status"] == 302)
    }

    @Test func aPaneTimeoutIsItsOwn() async throws {
        let api = try await DemoProcess.start(slowDelay: .seconds(3))
        defer { api.stop() }
        let yaml = """
            service:
              baseURL: \(api.baseURL)
              timeout: 10s
            panes:
              - { title: Impatient, resource: /slow, timeout: 200ms }
            """
        let outcome = try await run(yaml)
        #expect(outcome.status == 1)
        #expect(try panes(outcome)[0]["error"] == "The request timed out")
    }

    @Test func checkNamesEveryTransportAndAuthProblemWithItsPlace() async throws {
        let yaml = """
            service:
              baseURL: https://127.0.0.1:1/
              tls: { ca: missing.pem, clientKey: ca.pem }
              auth:
                basic: { user: a, password: b }
                bearer: c
              redirects: 99
            panes:
              - { title: A, resource: /a, auth: basic }
            """
        let outcome = try await run(yaml, ["check"])
        #expect(outcome.status != 0)
        let text = outcome.output + outcome.errors
        #expect(text.contains(":3:") && text.contains("service.tls.ca: no file at missing.pem"))
        #expect(text.contains("service.tls.clientKey needs service.tls.clientCert"))
        #expect(text.contains("service.auth names basic and bearer; use one kind"))
        #expect(text.contains("service.redirects"))
        #expect(text.contains("a pane's auth can only be none"))
    }
}
