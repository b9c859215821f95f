import Foundation
import FoundationNetworking
import ResourceEngine
import ResourceEngineTesting
import Testing

/// The README's "Using the engine on its own" example, kept compiling and working.
@MainActor
@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleWorks() async throws {
        let network = FakeNetworkingProvider()
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // As in the README, with the fake provider and a known base URL.
        let service = Service(baseURL: "https://api.example.com/v2/", networking: network)
        service.configure("/orders/**") { $0.expirationTime = 10 }
        service.configureTransformer("/orders/**") { (json: JSON, _) in json["items"] }

        let owner = NSObject()
        let health = service.resource("/health")
        network.stub(.get, health.url.absoluteString, .json(#"{"status":"UP"}"#))
        health.addObserver(owner: owner) { resource, event in
            print(event.externalName, resource.jsonDict["status"]?.stringValue ?? "-", resource.latestError?.userMessage ?? "")
        }
        let request = try #require(health.loadIfNeeded())
        _ = try await request.awaitResult()
        #expect(printed == ["ObserverAdded - ", "Requested - ", "NewData(Network) UP "])
        #expect("\(health.json!)" == #"{"status":"UP"}"#, "JSON describes itself as compact JSON")

        let orders = service.resource("/orders/open")
        network.stub(.get, orders.url.absoluteString, .json(#"{"items":[1,2]}"#))
        _ = try await orders.load().awaitResult()
        #expect(orders.jsonArray == [1, 2])
        #expect(orders.configuration.expirationTime == 10)
    }

    /// GettingStarted.md's configuration and pipeline snippets, as written there.
    @Test func theGuidesSnippetsWork() async throws {
        let network = FakeNetworkingProvider()
        let service = Service(baseURL: "http://127.0.0.1:8000/", networking: network)
        service.configure { $0.expirationTime = 60 }  // every URL of the service
        service.configure("/orders/**") { $0.expirationTime = 10 }  // below /orders/
        service.configure("/orders/*", requestMethods: [.get]) { $0.headers["Accept"] = "application/json" }
        service.configureTransformer("/orders/**") { (json: JSON, _) in json["items"] }

        let orders = service.resource("/orders/open")
        #expect(orders.configuration.expirationTime == 10)
        #expect(orders.configuration.headers["Accept"] == "application/json")
        #expect(service.resource("/health").configuration.expirationTime == 60)
        network.stub(.get, orders.url.absoluteString, .json(#"{"items":[{"id":1},{"id":2}]}"#))
        _ = try await orders.load().awaitResult()
        #expect(orders.jsonArray.count == 2)
        #expect(network.receivedRequests.last?.value(forHTTPHeaderField: "Accept") == "application/json")
    }
}
