import Foundation
import Glibc

/// An HTTPS server on 127.0.0.1 for tests: Python's standard library behind a certificate from
/// `TestCertificates`, optionally asking for a client certificate.
///
/// Routes: `/echo` answers the method, path, headers (lower-cased) and body as JSON;
/// `/redirect?to=URL&status=302` redirects; anything else answers `{"ok":true,"path":…}`.
/// Runs as a child process (`python3`), stopped with SIGKILL.
public final class TLSTestServer: @unchecked Sendable {
    public let port: UInt16
    private let pid: pid_t
    private let directory: String

    /// `https://127.0.0.1:PORT/`
    public var baseURL: String { "https://127.0.0.1:\(port)/" }

    /// The absolute URL for `path`.
    public func url(_ path: String) -> String {
        baseURL + (path.hasPrefix("/") ? String(path.dropFirst()) : path)
    }

    /// Starts the server with `certificate`; with `clientCA`, a client certificate it signed is required.
    public init(certificate: TestCertificates.Pair, clientCA: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hammock-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/server.py"
        try TLSTestServer.script.write(toFile: script, atomically: true, encoding: .utf8)
        let output = directory + "/port"
        var argv = [TLSTestServer.python, script, certificate.certificate, certificate.key]
        if let clientCA { argv.append(clientCA) }
        pid = try TLSTestServer.spawn(argv, stdout: output, stderr: directory + "/errors")
        let deadline = Date().addingTimeInterval(20)
        var port: UInt16?
        while port == nil, Date() < deadline {
            port = (try? String(contentsOfFile: output, encoding: .utf8))?.split(separator: "\n").first.flatMap { UInt16($0) }
            if port == nil { usleep(20_000) }
        }
        guard let port else {
            kill(pid, SIGKILL)
            let errors = (try? String(contentsOfFile: directory + "/errors", encoding: .utf8)) ?? ""
            throw TestCertificates.Failure(description: "the TLS test server did not start: \(errors)")
        }
        self.port = port
    }

    deinit { stop() }

    /// Ends the server.
    public func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: directory)
    }

    static var python: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
    }

    private static func spawn(_ argv: [String], stdout: String, stderr: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, argv[0], &actions, &attributes, &cArguments, environ) == 0 else {
            throw TestCertificates.Failure(description: "cannot start \(argv[0])")
        }
        return pid
    }

    static let script = #"""
        import http.server, json, ssl, sys, urllib.parse

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def answer(self, status, body, headers=()):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            def handle_any(self):
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                if url.path == "/redirect":
                    self.answer(int(query.get("status", "302")), {}, [("Location", query.get("to", "/"))])
                elif url.path == "/echo":
                    headers = {name.lower(): value for name, value in self.headers.items()}
                    self.answer(200, {"method": self.command, "path": self.path, "headers": headers, "body": body})
                else:
                    self.answer(200, {"ok": True, "path": self.path})

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = handle_any

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        if len(sys.argv) > 3:
            context.verify_mode = ssl.CERT_REQUIRED
            context.load_verify_locations(sys.argv[3])
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
