import Dispatch
import FoundationEssentials

/// A request that goes over the network and through the resource's pipeline.
///
/// Flow: send through the service's provider → hop to the main actor → interpret status and 304 →
/// run the pipeline once, off the main actor, for new responses → hop back → broadcast. When the
/// provider completes off the main actor (libcurl's thread), a small new answer is interpreted
/// and processed right there, then hops to the main actor once.
@MainActor
final class NetworkRequestDelegate: RequestDelegate {
    let resource: Resource
    let requestBuilder: @MainActor () -> OutgoingRequest
    let underlyingRequest: OutgoingRequest
    private var networking: (any RequestNetworking)?
    /// The progress estimate, and the timer that reports it.
    private var estimate = ProgressEstimate(isGet: true)
    private var progressTimer: EngineTimer?

    init(resource: Resource, requestBuilder: @escaping @MainActor () -> OutgoingRequest) {
        self.resource = resource
        self.requestBuilder = requestBuilder
        self.underlyingRequest = requestBuilder()
    }

    var requestDescription: String {
        "\(underlyingRequest.httpMethod ?? "GET") \(underlyingRequest.url?.absoluteString ?? "?")"
    }

    func startUnderlyingOperation(passingResponseTo handler: any RequestCompletionHandler) {
        let method = RequestMethod(httpName: underlyingRequest.httpMethod)
        let configuration = resource.configuration(for: method)
        let pipeline = configuration.pipeline
        let clock = resource.service.clock
        let startedAt = clock.now
        let provider = resource.service.networking
        let processesInPlace = provider.completesOffTheMainActor && !pipeline.isEmpty
        let memo = resource.pipelineMemo
        estimate = ProgressEstimate(isGet: method == .get || method == .head)
        let interval = configuration.progressReportingInterval
        if interval > 0 { reportProgress(to: handler, every: interval, startedAt: startedAt) }
        networking = provider.startRequest(
            underlyingRequest,
            transport: configuration.transport,
            progress: { fraction in
                MainQueue.async {
                    self.estimate.received(fraction)
                    handler.reportProgress(self.estimate.value(after: clock.now - startedAt))
                }
            },
            completion: { result in
                // Off the main actor already: a small body goes through the pipeline here, one
                // hop instead of three (to the main actor, to a background queue, back).
                if processesInPlace,
                    let (processed, newMemo) = NetworkRequestDelegate.processInPlace(
                        result, pipeline: pipeline, memo: memo, clock: clock, startedAt: startedAt)
                {
                    MainQueue.async {
                        if let newMemo { self.resource.pipelineMemo = newMemo }
                        self.deliver(processed, handler: handler, status: result.response?.statusCode)
                    }
                    return
                }
                MainQueue.async {
                    self.handleResponse(result, handler: handler, pipeline: pipeline, memo: memo, startedAt: startedAt)
                }
            })
    }

    /// Bodies up to this size are processed where the provider completes, when it completes off
    /// the main actor; larger ones on a background queue.
    nonisolated static let inPlaceLimit = 16 << 10

    /// The processed response for a new, small answer (not a 304, which needs the resource's
    /// data, nor a transport error); nil otherwise.
    nonisolated static func processInPlace(
        _ result: NetworkResult, pipeline: Pipeline, memo: PipelineMemo?, clock: any EngineClock, startedAt: TimeInterval
    ) -> (ResponseInfo, PipelineMemo?)? {
        guard result.error == nil, let response = result.response, response.statusCode != 304,
            (result.body?.count ?? 0) <= inPlaceLimit
        else { return nil }
        let now = clock.now
        let info = interpretFresh(response, result.body, now: now)
        let metrics = TransferMetrics(
            statusCode: response.statusCode, latency: result.timing?.total ?? max(0, now - startedAt),
            bodyBytes: result.body?.count ?? 0, finishedAt: now, timing: result.timing, certificate: result.certificate)
        let (processed, newMemo) = pipeline.process(info, reusing: memo)
        return (ResponseInfo(response: processed, isNew: true, metrics: metrics), newMemo)
    }

