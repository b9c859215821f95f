/// A request whose outcome is fixed in advance: no network, no pipeline.
@MainActor
final class HardWiredRequestDelegate: RequestDelegate {
    let responseInfo: ResponseInfo

    init(_ responseInfo: ResponseInfo) {
        self.responseInfo = responseInfo
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: any RequestCompletionHandler) {
        completionHandler.broadcastResponse(responseInfo)
    }

    func cancelUnderlyingOperation() {}

    func repeated() -> any RequestDelegate { self }

    var requestDescription: String {
        switch responseInfo.response {
        case .success: "hard-wired success"
        case .failure(let error): "hard-wired failure: \(error.userMessage)"
        }
    }
}
