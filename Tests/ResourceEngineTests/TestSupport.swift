import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

/// A service over fake networking and a manual clock, as every engine spec starts.
@MainActor
struct Harness {
    static let base = "https://api.example.test/v1/"

    let network = FakeNetworkingProvider()
    let clock = ManualClock()
    let service: Service

    init(baseURL: String? = Harness.base) {
        service = Service(baseURL: baseURL, networking: network, clock: clock)
    }

    /// The resource most specs use.
    var resource: Resource { service.resource("/a/b") }

    /// Stubs GET `resource` with a text body.
    func stubText(_ resource: Resource, _ text: String, status: Int = 200, headers: [String: String] = [:]) {
        network.stub(.get, resource.url.absoluteString, .text(text, status: status, headers: headers))
    }
}

/// An object to own observers in tests.
final class Owner {}
