import Foundation
import ResourceEngine
import URLSessionNetworking
import Testing

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
