import Foundation
import HammockHarness
import ResourceEngine
import ResourceEngineTesting
import Testing

/// Each way a server can fail says what happened, not something near it.
@MainActor
@Suite(.serialized) struct MisleadingErrorTests {
    nonisolated static let answers: [String: Data] = [
        "/garbage": Data("HELLO WORLD\r\n\r\n".utf8),
        "/http09": Data("just a body, no status line\n".utf8),
        "/banner": Data("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n".utf8),
        "/big-header": Data("HTTP/1.1 200 OK\r\nX-Big: ".utf8) + Data(repeating: UInt8(ascii: "a"), count: 1_000_000) + Data("\r\nContent-Length: 2\r\n\r\nok".utf8),
        "/short": Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\nConnection: close\r\n\r\nonly this".utf8),
        "/conflict": Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 50\r\nContent-Length: 5\r\n\r\nhello".utf8),
        "/fine": Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok".utf8),
        "/bad-status": Data("HTTP/1.1 abc OK\r\nContent-Length: 2\r\n\r\nok".utf8),
        "/zero-status": Data("HTTP/1.1 000 Nothing\r\nContent-Length: 2\r\n\r\nok".utf8),
        "/http3": Data("HTTP/3.0 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8),
        "/huge-length": Data("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\nConnection: close\r\n\r\nabc".utf8),
        "/negative-length": Data("HTTP/1.1 200 OK\r\nContent-Length: -5\r\nConnection: close\r\n\r\nabc".utf8),
    ]

    private func message(_ path: String, server: RawTestServer) async throws -> String? {
        let service = Service(baseURL: server.baseURL, networking: CurlProvider())
        let resource = service.resource(path)
        _ = try await resource.load().awaitResult()
        return resource.latestError?.userMessage
    }

    @Test func answersThatAreNotHTTPSaySo() async throws {
        let server = try RawTestServer { path in Self.answers[path] ?? Data() }
        defer { server.stop() }
        for path in ["/garbage", "/http09", "/banner"] {
            #expect(try await message(path, server: server) == "The server did not answer in HTTP", "\(path)")
        }
        let big = try await message("/big-header", server: server)
        #expect(big == "The server sent a response header over 100 KB")
        #expect(try await message("/short", server: server) == "The server closed the connection before the response was complete (991 of 1000 bytes missing)")
        #expect(try await message("/conflict", server: server) == "The server sent conflicting Content-Length headers (50 and 5)")
        #expect(try await message("/fine", server: server) == nil, "the same length twice is only redundant")
        for path in ["/bad-status", "/zero-status", "/http3"] {
            let said = try await message(path, server: server)
            #expect(said?.hasPrefix("The server sent an invalid status line") == true, "\(path): \(String(describing: said))")
        }
        #expect(try await message("/huge-length", server: server) == "The server sent an invalid Content-Length (99999999999999999999)", "not a success")
        #expect(try await message("/negative-length", server: server) == "The server sent an invalid Content-Length")
    }

    @Test func headerBlocksAreReadAsTheServerSentThem() async throws {
        let block = "HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Type: Text/Plain\r\nX-Tag: a\r\nx-tag: b\r\nX-Folded: one\r\n\t two \r\n"
            + "  three\r\nX-Empty:\r\nCONTENT-LENGTH: 2\r\n\r\nok"
        let server = try RawTestServer { _ in Data(block.utf8) }
        defer { server.stop() }
        let service = Service(baseURL: server.baseURL, networking: CurlProvider())
        let resource = service.resource("/headers")
        _ = try await resource.load().awaitResult()
        let entity = try #require(resource.latestData)
        #expect(entity.header(forKey: "x-tag") == "a, b", "a repeated header's values joined, whatever the names' case")
        #expect(entity.header(forKey: "X-Folded") == "one two three", "folded lines joined to their header")
        #expect(entity.header(forKey: "x-empty") == "")
        #expect(entity.header(forKey: "x-interim") == nil, "an interim response's headers are not the answer's")
        #expect(entity.header(forKey: "content-length") == "2")
        #expect(entity.contentType == "Text/Plain")
        #expect(resource.text == "ok")
    }

    @Test func eachTLSFailureNamesItsCause() async throws {
        let pki = try TestCertificates()
        let other = try TestCertificates(name: "Someone Else's CA")
        let cases: [(String, TestCertificates.Pair, String)] = [
            ("expired", try pki.leaf(name: "expired", validFrom: Date(timeIntervalSinceNow: -40 * 86_400), validUntil: Date(timeIntervalSinceNow: -86_400)),
             "The server's certificate has expired"),
            ("not yet valid", try pki.leaf(name: "future", validFrom: Date(timeIntervalSinceNow: 10 * 86_400), validUntil: Date(timeIntervalSinceNow: 40 * 86_400)),
             "The server's certificate is not valid yet"),
            ("wrong host", try pki.leaf(name: "elsewhere", hosts: ["other.example"]),
             "The server's certificate is for another name than 127.0.0.1"),
            ("self-signed", try pki.leaf(name: "self", selfSigned: true),
             "The server's certificate is self-signed and not trusted (trust it with tls.ca)"),
            ("unknown CA", try other.leaf(name: "unknown"),
             "The server's certificate is signed by an unknown authority (trust it with tls.ca)"),
        ]
        for (what, certificate, expected) in cases {
            let server = try PythonTestServer(certificate: certificate)
            defer { server.stop() }
            let service = Service(baseURL: server.baseURL, networking: CurlProvider())
            service.configure("**") { $0.transport.tls.caFile = pki.caCertificate }
            let resource = service.resource("/ok")
            _ = try await resource.load().awaitResult()
            #expect(resource.latestError?.userMessage == expected, "\(what)")
        }
    }
}
