import FlyingFox
import Foundation
import Glibc
import HammockHarness
import LoopbackHTTP
import ResourceEngine
import Testing

/// Secrets never leave in clear: a config with secrets in a header, the base URL's user-info, a
/// param and a path segment, against a server that echoes everything it receives, and every
/// channel `hammock` writes to grepped for them (raw, percent-encoded and base64).
@Suite(.serialized) struct SecretsTests {
    static let environment = [
        "PASS": "pw-98765zz", "KEY": "key-4f9a2cde", "TOKEN": "tok/5555 abcd", "ACCOUNT": "acct-31337x",
        "no_proxy": "127.0.0.1,localhost",
    ]

    /// Every form a secret could take on the way out.
    static var forbidden: [String] {
        var forms: [String] = []
        for key in ["PASS", "KEY", "TOKEN", "ACCOUNT"] {
            let value = environment[key]!
            forms += [value, value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!, value.replacingOccurrences(of: " ", with: "%20")]
        }
        forms.append(Data("ops:pw-98765zz".utf8).base64EncodedString())
        return Array(Set(forms))
    }

    static func leaks(_ text: String) -> [String] { forbidden.filter { text.contains($0) } }

    private func temporaryDirectory() throws -> String {
        let url = URL(fileURLWithPath: ScratchDirectory.path("secrets"))
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Echoes the method, the raw target and every header back as JSON; `/fail/…` does so with a 500.
    private static func startEcho() async throws -> LocalTestServer {
        try await LocalTestServer.start { server in
            await server.appendRoute("*") { request in
                var headers: JSONObject = [:]
                for (name, value) in request.headers { headers[name.rawValue.lowercased()] = .string(value) }
                let json: JSON = ["target": .string(request.target.rawValue), "headers": .object(headers), "message": .string("echo of \(request.target.rawValue)")]
                let status: HTTPStatusCode = request.path.hasPrefix("/fail") ? .internalServerError : .ok
                return HTTPResponse(statusCode: status, headers: HTTPHeaders([.contentType: "application/json"]), body: try json.serialized())
            }
        }
    }

    private func config(port: UInt16, in directory: String) throws -> String {
        let path = directory + "/secrets.yaml"
        try """
            title: Secrets
            service:
              baseURL: http://ops:${PASS}@127.0.0.1:\(port)/
              headers:
                X-Api-Key: ${KEY}
            configure:
              - pattern: /fail/**
                pipeline:
                  cleanup: [ { errorMessage: [message] } ]
            panes:
              - title: Account
                resource: /accounts/${ACCOUNT}/status
                params: { token: "${TOKEN}", page: "1" }
                show: json
              - title: Failing
                resource: /fail/${ACCOUNT}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func hammock(_ arguments: [String], in directory: String? = nil) async throws -> ProcessRunner.Outcome {
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in Self.environment { environment[key] = value }
        let command = "umask 000; exec '\(CLITests.binary)' \"$@\""
        return try await ProcessRunner.capture(["/bin/sh", "-c", (directory.map { "cd '\($0)' && " } ?? "") + command, "hammock"] + arguments, environment: environment, timeout: 60)
    }

    private func mode(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func noOutputChannelCarriesASecret() async throws {
        let server = try await Self.startEcho()
        defer { Task { await server.stop() } }
        let directory = try temporaryDirectory()
        let path = try config(port: server.port, in: directory)

        let snapshot = try await hammock(["snapshot", path, "--width", "160", "--height", "40", "--log", "all", "--log-file", directory + "/snapshot.log"])
        #expect(snapshot.output.contains("•••"), "the echoed secrets were there to hide:\n\(snapshot.output)")
        #expect(Self.leaks(snapshot.output + snapshot.errors).isEmpty, "snapshot text: \(Self.leaks(snapshot.output))")
        let log = try String(contentsOfFile: directory + "/snapshot.log", encoding: .utf8)
        #expect(log.contains("[network]"))
        #expect(Self.leaks(log).isEmpty, "log file: \(Self.leaks(log))")
        #expect(mode(directory + "/snapshot.log") == 0o600, "the log is private even under umask 000")

        let json = try await hammock(["snapshot", path, "--json"])
        #expect(Self.leaks(json.output).isEmpty, "snapshot JSON: \(Self.leaks(json.output))")
        #expect(json.output.contains(#""url": "http://ops:${PASS}@127.0.0.1:\#(server.port)/accounts/${ACCOUNT}/status?token=${TOKEN}&page=1""#))
        #expect(json.output.contains(#""urlSent": "http://ops:•••@127.0.0.1:\#(server.port)/accounts/•••/status?token=•••&page=1""#), "where it really went")

        let events = try await hammock(["events", path, "--count", "8", "--log", "network"])
        #expect(events.output.contains("Error"))
        #expect(Self.leaks(events.output + events.errors).isEmpty, "events and their stderr log: \(Self.leaks(events.output + events.errors))")

        let check = try await hammock(["check", path])
        #expect(Self.leaks(check.output).isEmpty)
    }

    @Test(.enabled(if: TmuxHarness.tmuxAvailable, "needs tmux"))
    func theDashboardsScreenLogAndCacheCarryNoSecret() async throws {
        let server = try await Self.startEcho()
        defer { Task { await server.stop() } }
        let directory = try temporaryDirectory()
        let path = try config(port: server.port, in: directory)
        let cache = directory + "/cache"
        var environment = Self.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        let tmux = try TmuxHarness(
            command: "umask 000; '\(CLITests.binary)' '\(path)' --cache-dir '\(cache)' --log all --log-file '\(directory)/dashboard.log'",
            columns: 160, rows: 40, environment: environment)
        var screen = try tmux.waitForScreen("both panes answered") { lines in
            lines.contains { $0.contains("\"target\"") } && lines.contains { $0.contains("500 · echo of") }
        }
        try tmux.sendKeys("Enter")
        screen = try tmux.waitForScreen("the zoomed pane") { $0.last?.contains("[1 data]") == true }
        let text = screen.joined(separator: "\n")
        #expect(text.contains("•••"))
        #expect(Self.leaks(text).isEmpty, "screen: \(Self.leaks(text))")
        // Every zoom view: the response (headers, body), the request (headers, body), the timing, the error.
        for view in ["2", "3", "4", "5"] {
            try tmux.sendKeys(view)
            screen = try tmux.waitForScreen("zoom view \(view)") { $0.last?.contains("[\(view) ") == true }
            let shown = screen.joined(separator: "\n")
            #expect(Self.leaks(shown).isEmpty, "zoom view \(view): \(Self.leaks(shown))")
        }
        try tmux.sendKeys("Escape", "e")
        screen = try tmux.waitForScreen("the event log") { $0.contains { $0.contains("Events (latest last)") } }
        #expect(Self.leaks(screen.joined(separator: "\n")).isEmpty, "event log: \(Self.leaks(screen.joined()))")
        try tmux.sendKeys("Escape", "q")
        #expect(try tmux.waitForExit().hasPrefix("exit 0"))

        let log = try String(contentsOfFile: directory + "/dashboard.log", encoding: .utf8)
        #expect(Self.leaks(log).isEmpty, "dashboard log: \(Self.leaks(log))")
        #expect(mode(directory + "/dashboard.log") == 0o600)
        let own = cache + "/hammock-cache"
        #expect(mode(cache) == 0o700 && mode(own) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: own)
        #expect(files.contains { $0.hasSuffix(".json") && !$0.hasPrefix("history") }, "the dashboard wrote its cache: \(files)")
        for name in files {
            let content = try String(contentsOfFile: own + "/" + name, encoding: .utf8)
            #expect(Self.leaks(content).isEmpty, "cache file \(name): \(Self.leaks(content))")
            #expect(mode(own + "/" + name) == 0o600, "\(name)")
        }
    }
}

/// The secrets of real-API clients — login passwords and the tokens logins return, digest
/// passwords, OAuth2 client secrets and their tokens, token files — never leave in clear either,
/// against a server that echoes the headers it was sent.
@Suite(.serialized) struct SessionSecretsTests {
    static let environment = [
        "LOGIN_PASS": "login-pass", "DIGEST_PASS": "digest-pass", "CLIENT_SECRET": "client-pass", "no_proxy": "127.0.0.1,localhost",
    ]

    /// Fixed secrets, and the shapes of the tokens the server issues (unknown before the run).
    static func leaks(_ text: String) -> [String] {
        var found = ["login-pass", "digest-pass", "client-pass", "file-token-4242", Data("hammock:client-pass".utf8).base64EncodedString()]
            .filter { text.contains($0) }
        if let range = text.range(of: #"(tok|oauth)-[0-9]+-[0-9a-f]{8}"#, options: .regularExpression) { found.append(String(text[range])) }
        return found
    }

    @Test func sessionsTokensAndFilesAreRedactedInEveryOutput() async throws {
        let server = try PythonTestServer()
        defer { server.stop() }
        let directory = ScratchDirectory.path("session-secrets")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "file-token-4242\n".write(toFile: directory + "/token", atomically: true, encoding: .utf8)
        let path = directory + "/sessions.yaml"
        try """
            services:
              shop:
                baseURL: \(server.baseURL)shop/
                auth: { login: { resource: \(server.baseURL)auth/token, body: { json: { user: ops, password: "${LOGIN_PASS}" } } } }
              digest: { baseURL: \(server.baseURL)d/, auth: { digest: { user: ops, password: "${DIGEST_PASS}" } } }
              oauth:
                baseURL: \(server.baseURL)o/
                auth: { oauth2: { tokenURL: \(server.baseURL)oauth/token, clientId: hammock, clientSecret: "${CLIENT_SECRET}" } }
              files: { baseURL: \(server.baseURL)f/, auth: { bearer: { file: token } } }
            panes:
              - { title: Shop, service: shop, resource: /echo, show: json }
              - { title: Digest, service: digest, resource: /echo, show: json }
              - { title: OAuth, service: oauth, resource: /echo, show: json }
              - { title: File, service: files, resource: /echo, show: json }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in Self.environment { environment[key] = value }
        func hammock(_ arguments: [String]) async throws -> ProcessRunner.Outcome {
            try await ProcessRunner.capture([CLITests.binary] + arguments, environment: environment, timeout: 60)
        }

        let text = try await hammock(["snapshot", path, "--width", "200", "--height", "60", "--log", "all", "--log-file", directory + "/log"])
        #expect(text.status == 0, "\(text.output)")
        #expect(text.output.components(separatedBy: "\"authorization\": \"•••\"").count == 4, "the echoed tokens were there to hide:\n\(text.output)")
        #expect(Self.leaks(text.output + text.errors).isEmpty, "snapshot text: \(Self.leaks(text.output))")
        let log = try String(contentsOfFile: directory + "/log", encoding: .utf8)
        #expect(Self.leaks(log).isEmpty, "log: \(Self.leaks(log))")

        let json = try await hammock(["snapshot", path, "--json"])
        #expect(json.output.contains("\"authorization\": \"•••\""))
        #expect(Self.leaks(json.output).isEmpty, "snapshot JSON: \(Self.leaks(json.output))")

        let events = try await hammock(["events", path, "--count", "10", "--log", "all"])
        #expect(events.output.contains("auth/token"), "the login is in the event log")
        #expect(Self.leaks(events.output + events.errors).isEmpty, "events: \(Self.leaks(events.output + events.errors))")

        let check = try await hammock(["check", path])
        #expect(check.status == 0)
        #expect(check.output.contains("bearer ${file:token}") && check.output.contains("digest ops:${DIGEST_PASS}"))
        #expect(Self.leaks(check.output).isEmpty)
    }
}

/// Only what is truly secret is masked: ordinary words a file writes (a body member `key: alpha`,
/// a param `session=…`) are not secrets, so titles, answers and the event log show them; the
/// secrets beside them (an environment token, a credential header's value, a URL's password)
/// are still masked everywhere.
@Suite(.serialized) struct OrdinaryWordsTests {
    @Test func ordinaryWordsShowAndRealSecretsStayMasked() async throws {
        let server = try PythonTestServer()
        defer { server.stop() }
        let directory = ScratchDirectory.path("ordinary-words")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/words.yaml"
        let base = server.baseURL.replacingOccurrences(of: "http://", with: "http://ops:urlpass-7777@")
        try """
            services:
              api:
                baseURL: \(base)
                cookies: true
                headers: { X-Api-Key: literal-key-4242 }
                auth: { bearer: "${API_TOKEN}" }
            panes:
              - { title: post-alpha, service: api, resource: /echo, method: POST, body: { key: alpha }, show: json }
              - { title: post-beta, service: api, resource: /echo, method: POST, body: { key: beta }, show: json }
              - { title: Keys, service: api, resource: /kv/range, method: POST, body: { key: Zm9v }, select: kvs, columns: [key, value] }
              - { title: Cookie echo, service: api, resource: /cookies/set, params: { session: abc-cookie }, show: json }
              - { title: Echo, service: api, resource: /echo, show: json }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["API_TOKEN"] = "tok-env-9999"
        environment["no_proxy"] = "127.0.0.1,localhost"
        func hammock(_ arguments: [String]) async throws -> ProcessRunner.Outcome {
            try await ProcessRunner.capture([CLITests.binary] + arguments, environment: environment, timeout: 60)
        }
        let secrets = ["tok-env-9999", "literal-key-4242", "urlpass-7777", Data("ops:urlpass-7777".utf8).base64EncodedString()]

        let text = try await hammock(["snapshot", path, "--width", "220", "--height", "60"])
        #expect(text.status == 0, "\(text.output)")
        for word in ["post-alpha", "post-beta", #"{\"key\":\"alpha\"}"#, #"{\"key\":\"beta\"}"#, "Zm9v", #""session": "abc-cookie""#] {
            #expect(text.output.contains(word), "\(word) is shown as it is:\n\(text.output)")
        }
        #expect(!text.output.contains("post-•••") && !text.output.contains("key •••"))
        #expect(text.output.contains(#""x-api-key": "•••""#) && text.output.contains(#""authorization": "•••""#), "\(text.output)")
        for secret in secrets { #expect(!text.output.contains(secret), "\(secret)") }

        let json = try await hammock(["snapshot", path, "--json"])
        let panes = try #require(try JSONParser.parse(json.output)["panes"]?.arrayValue)
        #expect(panes.map { $0["title"] } == ["post-alpha", "post-beta", "Keys", "Cookie echo", "Echo"])
        #expect(panes[2]["data"]?[0]?["key"] == "Zm9v")
        #expect(panes[3]["data"]?["cookies"]?["session"] == "abc-cookie")
        for secret in secrets { #expect(!json.output.contains(secret), "\(secret)") }

        let events = try await hammock(["events", path, "--count", "10"])
        #expect(events.output.contains(#""panes":["post-alpha"]"#), "\(events.output)")
        for secret in secrets { #expect(!events.output.contains(secret), "\(secret)") }
    }
}

/// Every encoded form of a credential Hammock sends is masked when a server echoes it: the
/// base64 of `auth: basic`'s `user:password` alone, without its `Basic`.
@Suite(.serialized) struct EncodedCredentialsTests {
    @Test func theBase64OfBasicAuthIsMaskedWhenEchoedAlone() async throws {
        let server = try PythonTestServer()
        defer { server.stop() }
        let directory = ScratchDirectory.path("basic-echo")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/basic.yaml"
        try """
            service:
              baseURL: \(server.baseURL)
              auth: { basic: { user: ops, password: "${PW}" } }
            panes:
              - { title: Who, resource: /whoami, show: json }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["PW"] = "echoed-pass-77"
        environment["no_proxy"] = "127.0.0.1,localhost"
        let encoded = Data("ops:echoed-pass-77".utf8).base64EncodedString()
        for arguments in [["snapshot", path, "--width", "120", "--height", "12"], ["snapshot", path, "--json"], ["events", path, "--count", "2"]] {
            let outcome = try await ProcessRunner.capture([CLITests.binary] + arguments, environment: environment, timeout: 60)
            #expect(outcome.output.contains("Basic") || arguments[0] == "events", "the echo came: \(outcome.output)")
            #expect(!outcome.output.contains(encoded) && !outcome.output.contains("echoed-pass-77"), "\(arguments[0]): \(outcome.output)")
        }
    }
}

/// Nothing Hammock prints can drive the terminal, and nothing of the user's is replaced.
@Suite(.serialized) struct TerminalAndFilesTests {
    private func temporaryDirectory() throws -> String {
        let url = URL(fileURLWithPath: ScratchDirectory.path("files"))
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    private func hammock(_ arguments: [String], in directory: String? = nil) async throws -> ProcessRunner.Outcome {
        let command = (directory.map { "cd '\($0)' && " } ?? "") + "exec '\(CLITests.binary)' \"$@\""
        var environment = ProcessInfo.processInfo.environment
        environment["no_proxy"] = "127.0.0.1,localhost"
        return try await ProcessRunner.capture(["/bin/sh", "-c", command, "hammock"] + arguments, environment: environment, timeout: 60)
    }

    /// No ESC, BEL, C1 control or bidi override, raw.
    static func drivesTheTerminal(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) }
    }

