import CCurl
import Foundation
import ResourceEngine

extension CurlTransfer {
    /// libcurl's result as the `URLError` the engine turns into a screen message.
    ///
    /// Failures with a `URLError` of their own get its code ("Could not connect to the server");
    /// the rest keep libcurl's own explanation as the description, which the engine shows
    /// ("transfer closed with 993 bytes remaining" reads as a connection closed mid-body).
    /// `screenMessage` says more than the code's own message ("127.0.0.1:29080: connection refused").
    static func urlError(for code: CURLcode, detail: String?, screenMessage: String? = nil) -> URLError {
        let text = detail ?? String(cString: curl_easy_strerror(code))
        var info: [String: Any] = [NSLocalizedDescriptionKey: text, "CURLcode": Int(code.rawValue)]
        if let screenMessage { info[RequestError.screenMessageKey] = screenMessage }
        let mapped: URLError.Code? =
            switch code {
            case CURLE_COULDNT_CONNECT: .cannotConnectToHost
            case CURLE_COULDNT_RESOLVE_HOST: .cannotFindHost
            case CURLE_OPERATION_TIMEDOUT: .timedOut
            case CURLE_TOO_MANY_REDIRECTS: .httpTooManyRedirects
            case CURLE_UNSUPPORTED_PROTOCOL: .unsupportedURL
            case CURLE_URL_MALFORMAT: .badURL
            case CURLE_SEND_ERROR: .networkConnectionLost
            case CURLE_WEIRD_SERVER_REPLY: .badServerResponse
            case CURLE_SSL_CONNECT_ERROR: .secureConnectionFailed
            case CURLE_PEER_FAILED_VERIFICATION: .serverCertificateUntrusted
            case CURLE_ABORTED_BY_CALLBACK: .cancelled
            default: nil
            }
        return URLError(mapped ?? .unknown, userInfo: info)
    }
}
