import FlyingFox
import Foundation
import Glibc
import HammockHarness
import LoopbackHTTP
import Synchronization

/// The server every end-to-end run polls: `/e/N` answers a small JSON body, and the origin counts
/// the requests it answered. Either FlyingFox inside the bench process (the default) or, with
/// `--origin nginx`, Debian's nginx in a process of its own with a generated config.
final class BenchOrigin: Sendable {
    enum Kind: String, Sendable {
        case builtin, nginx
    }

    /// The body every `/e/N` answers, the same for both origins.
    static let body = #"{"status":"UP","version":"1.4.2","uptime":12345}"#

    /// Where nginx is when its package is installed.
    static let nginxPath = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile(atPath:))

    let kind: Kind
    /// `http://127.0.0.1:PORT/`
    let baseURL: String
    let port: Int
    private let counter: Counter?
    private let server: LocalTestServer?
    private let nginx: (pid: pid_t, directory: String)?
    /// Bytes of nginx's access log already counted (one byte per request).
    private let counted = Mutex<Int>(0)

    private actor Counter {
        var count = 0
        func hit() { count += 1 }
        func reset() -> Int {
            defer { count = 0 }
            return count
        }
    }

    private init(kind: Kind, port: Int, counter: Counter?, server: LocalTestServer?, nginx: (pid: pid_t, directory: String)?) {
        self.kind = kind
        self.port = port
        self.baseURL = "http://127.0.0.1:\(port)/"
        self.counter = counter
        self.server = server
        self.nginx = nginx
    }

    static func start(_ kind: Kind) async throws -> BenchOrigin {
        switch kind {
        case .builtin:
            let counter = Counter()
            let server = try await LocalTestServer.start { server in
                await server.appendRoute("GET /e/*") { _ in
                    await counter.hit()
                    return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "application/json"]), body: Data(body.utf8))
                }
            }
            return BenchOrigin(kind: kind, port: Int(server.port), counter: counter, server: server, nginx: nil)
        case .nginx:
            return try startNginx()
        }
    }

    /// Requests answered since the previous call (or the start).
    func probes() async -> Int {
        if let counter { return await counter.reset() }
        guard let nginx else { return 0 }
        var info = stat()
        let size = stat(nginx.directory + "/access.log", &info) == 0 ? Int(info.st_size) : 0
        return counted.withLock { counted in
            defer { counted = size }
            return size - counted
        }
    }

    func stop() async {
        await server?.stop()
        if let nginx {
            kill(nginx.pid, SIGQUIT)
            var status: Int32 = 0
            for _ in 0..<100 where waitpid(nginx.pid, &status, WNOHANG) == 0 { usleep(20_000) }
            if waitpid(nginx.pid, &status, WNOHANG) == 0 {
                kill(nginx.pid, SIGKILL)
                waitpid(nginx.pid, &status, 0)
            }
            try? FileManager.default.removeItem(atPath: nginx.directory)
        }
    }

    /// nginx with one worker on a free port of 127.0.0.1, everything it writes in a directory of
    /// its own; each request logs one byte, so the access log's size is the request count.
    private static func startNginx() throws -> BenchOrigin {
        guard let nginxPath else {
            throw TmuxHarness.Failure(description: "--origin nginx: nginx is not installed (sudo apt-get install nginx-light)")
        }
        let directory = ScratchDirectory.path("nginx")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = Int(try PrometheusServer.freePort())
        let temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
            .map { "    \($0)_temp_path \(directory)/\($0);" }.joined(separator: "\n")
        let config = """
            worker_processes 1;
            daemon off;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log error;
            events { worker_connections 16384; }
            http {
                log_format probe '';
                access_log \(directory)/access.log probe;
            \(temporary)
                keepalive_requests 100000000;
                keepalive_timeout 75s;
                server {
                    listen 127.0.0.1:\(port);
                    location /e/ {
                        default_type application/json;
                        return 200 '\(body)';
                    }
                }
            }

            """
        try config.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        let pid = try EndToEndBench.spawn([nginxPath, "-p", directory, "-c", directory + "/nginx.conf", "-e", directory + "/error.log"])
        // Ready when it answers.
        for _ in 0..<100 {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(socket)
            if connected == 0 {
                return BenchOrigin(kind: .nginx, port: port, counter: nil, server: nil, nginx: (pid, directory))
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) != 0 { break }
            usleep(20_000)
        }
        let log = (try? String(contentsOfFile: directory + "/error.log", encoding: .utf8)) ?? ""
        kill(pid, SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
        throw TmuxHarness.Failure(description: "nginx did not start: \(log.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}
