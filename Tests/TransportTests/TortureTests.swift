import Foundation
import HammockHarness
import ResourceEngine
import ResourceEngineTesting
import Testing

/// The engine against a server that misbehaves in every way: each failure becomes that resource's
/// `RequestError` with a clear message, and the next good response recovers it.
@MainActor
@Suite(.serialized) struct TortureTests {
    private func withHostile(_ transport: Transport, _ body: @MainActor (HostileServer, Service) async throws -> Void) async throws {
        let server = try await HostileServer.start()
        let service = Service(baseURL: server.baseURL, networking: transport.provider())
        // Short timeouts only where a timeout is the point; everything else may be slow on a busy machine.
        service.configure("**") { $0.timeout = 15 }
        service.configure("/hang") { $0.timeout = 1.5 }
        service.configure("/drip") { $0.timeout = 1.5 }
        service.configure("/switchable") { $0.timeout = 3 }
        do { try await body(server, service) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func load(_ resource: Resource) async throws -> Response {
        try await resource.load().awaitResult(timeout: 20)
    }

    @Test(arguments: Transport.allCases)
    func everyHostileEndpointBecomesAClearError(transport: Transport) async throws {
        try await withHostile(transport) { _, service in
            let expected: [(String, String)] = [
                ("/hang", "The request timed out"),
                ("/drip", "The request timed out"),
                ("/cut", "The server closed the connection before the response was complete"),
                ("/loop", "Too many redirects"),
                ("/huge", "Response too large (over 8 MiB)"),
                ("/huge-chunked", "Response too large (over 8 MiB)"),
                ("/invalid-json", "Invalid JSON: expected a quoted key but found character 'o' at line 1, column 18"),
                ("/bad-utf8", "Response is not valid utf-8 text"),
            ]
            // All at once, as a dashboard would: one slow endpoint never holds up the others.
            let requests = expected.map { service.resource($0.0).load() }
            for (request, (path, message)) in zip(requests, expected) {
                let response = try await request.awaitResult(timeout: 20)
                // libcurl also says how much was missing: "… complete (4989 of 5000 bytes missing)".
                #expect(response.error?.userMessage.hasPrefix(message) == true, "\(path): \(response.error?.userMessage ?? "no error")")
                #expect(service.resource(path).latestData == nil, "\(path)")
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func aConnectionResetIsAnError(transport: Transport) async throws {
        try await withHostile(transport) { server, service in
            let resource = service.resource(absoluteURL: server.resetURL)
            let error = try #require(try await load(resource).error)
            #expect(["The server closed the connection before the response was complete", "The network connection was lost", "The server sent an invalid response"].contains(error.userMessage), "\(error)")
        }
    }

    @Test(arguments: Transport.allCases)
    func oddButValidResponsesAreData(transport: Transport) async throws {
        try await withHostile(transport) { _, service in
            let text = service.resource("/json-as-text")
            _ = try await load(text)
            #expect(text.text == #"{"status":"UP"}"#, "labelled text, so it is text")
            let escapes = service.resource("/escapes")
            _ = try await load(escapes)
            #expect(escapes.text == HostileServer.escapeBody, "the engine keeps data as sent; the screen sanitises")
            let headers = service.resource("/many-headers")
            _ = try await load(headers)
            #expect(headers.jsonDict["headers"] == 1000)
            #expect((headers.latestData?.headers.count ?? 0) >= 1000)
        }
    }

    @Test(arguments: Transport.allCases)
    func aHundredStatusCodes(transport: Transport) async throws {
        try await withHostile(transport) { _, service in
            let codes = Array(200...226) + Array(400...451) + Array(500...520)
            #expect(codes.count == 100)
            let requests = codes.map { service.resource("/status/\($0)").load() }
            for (code, request) in zip(codes, requests) {
                let response = try await request.awaitResult(timeout: 20)
                if code >= 400 {
                    #expect(response.error?.httpStatusCode == code, "\(code)")
                    #expect(response.error?.userMessage == HTTPStatus.reasonPhrase(for: code), "\(code)")
                } else {
                    #expect(response.error == nil, "\(code): \(String(describing: response.error))")
                }
            }
        }
    }

    @Test(arguments: Transport.allCases, HostileServer.Behaviour.allCases.filter { $0 != .good })
    func theNextGoodResponseRecovers(transport: Transport, behaviour: HostileServer.Behaviour) async throws {
        try await withHostile(transport) { server, service in
            let resource = service.resource("/switchable")
            _ = try await load(resource)
            #expect(resource.json == ["status": "UP"])
            await server.setBehaviour(behaviour)
            _ = try await load(resource)
            #expect(resource.latestError != nil, "\(behaviour)")
            #expect(resource.json == ["status": "UP"], "the last good data stays")
            await server.setBehaviour(.good)
            _ = try await load(resource)
            #expect(resource.latestError == nil, "\(behaviour)")
            #expect(resource.json == ["status": "UP"])
        }
    }
}
