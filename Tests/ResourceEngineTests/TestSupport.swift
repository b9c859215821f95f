import CurlNetworking
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

extension Response {
    /// The entity of a success, for assertions.
    var entity: Entity? {
        if case .success(let entity) = self { entity } else { nil }
    }

    /// The error of a failure, for assertions.
    var error: RequestError? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension Entity {
    /// Raw content as UTF-8 text (content is still `Data` while no pipeline is configured).
    var bodyText: String? {
        (content as? Data).flatMap { String(data: $0, encoding: .utf8) } ?? (content as? String)
    }
}

/// An object to own observers in tests.
final class Owner {}

/// The real networking providers; integration and torture suites run against each.
enum Transport: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case urlSession, curl

    var testDescription: String { rawValue }

    @MainActor
    func provider(maxResponseBytes: Int = URLSessionProvider.defaultMaxResponseBytes) -> any NetworkingProvider {
        switch self {
        case .urlSession: URLSessionProvider(maxResponseBytes: maxResponseBytes)
        case .curl: CurlProvider(options: .init(maxResponseBytes: maxResponseBytes))
        }
    }
}
