import Foundation
import Glibc

/// An HTTP or HTTPS server on 127.0.0.1 for tests, on Python's standard library: what real APIs
/// do that a test needs to meet — TLS (behind a certificate from `TestCertificates`, optionally
/// asking for a client certificate), digest authentication, cookies, logins with tokens that
/// expire, an OAuth2 token endpoint, NDJSON.
///
/// Routes:
/// - `/echo` (and `…/echo`): the method, path, headers (lower-cased) and body as JSON.
/// - `/redirect?to=URL&status=302`: a redirect.
/// - `/digest`: needs HTTP Digest as `ops` / `digest-pass` (realm `hammock`).
/// - `/cookies/set?NAME=VALUE`: sets the cookies and redirects to `/cookies`, which answers
///   `{"cookies": {…}}` with the cookies the request carried (as httpbin does);
///   `/cookies/bounce?to=URL&NAME=VALUE` redirects to any URL; `/cookies/flood` sets a new
///   `session` and 49 new cookies on every answer.
/// - `POST /auth/token` with JSON `{"user": "ops", "password": "login-pass"}`: `{"access_token":
///   "tok-N", "expires_in": 3600}`; other credentials: 401 `{"error": "invalid credentials"}`.
/// - `POST /oauth/token`, client `hammock` / `client-pass` in HTTP Basic, form
///   `grant_type=client_credentials`: `{"access_token": "oauth-N", "token_type": "Bearer"}`.
/// - `/orders`: needs `Authorization: Bearer` with a token the server issued and has not expired.
/// - `POST /admin/expire`: every issued token stops working (they expired).
/// - `/expected`: needs `Authorization: Bearer` with the token `/admin/expect?token=T` set.
/// - `/stats`: how many logins, OAuth2 token requests, 401s, Transmission 409s, rate-limited and
///   Keystone logins there were, and the requests per path (`hits`).
/// - `/transmission/rpc`: Transmission's RPC: 409 with `X-Transmission-Session-Id` unless the
///   request sends the current id; `POST /admin/transmission/rotate` changes it.
/// - `POST /keystone/auth/tokens`: 201 with the token in `X-Subject-Token` (OpenStack Keystone);
///   `/keystone/projects` needs it in `X-Auth-Token`.
/// - `POST /limited/login`: always 429 with `Retry-After: 165`.
/// - `/unavailable`: always 503.
/// - `/whoami`: the `Authorization` header's scheme and credentials, apart.
/// - `POST /bad/login?kind=html|missing|null|spaces|crlf|escape`: a 200 with no usable token.
/// - `POST /kv/range` with JSON `{"key": K}`: etcd's answer, `{"kvs": [{"key": K, "value": "b24="}]}`
///   (the value is `on` in base64).
/// - `/health/text`: `OK` as `text/plain` (Synapse's `/health`).
/// - `/stream`: three JSON values, one per line, served as `application/json` (httpbin's `/stream/3`).
/// - `/ndjson`: three JSON values, one per line, as `application/x-ndjson`.
/// - `/xml`: a small `application/xml` document.
/// - `/slow?ms=N` (and `…/slow`): answers after N milliseconds.
/// - anything else: `{"ok":true,"path":…}`.
///
/// Runs as a child process (`python3`), stopped with SIGKILL.
public final class PythonTestServer: @unchecked Sendable {
    /// The port it listens on.
    public var port: UInt16 { process.port }
    private let process: PortPrintingProcess
    private let directory: String

    private let scheme: String

    /// `https://127.0.0.1:PORT/` (`http://` without a certificate)
    public var baseURL: String { "\(scheme)://127.0.0.1:\(port)/" }

    /// The absolute URL for `path`.
    public func url(_ path: String) -> String {
        baseURL + (path.hasPrefix("/") ? String(path.dropFirst()) : path)
    }

    /// Starts the server: plain HTTP without `certificate`, else HTTPS with it; with `clientCA`, a
    /// client certificate it signed is required.
    public init(certificate: TestCertificates.Pair? = nil, clientCA: String? = nil) throws {
        scheme = certificate == nil ? "http" : "https"
        directory = ScratchDirectory.path("tls")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/server.py"
        try PythonTestServer.script.write(toFile: script, atomically: true, encoding: .utf8)
        var argv = [PythonTestServer.python, script]
        if let certificate { argv += [certificate.certificate, certificate.key] }
        if let clientCA { argv.append(clientCA) }
        process = try PortPrintingProcess(argv, in: directory, what: "the Python test server") { output in
            output.split(separator: "\n").first.flatMap { UInt16($0) }
        }
    }

    deinit { stop() }