    @Test func checkAndConfigErrorsPrintConfigTextSafely() async throws {
        let directory = try temporaryDirectory()
        let good = directory + "/osc.yaml"
        // YAML's own escapes: \e is ESC, \a is BEL (a file may not hold them raw).
        let clipboard = #"\e]52;c;cm0gLXJmIH4=\a"#
        let rename = #"\e]0;pwned\a"#
        try "title: \"Shop\(clipboard)\(rename)\"\nservice:\n  baseURL: http://127.0.0.1:1/\npanes:\n  - title: \"A\(clipboard)\"\n    resource: /a\n"
            .write(toFile: good, atomically: true, encoding: .utf8)
        let check = try await hammock(["check", good])
        #expect(check.status == 0)
        #expect(check.output.contains("Shop␛]52;c;cm0gLXJmIH4=␇"), "shown, harmlessly: \(check.output)")
        #expect(!Self.drivesTheTerminal(check.output + check.errors))

        let bad = directory + "/bad.yaml"
        try "service:\n  baseURL: http://127.0.0.1:1/\n  \"x\(clipboard)\": 1\npanes:\n  - title: \"B\\x9B31m\\u202E\"\n    resource: /a\n    show: \"t\(rename)\"\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let problems = try await hammock(["check", bad])
        #expect(problems.status == 2)
        #expect(problems.errors.contains("unknown key"))
        #expect(!Self.drivesTheTerminal(problems.errors + problems.output), "\(problems.errors)")
    }

