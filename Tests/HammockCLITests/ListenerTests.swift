import Foundation
import Glibc
import HammockHarness
import ResourceEngine
import Testing

/// `hammock serve`'s listener holds against local clients: more connections than descriptors
/// do not close it for good, a flood of pipelined requests nobody reads does not stop the
/// probing nor grow without bound, and a request that never completes is dropped.
@Suite(.serialized) struct ListenerTests {
    /// A prober of one endpoint every 200 ms on the Python server, with `prefix` before the
    /// command (`ulimit -n 64;`).
    private func prober(_ server: PythonTestServer, prefix: String = "", panes: Int = 1) async throws -> (WatchedProcess, port: UInt16) {
        let directory = ScratchDirectory.path("listener")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = directory + "/probe.yaml"
        let list = (0..<panes).map { "  - { title: Health \($0), resource: \"/health/text?n=\($0)\", every: \(panes == 1 ? "200ms" : "1s") }" }
        try ("service: { baseURL: \"\(server.baseURL)\" }\npanes:\n" + list.joined(separator: "\n") + "\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["no_proxy"] = "127.0.0.1,localhost"
        return try await WatchedProcess.start(
            ["/bin/sh", "-c", "\(prefix) exec '\(CLITests.binary)' serve '\(config)' --listen 127.0.0.1:0"], environment: environment
        ) { output in
            guard let range = output.range(of: "http://127.0.0.1:"), let end = output[range.upperBound...].firstIndex(of: "/") else { return nil }
            return UInt16(output[range.upperBound..<end])
        }
    }

    private func connect(_ port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else {
            close(fd)
            return -1
        }
        return fd
    }

    private func hits(_ server: PythonTestServer) async throws -> Int {
        let (status, body) = try await FleetTests.get(server.url("/stats"))
        #expect(status == 200)
        return try JSONParser.parse(body)["hits"]?["/health/text"]?.intValue ?? 0
    }

    private func residentMiB(_ pid: pid_t) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib / 1024
    }

    @Test func moreConnectionsThanDescriptorsDoNotCloseTheListener() async throws {
        let server = try PythonTestServer()
        defer { server.stop() }
        let (prober, port) = try await prober(server, prefix: "ulimit -n 64;")
        defer { prober.stop() }
        var sockets: [Int32] = []
        for _ in 0..<150 { let fd = connect(port); if fd >= 0 { sockets.append(fd) } }
        try await Task.sleep(for: .milliseconds(500))
        for fd in sockets { close(fd) }
        // The listener takes connections again, and the probing went on all along.
        let before = try await hits(server)
        var answered = false
        let deadline = Date().addingTimeInterval(10)
        while !answered, Date() < deadline {
            answered = (try? await FleetTests.get("http://127.0.0.1:\(port)/healthz").status) == 200
            if !answered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(answered, "the listener is back after running out of descriptors")
        try await Task.sleep(for: .seconds(1))
        #expect(try await hits(server) > before, "probing goes on")
    }

    @Test func aFloodOfUnreadPipelinedRequestsStopsNeitherProbingNorTheListener() async throws {
        let server = try PythonTestServer()
        defer { server.stop() }
        // Two hundred panes, so each answer to /api/panes is a real one to make.
        let (prober, port) = try await prober(server, panes: 200)
        defer { prober.stop() }
        try await Task.sleep(for: .seconds(1))
        // The probing rate before the flood, measured as it is during the flood: the two are
        // compared, not held to a number of seconds.
        let quiet = try await hits(server)
        try await Task.sleep(for: .seconds(3))
        let beforeFlood = try await hits(server) - quiet
        let request = Array(String(repeating: "GET /api/panes HTTP/1.1\r\nHost: x\r\n\r\n", count: 1_000).utf8)
        var sockets: [Int32] = []
        for _ in 0..<200 {
            let fd = connect(port)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            sockets.append(fd)
        }
        defer { for fd in sockets { close(fd) } }
        let before = try await hits(server)
        try await Task.sleep(for: .seconds(3))
        let during = try await hits(server) - before
        // Against the rate before, but never more than the cadence asks for (200 panes a second):
        // the window before can hold a few late first probes on top.
        let expected = min(beforeFlood, 200 * 3)
        #expect(Double(during) >= 0.75 * Double(expected), "probing goes on during the flood: \(during) probes in 3 s, \(beforeFlood) before")
        #expect(residentMiB(prober.pid) < 150, "memory stays bounded: \(residentMiB(prober.pid)) MiB")
        for fd in sockets { close(fd) }
        sockets = []
        var answered = false
        let deadline = Date().addingTimeInterval(15)
        while !answered, Date() < deadline {
            answered = (try? await FleetTests.get("http://127.0.0.1:\(port)/healthz").status) == 200
            if !answered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(answered)
    }

    @Test func aRequestThatNeverEndsIsDropped() async throws {
        let server = try PythonTestServer()
        defer { server.stop() }
        let (prober, port) = try await prober(server)
        defer { prober.stop() }
        let fd = connect(port)
        #expect(fd >= 0)
        defer { close(fd) }
        let partial = Array("GET /metrics HTTP/1.1\r\nHost: x\r\n".utf8)
        _ = partial.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let start = Date()
        // Waited for on a thread of its own: blocking one of the global queues' few threads for
        // the ten seconds this takes stalls the servers other tests run in this process.
        let got = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var byte: UInt8 = 0
                continuation.resume(returning: recv(fd, &byte, 1, 0))
            }
        }
        #expect(got == 0, "closed by the server, not answered")
        #expect(Date().timeIntervalSince(start) < 14, "within the request timeout")
    }
}