    /// Ends the server.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    static var python: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
    }

    static let script = #"""
        import hashlib, http.server, json, os, ssl, sys, threading, time, urllib.parse, base64

        lock = threading.Lock()
        state = {"issued": set(), "count": 0, "logins": 0, "oauth": 0, "unauthorized": 0, "expected": None,
                 "session_id": "tx-1", "conflicts": 0, "limited": 0, "keystone": 0, "hits": {}}
        REALM = "hammock"
        NONCE = os.urandom(8).hex()

        def md5(text):
            return hashlib.md5(text.encode()).hexdigest()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def answer(self, status, body, headers=(), content_type="application/json"):
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            def refuse(self, message, headers=()):
                with lock:
                    state["unauthorized"] += 1
                self.answer(401, {"error": message}, headers)

            def bearer(self):
                value = self.headers.get("Authorization") or ""
                return value[7:] if value.startswith("Bearer ") else None

            def issue(self, prefix, kind):
                with lock:
                    state["count"] += 1
                    state[kind] += 1
                    token = "%s-%d-%s" % (prefix, state["count"], os.urandom(4).hex())
                    state["issued"].add(token)
                return token

            def digest_ok(self):
                value = self.headers.get("Authorization") or ""
                if not value.startswith("Digest "):
                    return False
                fields = {}
                for part in urllib.request.parse_http_list(value[7:]):
                    name, _, field = part.strip().partition("=")
                    fields[name] = field.strip('"')
                if fields.get("username") != "ops" or fields.get("nonce") != NONCE:
                    return False
                ha1 = md5("ops:%s:digest-pass" % REALM)
                ha2 = md5("%s:%s" % (self.command, fields.get("uri", "")))
                if fields.get("qop"):
                    expected = md5(":".join([ha1, NONCE, fields.get("nc", ""), fields.get("cnonce", ""), fields["qop"], ha2]))
                else:
                    expected = md5(":".join([ha1, NONCE, ha2]))
                return fields.get("response") == expected

            def handle_any(self):
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = raw.decode("utf-8", "replace")
                with lock:
                    state["hits"][url.path] = state["hits"].get(url.path, 0) + 1
                if url.path == "/redirect":
                    self.answer(int(query.get("status", "302")), {}, [("Location", query.get("to", "/"))])
                elif url.path.endswith("/echo"):
                    headers = {name.lower(): value for name, value in self.headers.items()}
                    self.answer(200, {"method": self.command, "path": self.path, "headers": headers, "body": body})
                elif url.path == "/digest":
                    if self.digest_ok():
                        self.answer(200, {"authenticated": True, "user": "ops"})
                    else:
                        challenge = 'Digest realm="%s", qop="auth", nonce="%s", algorithm=MD5' % (REALM, NONCE)
                        self.refuse("digest authentication required", [("WWW-Authenticate", challenge)])
                elif url.path == "/cookies/set":
                    cookies = [("Set-Cookie", "%s=%s; Path=/" % (name, value)) for name, value in query.items()]
                    self.answer(302, {}, cookies + [("Location", "/cookies")])
                elif url.path == "/cookies/flood":
                    with lock:
                        state["count"] += 1
                        round = state["count"]
                    # libcurl takes at most 50 cookies from one answer: the session first, 49 more.
                    cookies = [("Set-Cookie", "flood-%d-%d=x; Path=/" % (round, k)) for k in range(49)]
                    self.answer(200, {"set": 50}, [("Set-Cookie", "session=keep-%d; Path=/" % round)] + cookies)
                elif url.path == "/cookies/bounce":
                    target = query.pop("to", "/cookies")
                    cookies = [("Set-Cookie", "%s=%s; Path=/" % (name, value)) for name, value in query.items()]
                    self.answer(302, {}, cookies + [("Location", target)])
                elif url.path == "/cookies":
                    jar = {}
                    for part in (self.headers.get("Cookie") or "").split(";"):
                        name, _, value = part.strip().partition("=")
                        if name:
                            jar[name] = value
                    self.answer(200, {"cookies": jar})
                elif url.path == "/auth/token":
                    try:
                        credentials = json.loads(body or "{}")
                    except ValueError:
                        credentials = {}
                    if self.command == "POST" and credentials.get("user") == "ops" and credentials.get("password") == "login-pass":
                        self.answer(200, {"access_token": self.issue("tok", "logins"), "expires_in": 3600})
                    else:
                        with lock:
                            state["logins"] += 1
                        self.refuse("invalid credentials")
                elif url.path == "/oauth/token":
                    form = dict(urllib.parse.parse_qsl(body))
                    client = base64.b64encode(b"hammock:client-pass").decode()
                    if self.headers.get("Authorization") != "Basic " + client or form.get("grant_type") != "client_credentials":
                        with lock:
                            state["oauth"] += 1
                        self.refuse("invalid_client")
                    else:
                        token = self.issue("oauth", "oauth")
                        self.answer(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": form.get("scope", "")})
                elif url.path == "/orders":
                    with lock:
                        valid = self.bearer() in state["issued"]
                    if valid:
                        self.answer(200, {"orders": [{"id": 1, "total": 12.5}, {"id": 2, "total": 7}]})
                    else:
                        self.refuse("token expired or missing")
                elif url.path == "/admin/expire":
                    with lock:
                        state["issued"].clear()
                    self.answer(200, {"expired": True})
                elif url.path == "/admin/expect":
                    with lock:
                        state["expected"] = query.get("token")
                    self.answer(200, {"ok": True})
                elif url.path == "/expected":
                    with lock:
                        expected = state["expected"]
                    if expected and self.bearer() == expected:
                        self.answer(200, {"ok": True})
                    else:
                        self.refuse("wrong token")
                elif url.path == "/stats":
                    with lock:
                        self.answer(200, {"logins": state["logins"], "oauth": state["oauth"], "unauthorized": state["unauthorized"],
                                          "conflicts": state["conflicts"], "limited": state["limited"], "keystone": state["keystone"],
                                          "hits": state["hits"]})
                elif url.path == "/transmission/rpc":
                    with lock:
                        current = state["session_id"]
                        if self.headers.get("X-Transmission-Session-Id") != current:
                            state["conflicts"] += 1
                    if self.headers.get("X-Transmission-Session-Id") != current:
                        self.answer(409, b"<h1>409: Conflict</h1>", [("X-Transmission-Session-Id", current)], content_type="text/html")
                    else:
                        self.answer(200, {"result": "success", "arguments": {"torrentCount": 3}})
                elif url.path == "/admin/transmission/rotate":
                    with lock:
                        state["session_id"] = "tx-%s" % os.urandom(4).hex()
                    self.answer(200, {"ok": True})
                elif url.path == "/keystone/auth/tokens":
                    with lock:
                        state["keystone"] += 1
                    token = self.issue("ks", "logins")
                    self.answer(201, {"token": {"expires_at": "2099-01-01T00:00:00Z"}}, [("X-Subject-Token", token)])
                elif url.path == "/keystone/projects":
                    with lock:
                        valid = self.headers.get("X-Auth-Token") in state["issued"]
                    if valid:
                        self.answer(200, {"projects": [{"name": "demo"}]})
                    else:
                        self.refuse("token missing")
                elif url.path == "/bad/login":
                    kind = query.get("kind", "html")
                    if kind == "html":
                        self.answer(200, b"<html><body>Welcome</body></html>", content_type="text/html")
                    elif kind == "missing":
                        self.answer(200, {"token_type": "Bearer"})
                    elif kind == "null":
                        self.answer(200, {"access_token": None})
                    elif kind == "spaces":
                        self.answer(200, {"access_token": "tok en"})
                    elif kind == "crlf":
                        self.answer(200, {"access_token": "tok\r\nX-Injected: 1"})
                    else:
                        self.answer(200, {"access_token": "tok\u001b[31m"})
                elif url.path == "/whoami":
                    value = self.headers.get("Authorization") or ""
                    self.answer(200, {"scheme": value.partition(" ")[0], "credentials": value.partition(" ")[2]})
                elif url.path == "/unavailable":
                    self.answer(503, {"message": "down for maintenance"})
                elif url.path == "/limited/login":
                    with lock:
                        state["limited"] += 1
                    self.answer(429, {"message": "slow down"}, [("Retry-After", "165")])
                elif url.path == "/kv/range":
                    try:
                        asked = json.loads(body or "{}").get("key", "")
                    except ValueError:
                        asked = ""
                    self.answer(200, {"kvs": [{"key": asked, "value": "b24="}], "count": "1"})
                elif url.path == "/health/text":
                    self.answer(200, b"OK", content_type="text/plain; charset=utf-8")
                elif url.path == "/stream":
                    lines = b'{"id": 0, "level": "info"}\n{"id": 1, "level": "warn"}\n{"id": 2, "level": "error"}\n'
                    self.answer(200, lines, content_type="application/json")
                elif url.path == "/ndjson":
                    lines = b'{"id": 1, "level": "info"}\n{"id": 2, "level": "warn"}\n\n{"id": 3, "level": "error"}\n'
                    self.answer(200, lines, content_type="application/x-ndjson")
                elif url.path == "/xml":
                    self.answer(200, b'<?xml version="1.0"?><status>up</status>', content_type="application/xml")
                elif url.path.endswith("/slow"):
                    time.sleep(int(query.get("ms", "1000")) / 1000)
                    self.answer(200, {"slow": True})
                else:
                    self.answer(200, {"ok": True, "path": self.path})

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = handle_any

        import urllib.request
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        if len(sys.argv) > 2:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            if len(sys.argv) > 3:
                context.verify_mode = ssl.CERT_REQUIRED
                context.load_verify_locations(sys.argv[3])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
