import Foundation
import HammockHarness
@testable import ResourceEngine
import ResourceEngineTesting
import URLSessionNetworking
import Testing

/// A `Service` made without a transport uses libcurl, not URLSession (which keeps about 200
/// bytes a request on Linux), and starts its transfer thread only when it first loads.
@MainActor
@Suite struct DefaultTransportTests {
    @Test func aServiceWithoutATransportLoadsThroughLibcurl() async throws {
        let server = try StaticFileServer()
        defer { server.stop() }
        try server.write("{\"status\":\"UP\"}", to: "status.json", modified: Date(timeIntervalSinceNow: -60))
        let service = Service(baseURL: server.baseURL)
        let curl = try #require(service.networking as? CurlProvider)
        #expect(curl.startedLoop == nil, "no thread before the first request")

        let resource = service.resource("/status.json")
        _ = try await resource.load().awaitResult()
        #expect(resource.latestData?.json == ["status": "UP"])
        #expect(curl.startedLoop != nil)
        #expect(curl.handlesMade == 1, "the request went through libcurl")
    }

    @Test func eachServiceHasATransportOfItsOwnUnlessGivenOne() {
        let first = Service(baseURL: "http://127.0.0.1:1/")
        let second = Service(baseURL: "http://127.0.0.1:1/")
        #expect(first.networking !== second.networking)
        let shared = CurlProvider()
        #expect(Service(networking: shared).networking === shared)
        #expect(Service(networking: URLSessionProvider()).networking is URLSessionProvider)
    }
}
