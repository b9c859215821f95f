import FlyingFox
import Foundation
import HammockHarness
import LoopbackHTTP
import ResourceEngine
import ResourceEngineTesting
import Testing

/// Credentials stay with their origin: over real HTTP on 127.0.0.1, for both transports, a
/// redirect to another port or host is followed without the configured headers, and https is
/// never downgraded to http.
@MainActor
@Suite(.serialized) struct RedirectPolicyTests {
    /// Echoes the headers it received, lower-cased, as JSON.
    private nonisolated static func echo(_ request: HTTPRequest) async throws -> HTTPResponse {
        var headers: JSONObject = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = .string(value) }
        let body = String(decoding: try await request.bodyData, as: UTF8.self)
        let json: JSON = ["method": .string(request.method.rawValue), "headers": .object(headers), "body": .string(body)]
        return HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "application/json"]), body: try json.serialized())
    }

    private nonisolated static func redirect(_ status: HTTPStatusCode, to location: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: HTTPHeaders([.location: location]))
    }

    /// Origin A (where the headers are configured) and origin B (another port) on 127.0.0.1.
    private func withOrigins(_ transport: Transport, _ body: @MainActor (Service, LocalTestServer, LocalTestServer) async throws -> Void) async throws {
        let b = try await LocalTestServer.start { server in
            await server.appendRoute("*", handler: RedirectPolicyTests.echo)
        }
        let portB = b.port
        let a = try await LocalTestServer.start { server in
            await server.appendRoute("GET /same") { _ in RedirectPolicyTests.redirect(.found, to: "/landing") }
            await server.appendRoute("GET /other-port") { _ in RedirectPolicyTests.redirect(.found, to: "http://127.0.0.1:\(portB)/landing") }
            await server.appendRoute("POST /other-port-307") { _ in RedirectPolicyTests.redirect(.temporaryRedirect, to: "http://127.0.0.1:\(portB)/landing") }
            await server.appendRoute("POST /same-308") { _ in RedirectPolicyTests.redirect(.permanentRedirect, to: "/landing") }
            await server.appendRoute("*", handler: RedirectPolicyTests.echo)
        }
        let service = Service(baseURL: a.baseURL, networking: transport.provider())
        service.configure("**") {
            $0.headers["X-Api-Key"] = "key-4f9a2c"
            $0.headers["Authorization"] = "Bearer tok-77e1"
            $0.headers["Cookie"] = "session=abc123"
            $0.headers["Accept"] = "application/json"
        }
        do { try await body(service, a, b) } catch {
            await a.stop(); await b.stop()
            throw error
        }
        await a.stop()
        await b.stop()
    }

    @Test(arguments: Transport.allCases)
    func aRedirectWithinTheOriginKeepsEveryHeader(transport: Transport) async throws {
        try await withOrigins(transport) { service, _, _ in
            let resource = service.resource("/same")
            _ = try await resource.load().awaitResult()
            let headers = resource.jsonDict["headers"]
            #expect(headers?["x-api-key"] == "key-4f9a2c")
            #expect(headers?["authorization"] == "Bearer tok-77e1")
        }
    }

    @Test(arguments: Transport.allCases)
    func aRedirectToAnotherOriginIsFollowedWithoutTheConfiguredHeaders(transport: Transport) async throws {
        try await withOrigins(transport) { service, a, b in
            for (path, target) in [("/other-port", "another port"), ("redirect-host", "another host")] {
                let resource: Resource
                if path == "redirect-host" {
                    // localhost is another host than 127.0.0.1, though the same server answers.
                    let hop = try await LocalTestServer.start { server in
                        await server.appendRoute("*") { _ in RedirectPolicyTests.redirect(.found, to: "http://localhost:\(a.port)/landing") }
                    }
                    defer { Task { await hop.stop() } }
                    service.configure(hop.baseURL + "**") {
                        $0.headers["X-Api-Key"] = "key-4f9a2c"
                        $0.headers["Accept"] = "application/json"
                    }
                    resource = service.resource(absoluteURL: hop.url("/go"))
                    _ = try await resource.load().awaitResult()
                } else {
                    resource = service.resource(path)
                    _ = try await resource.load().awaitResult()
                }
                let headers = try #require(resource.jsonDict["headers"]?.objectValue, "\(target): \(String(describing: resource.latestError))")
                #expect(headers["x-api-key"] == nil, "\(target)")
                #expect(headers["authorization"] == nil, "\(target)")
                #expect(headers["cookie"] == nil, "\(target)")
                #expect(headers["accept"] == "application/json", "\(target): anonymous headers still go")
            }
            _ = b
        }
    }

    /// A body (a login's password, a query's tokens) never goes to another origin: a 307 or 308
    /// that would send it there is refused, saying so; within the origin it is followed.
    @Test(arguments: Transport.allCases)
    func a307ToAnotherOriginNeverSendsTheBodyThere(transport: Transport) async throws {
        try await withOrigins(transport) { service, _, b in
            let resource = service.resource("/other-port-307").withLoadRequest(try .json(.post, ["password": "pw-secret"]))
            _ = try await resource.load().awaitResult()
            #expect(resource.latestError?.userMessage == "Redirect refused: a 307 would send the request's body to another origin (http://127.0.0.1:\(b.port))")
            #expect(resource.latestData == nil, "nothing came from the other origin")

            let same = service.resource("/same-308").withLoadRequest(try .json(.post, ["q": "x"]))
            _ = try await same.load().awaitResult()
            #expect(same.jsonDict["method"] == "POST")
            if transport == .curl {
                // Foundation on Linux sends an empty body on a 307's second hop, whatever the delegate says.
                #expect(same.jsonDict["body"] == #"{"q":"x"}"#)
            }
            #expect(same.jsonDict["headers"]?["x-api-key"] == "key-4f9a2c", "within the origin everything goes")
        }
    }

    @Test(arguments: Transport.allCases)
    func withNoRedirectsTheRedirectIsTheAnswer(transport: Transport) async throws {
        try await withOrigins(transport) { service, _, _ in
            service.configure("/same") { $0.transport.maxRedirects = 0 }
            let resource = service.resource("/same")
            _ = try await resource.load().awaitResult()
            #expect(resource.latestMetrics?.statusCode == 302)
            #expect(resource.latestData?.header(forKey: "location") == "/landing")
        }
    }

    @Test func httpsIsNeverDowngradedToHTTP() async throws {
        let pki = try TestCertificates()
        let tls = try PythonTestServer(certificate: try pki.leaf(name: "server"))
        defer { tls.stop() }
        try await withOrigins(.curl) { service, a, _ in
            service.configure(tls.baseURL + "**") {
                $0.transport.tls.caFile = pki.caCertificate
                $0.headers["X-Api-Key"] = "key-4f9a2c"
            }
            let secure = service.resource(absoluteURL: tls.url("/echo"))
            _ = try await secure.load().awaitResult()
            #expect(secure.jsonDict["headers"]?["x-api-key"] == "key-4f9a2c", "trusted through tls.caFile")
            let target = a.url("/landing").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let downgrade = service.resource(absoluteURL: tls.url("/redirect?to=\(target)"))
            _ = try await downgrade.load().awaitResult()
            let error = try #require(downgrade.latestError)
            #expect(error.userMessage == "Redirect refused: https to plain http (http://127.0.0.1:\(a.port))")
            #expect(error.cause is RequestError.Cause.RedirectRefused)
        }
    }
}