    private func deliver(_ info: ResponseInfo, handler: any RequestCompletionHandler, status: Int?) {
        progressTimer?.cancel()
        guard !handler.willIgnore(info) else { return }
        EngineLog.log(.network, "\(status.map(String.init) ?? "no response") ← \(requestDescription)")
        NetworkRequestDelegate.broadcast(info, to: handler)
    }

    /// Every delivery runs in a main-queue turn of the answer's own: a `Request`'s hooks run in it.
    private static func broadcast(_ info: ResponseInfo, to handler: any RequestCompletionHandler) {
        if let request = handler as? Request {
            request.broadcastResponse(info, inOwnTurn: true)
        } else {
            handler.broadcastResponse(info)
        }
    }

    func cancelUnderlyingOperation() {
        networking?.cancel()
        progressTimer?.cancel()
    }

    /// Reports the estimate every `interval` on the service's clock until the request completes:
    /// progress rises while nothing has arrived, as Siesta's does.
    private func reportProgress(to handler: any RequestCompletionHandler, every interval: TimeInterval, startedAt: TimeInterval) {
        let clock = resource.service.clock
        progressTimer = clock.schedule(after: interval) { [weak self] in
            guard let self, !handler.willIgnore(.cancellation) else { return }
            handler.reportProgress(self.estimate.value(after: clock.now - startedAt))
            self.reportProgress(to: handler, every: interval, startedAt: startedAt)
        }
    }

    func repeated() -> any RequestDelegate {
        NetworkRequestDelegate(resource: resource, requestBuilder: requestBuilder)
    }

    private func handleResponse(
        _ result: NetworkResult, handler: any RequestCompletionHandler, pipeline: Pipeline, memo: PipelineMemo?, startedAt: TimeInterval
    ) {
        let now = resource.service.clock.now
        let response = result.response
        var info = interpret(response, result.body, result.error, now: now)
        // The transport's own measure when it has one: time spent queued is not latency.
        info.metrics = TransferMetrics(
            statusCode: response?.statusCode, latency: result.timing?.total ?? max(0, now - startedAt),
            bodyBytes: result.body?.count ?? 0, finishedAt: now, timing: result.timing, certificate: result.certificate)
        guard !handler.willIgnore(info) else { return }
        EngineLog.log(.network, "\(response.map { String($0.statusCode) } ?? "no response") ← \(requestDescription)")
        guard info.isNew, !pipeline.isEmpty else {
            NetworkRequestDelegate.broadcast(info, to: handler)
            return
        }
        let raw = info
        DispatchQueue.global(qos: .userInitiated).async {
            let (processed, newMemo) = pipeline.process(raw.response, reusing: memo)
            MainQueue.async {
                if let newMemo { self.resource.pipelineMemo = newMemo }
                NetworkRequestDelegate.broadcast(ResponseInfo(response: processed, isNew: true, metrics: raw.metrics), to: handler)
            }
        }
    }

    private func interpret(_ response: HTTPResponseHead?, _ data: Data?, _ error: (any Error)?, now: TimeInterval) -> ResponseInfo {
        if let error {
            return ResponseInfo(response: .failure(RequestError(response: response, content: data, cause: error, timestamp: now)))
        }
        guard let response else {
            return ResponseInfo(
                response: .failure(
                    RequestError(response: nil, content: data, cause: TransportError(.badServerResponse), timestamp: now)))
        }
        if response.statusCode == 304 {
            if let existing = resource.latestData {
                return ResponseInfo(response: .success(existing), isNew: false)
            }
            return ResponseInfo(
                response: .failure(
                    RequestError(
                        userMessage: "No data available", cause: RequestError.Cause.NoLocalDataFor304(),
                        httpStatusCode: 304, timestamp: now)))
        }
        return ResponseInfo(response: NetworkRequestDelegate.interpretFresh(response, data, now: now))
    }

    /// A status ≥ 400 is a failure with its body; anything else but a 304 is new data.
    nonisolated static func interpretFresh(_ response: HTTPResponseHead, _ data: Data?, now: TimeInterval) -> Response {
        if response.statusCode >= 400 {
            return .failure(RequestError(response: response, content: data, cause: nil, timestamp: now))
        }
        return .success(Entity(response: response, content: data ?? Data(), timestamp: now))
    }
}
