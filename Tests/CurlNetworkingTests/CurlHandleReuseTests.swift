@testable import CurlNetworking
import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

/// libcurl handles are reused from transfer to transfer (`CurlHandlePool`); a reused handle
/// carries nothing of the request it served before: not its credentials, headers, method, body,
/// time limit, TLS identity or trust, and never a cookie jar's cookies.
@MainActor
@Suite(.serialized) struct CurlHandleReuseTests {
    private func json(_ resource: Resource) async throws -> JSON {
        let response = try await resource.load().awaitResult()
        return try #require(response.entity?.content as? JSON, "\(resource.url): \(String(describing: resource.latestError))")
    }

    @Test func aHandleIsReusedAndCarriesNothingOfTheRequestBefore() async throws {
        let server = try PythonTestServer()
        defer { server.stop() }
        let provider = CurlProvider()
        let service = Service(baseURL: server.baseURL, networking: provider)
        service.configure("/digest") { $0.transport.credentials = HTTPCredentials(user: "ops", password: "digest-pass", scheme: .digest) }
        service.configure("/private/echo") { $0.headers["X-Secret"] = "s3" }
        service.configure("/cookies/set") { $0.transport.cookieJar = CookieJar(name: "jar") }
        service.configure("/slow") { $0.timeout = 0.2 }
        let plain = service.resource("/echo")

        #expect(try await json(service.resource("/digest"))["authenticated"] == true)
        let afterDigest = try await json(plain)
        #expect(afterDigest["headers"]?["authorization"] == nil)
        #expect(provider.handlesMade == 1, "the digest exchange's handle served the next request")

        let posted = try await service.resource("/private/echo").request(.post, text: "secret-body").awaitResult()
        #expect((posted.entity?.content as? JSON)?["headers"]?["x-secret"] == "s3")
        _ = try await service.resource("/private/echo").request(.head).awaitResult()
        let afterPost = try await json(plain)
        #expect(afterPost["method"] == "GET")
        #expect(afterPost["body"] == "")
        for header in ["x-secret", "content-length", "content-type", "authorization", "cookie"] {
            #expect(afterPost["headers"]?[header] == nil, "\(header) stayed with the request that had it")
        }
        #expect(provider.handlesMade == 1)

        // A time limit of its own, then none: the reused handle waits as long as the next request allows.
        let hurried = service.resource("/slow").withParam("ms", "1000")
        _ = try? await hurried.load().awaitResult()
        #expect(hurried.latestError?.userMessage.lowercased().contains("timed out") == true, "\(String(describing: hurried.latestError))")
        let patient = Service(baseURL: server.baseURL, networking: provider)
        #expect(try await json(patient.resource("/slow").withParam("ms", "400"))["slow"] == true)
        #expect(provider.handlesMade == 1)

        // The jar's transfer takes the idle handle and does not give it back: its cookie engine goes with it.
        let set = try await json(service.resource("/cookies/set").withParam("session", "abc123"))
        #expect(set["cookies"]?["session"] == "abc123")
        #expect(provider.handlesMade == 1)
        #expect(provider.handles.idleCount == 0)
        #expect(try await json(service.resource("/cookies"))["cookies"] == .object(JSONObject()))
        #expect(try await json(service.resource("/cookies"))["cookies"] == .object(JSONObject()))
        #expect(provider.handlesMade == 2)
    }

    @Test func aReusedHandleKeepsNoTLSIdentityOrTrust() async throws {
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
        // Neither the connection nor a resumed TLS session presents the certificate for another request.
        let anonymous = service.resource("/echo")
        _ = try? await anonymous.load().awaitResult()
        #expect(anonymous.latestError != nil, "the server asks for a client certificate; this request has none")
        #expect(try await json(service.resource("/mine/echo"))["method"] == "GET")
        #expect(provider.handlesMade == 1)

        let selfSigned = try PythonTestServer(certificate: try pki.leaf(name: "self", selfSigned: true))
        defer { selfSigned.stop() }
        let other = Service(baseURL: selfSigned.baseURL, networking: provider)
        other.configure("/loose/**") { $0.transport.tls.insecure = true }
        #expect(try await json(other.resource("/loose/echo"))["method"] == "GET")
        let strict = other.resource("/echo")
        _ = try? await strict.load().awaitResult()
        #expect(strict.latestError?.userMessage == "The server's certificate is self-signed and not trusted (trust it with tls.ca)")
        #expect(provider.handlesMade == 1)
    }
}
