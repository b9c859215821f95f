import Foundation
import HammockHarness
@testable import ResourceEngine
import ResourceEngineTesting
import Testing

/// A plain GET's libcurl handle serves later GETs with the same TLS settings (`CurlHandlePool`),
/// and carries nothing of the request before: a handle that sent a body, another method,
/// credentials or a cookie jar's cookies is never reused, and a handle made for one set of TLS
/// settings never serves another.
@MainActor
@Suite(.serialized) struct CurlHandleReuseTests {
    private func json(_ resource: Resource) async throws -> JSON {
        let response = try await resource.load().awaitResult()
        return try #require(response.entity?.content as? JSON, "\(resource.url): \(String(describing: resource.latestError))")
    }

    @Test func aPlainGetsHandleServesTheNextGetWithNothingOfItsOwn() async throws {
        let server = try PythonTestServer()
        defer { server.stop() }
        let provider = CurlProvider()
        let service = Service(baseURL: server.baseURL, networking: provider)
        service.configure("/private/echo") { $0.headers["X-Secret"] = "s3" }
        service.configure("/slow") { $0.timeout = 0.2 }

        #expect(try await json(service.resource("/private/echo"))["headers"]?["x-secret"] == "s3")
        // Back in the pool before the completion arrived.
        #expect(provider.handles.idleCount == 1)
        let plain = try await json(service.resource("/echo"))
        #expect(plain["headers"]?["x-secret"] == nil, "a header stayed with the handle")
        #expect(plain["headers"]?["user-agent"] == "hammock")
        // A redirect's hops are GETs too.
        let redirected = try await json(service.resource("/redirect").withParam("to", "/echo"))
        #expect(redirected["method"] == "GET")
        #expect(provider.handlesMade == 1, "three GETs, one handle")

        // A time limit of its own, then none: the handle waits as long as the next request allows.
        let hurried = service.resource("/slow").withParam("ms", "1000")
        _ = try? await hurried.load().awaitResult()
        #expect(hurried.latestError?.userMessage.lowercased().contains("timed out") == true, "\(String(describing: hurried.latestError))")
        let patient = Service(baseURL: server.baseURL, networking: provider)
        patient.configure { $0.timeout = 0 }
        #expect(try await json(patient.resource("/slow").withParam("ms", "400"))["slow"] == true)
        #expect(provider.handlesMade == 1)
    }

    @Test func aHandleThatCarriedStateIsNotReused() async throws {
        let server = try PythonTestServer()
        defer { server.stop() }
        let provider = CurlProvider()
        let service = Service(baseURL: server.baseURL, networking: provider)
        service.configure("/digest") { $0.transport.credentials = HTTPCredentials(user: "ops", password: "digest-pass", scheme: .digest) }
        service.configure("/cookies/**") { $0.transport.cookieJar = CookieJar(name: "jar") }
        let plain = service.resource("/echo")

        // Each of these leaves its handle for cleanup, and the plain GET after it gets a new one.
        var made = 0
        func plainAfter(_ what: String) async throws -> JSON {
            #expect(provider.handles.idleCount == 0, "\(what): its handle was kept")
            let echoed = try await json(plain)
            made += 1
            #expect(provider.handlesMade == made + 1, "\(what)")
            #expect(echoed["method"] == "GET", "\(what)")
            #expect(echoed["body"] == "", "\(what)")
            for header in ["authorization", "cookie", "content-length", "content-type", "x-secret"] {
                #expect(echoed["headers"]?[header] == nil, "\(what): \(header) went with a later request")
            }
            return echoed
        }

        #expect(try await json(service.resource("/digest"))["authenticated"] == true)
        _ = try await plainAfter("digest credentials")

        #expect(try await json(service.resource("/cookies/set").withParam("session", "abc123"))["cookies"]?["session"] == "abc123")
        _ = try await plainAfter("a cookie jar")

        let posted = try await service.resource("/private/echo").request(.post, text: "secret-body").awaitResult()
        #expect((posted.entity?.content as? JSON)?["body"] == "secret-body")
        _ = try await plainAfter("a POST with a body")

        _ = try await service.resource("/echo").request(.head).awaitResult()
        _ = try await plainAfter("a HEAD")

        let redirectedPost = try await service.resource("/redirect").withParams(["status": "303", "to": "/echo"])
            .request(.post, text: "first hop only").awaitResult()
        #expect((redirectedPost.entity?.content as? JSON)?["method"] == "GET")
        _ = try await plainAfter("a POST redirected to a GET")
        #expect(provider.handles.idleCount == 1, "the plain GETs' handle")
    }

    @Test func aHandleServesOnlyTheTLSSettingsItWasMadeWith() async throws {
        let pki = try TestCertificates()
        let client = try pki.leaf(name: "me", client: true)
        let asking = try PythonTestServer(certificate: try pki.leaf(name: "asking"), clientCA: pki.caCertificate)
        defer { asking.stop() }
        let provider = CurlProvider()
        let service = Service(baseURL: asking.baseURL, networking: provider)
        service.configure("**") { $0.transport.tls.caFile = pki.caCertificate }
        service.configure("/mine/**") {
            $0.transport.tls.clientCertificate = client.certificate
            $0.transport.tls.clientKey = client.key
        }
        #expect(try await json(service.resource("/mine/echo"))["method"] == "GET")
        // Neither the handle, its connection nor a resumed TLS session presents the certificate for another request.
        let anonymous = service.resource("/echo")
        _ = try? await anonymous.load().awaitResult()
        #expect(anonymous.latestError != nil, "the server asks for a client certificate; this request has none")
        #expect(try await json(service.resource("/mine/echo"))["method"] == "GET")
        #expect(provider.handlesMade == 2, "one handle for each set of TLS settings")

        let selfSigned = try PythonTestServer(certificate: try pki.leaf(name: "self", selfSigned: true))
        defer { selfSigned.stop() }
        let other = Service(baseURL: selfSigned.baseURL, networking: provider)
        other.configure("/loose/**") { $0.transport.tls.insecure = true }
        #expect(try await json(other.resource("/loose/echo"))["method"] == "GET")
        let strict = other.resource("/echo")
        for _ in 0..<2 {
            _ = try? await strict.load().awaitResult()
            #expect(strict.latestError?.userMessage == "The server's certificate is self-signed and not trusted (trust it with tls.ca)")
        }
        #expect(try await json(other.resource("/loose/echo"))["method"] == "GET")
        #expect(provider.handlesMade == 4)
    }

    @Test func aReusedHandleReportsTheCertificateOfItsOwnConnection() async throws {
        let pki = try TestCertificates()
        let first = try PythonTestServer(certificate: try pki.leaf(name: "first", hosts: ["127.0.0.1", "localhost"]))
        defer { first.stop() }
        let second = try PythonTestServer(certificate: try pki.leaf(name: "second", hosts: ["localhost", "127.0.0.1"]))
        defer { second.stop() }
        let provider = CurlProvider()
        func subject(_ server: PythonTestServer) async throws -> String? {
            let service = Service(baseURL: server.baseURL, networking: provider)
            service.configure("**") { $0.transport.tls.caFile = pki.caCertificate }
            let resource = service.resource("/echo")
            _ = try await json(resource)
            return resource.latestMetrics?.certificate?.subject
        }
        // The second round runs on kept-alive connections (no new handshake) and on a handle that
        // last served the other server: each still reports its own server's certificate.
        for round in 1...2 {
            #expect(try await subject(first)?.contains("127.0.0.1") == true, "round \(round)")
            #expect(try await subject(second)?.contains("localhost") == true, "round \(round)")
        }
        #expect(provider.handlesMade == 1)
    }
}
