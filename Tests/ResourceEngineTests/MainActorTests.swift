import FlyingFox
import Foundation
import HammockHarness
import LoopbackHTTP
import ResourceEngine
import ResourceEngineTesting
import Testing

/// Settles the threading model (DECISIONS.md): the engine lives on the main actor, network and
/// pipeline work happens elsewhere, and every result comes back to the main actor in order.
@MainActor
@Suite struct MainActorTests {
    @Test func realLoadCompletesOnTheMainActorWithHooksInOrder() async throws {
        let server = try await LocalTestServer.start { server in
            await server.appendRoute("GET /ping") { _ in
                HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data("pong".utf8))
            }
        }
        defer { Task { await server.stop() } }
        let service = Service(baseURL: server.baseURL)
        let resource = service.resource("/ping")
        var order: [String] = []
        let request = resource.load()
        request.onSuccess { _ in
            MainActor.assertIsolated()
            order.append("success")
        }
        request.onCompletion { _ in order.append("completion") }
        let response = try await request.awaitResult()
        #expect(response.entity?.bodyText == "pong")
        #expect(order == ["success", "completion"])
        #expect(resource.latestData?.bodyText == "pong")
        #expect(!resource.isLoading)
    }

    @Test func completionsFromABackgroundQueueAreDeliveredOnTheMainActor() async throws {
        let harness = Harness()
        harness.stubText(harness.resource, "hello")
        let observer = RecordingObserver()
        var isolatedAtEvent = false
        observer.onEvent = { _, _ in
            MainActor.assertIsolated()
            isolatedAtEvent = true
        }
        harness.resource.addObserver(observer)
        _ = try await harness.resource.load().awaitResult()
        #expect(isolatedAtEvent)
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
    }
}
