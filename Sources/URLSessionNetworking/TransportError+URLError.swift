import Foundation
import ResourceEngine

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportError {
    /// URLSession's error as the engine's: `URLError`'s code mapped, its description kept.
    init(converting error: any Error) {
        guard let error = error as? URLError else {
            self.init(.unknown, detail: String(describing: error))
            return
        }
        let code: Code =
            switch error.code {
            case .cannotConnectToHost: .cannotConnectToHost
            case .cannotFindHost, .dnsLookupFailed: .cannotFindHost
            case .timedOut: .timedOut
            case .networkConnectionLost: .networkConnectionLost
            case .notConnectedToInternet: .notConnectedToInternet
            case .httpTooManyRedirects, .redirectToNonExistentLocation: .tooManyRedirects
            case .badServerResponse, .cannotParseResponse, .zeroByteResource: .badServerResponse
            case .secureConnectionFailed: .secureConnectionFailed
            case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid:
                .serverCertificateUntrusted
            case .cancelled: .cancelled
            case .badURL: .badURL
            case .unsupportedURL: .unsupportedURL
            case .dataLengthExceedsMaximum: .responseTooLarge
            default: .unknown
            }
        self.init(code, detail: code == .unknown ? error.localizedDescription : nil, failingURL: error.failingURL)
    }
}