    @Test func jsonOutputEscapesC1ControlsAndBidiOverrides() async throws {
        let server = try await LocalTestServer.start { server in
            await server.appendRoute("*") { _ in
                HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "application/json"]), body: Data(#"{"name":"evil\u009b31m\u202eexe.txt"}"#.utf8))
            }
        }
        defer { Task { await server.stop() } }
        let directory = try temporaryDirectory()
        let path = directory + "/c1.yaml"
        try "service:\n  baseURL: \(server.baseURL)\npanes:\n  - title: \"Odd\u{202E}\"\n    resource: /x\n".write(toFile: path, atomically: true, encoding: .utf8)
        let snapshot = try await hammock(["snapshot", path, "--json"])
        #expect(snapshot.output.contains(#"evil\u009b31m\u202eexe.txt"#), "\(snapshot.output)")
        #expect(!Self.drivesTheTerminal(snapshot.output))
        let text = try await hammock(["snapshot", path])
        #expect(!Self.drivesTheTerminal(text.output))
        let events = try await hammock(["events", path, "--count", "2"])
        #expect(events.output.contains(#""panes":["Odd\u202e"]"#), "\(events.output)")
        #expect(!Self.drivesTheTerminal(events.output))
    }

    @Test func initForceReplacesOnlyRegularFiles() async throws {
        let directory = try temporaryDirectory()
        #expect(mkfifo(directory + "/pipe", 0o600) == 0)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: directory + "/target.txt"))
        #expect(symlink(directory + "/target.txt", directory + "/link.yaml") == 0)
        try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: false)
        for name in ["pipe", "link.yaml", "folder"] {
            let outcome = try await hammock(["init", "--force", "--output", name], in: directory)
            #expect(outcome.status == 64, "\(name)")
            #expect(outcome.errors == "\(name) is not a regular file; not replacing it\n")
        }
        var info = stat()
        #expect(lstat(directory + "/pipe", &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the pipe is still a pipe")
        #expect(lstat(directory + "/link.yaml", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK, "the link is still a link")
        #expect(try String(contentsOfFile: directory + "/target.txt", encoding: .utf8) == "mine", "and its target untouched")
        #expect(try await hammock(["init", "--output", "fresh.yaml"], in: directory).status == 0)
        #expect(try await hammock(["init", "--force", "--output", "fresh.yaml"], in: directory).status == 0, "a regular file is replaced")
    }
}
