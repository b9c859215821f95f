import Dispatch
import Foundation
import ResourceEngine

/// In-memory networking for tests: canned responses by URL, every request recorded, and the
/// option to hold responses back and release them when the test says so.
///
/// Completions arrive from a background queue, as URLSession's do, so tests exercise the engine's
/// hop back to the main actor.
@MainActor
public final class FakeNetworkingProvider: NetworkingProvider {
    /// A canned outcome: a response with a body, or a transport error.
    public struct FakeResponse: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var error: (any Error)?
        /// What the transport says the exchange took, as libcurl would report it.
        public var timing: TransferTiming?

        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A response with a UTF-8 text body.
        public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain", headers: [String: String] = [:]) -> FakeResponse {
            var headers = headers
            headers["Content-Type"] = contentType
            return FakeResponse(status: status, headers: headers, body: Data(text.utf8))
        }

        /// A response with a JSON body.
        public static func json(_ json: String, status: Int = 200, headers: [String: String] = [:]) -> FakeResponse {
            text(json, status: status, contentType: "application/json", headers: headers)
        }

        /// A transport failure such as `TransportError(.cannotConnectToHost)`.
        public static func failure(_ error: any Error) -> FakeResponse {
            var response = FakeResponse(status: 0)
            response.error = error
            return response
        }
    }

    /// Produces the response for one request.
    public typealias Responder = @MainActor (OutgoingRequest) -> FakeResponse

    private struct Stub {
        let method: String?
        let url: String
        let responder: Responder
    }

    private struct Pending {
        let id: Int
        let request: OutgoingRequest
        let deliver: @Sendable (FakeResponse) -> Void
    }

    private var stubs: [Stub] = []
    private var pending: [Pending] = []
    private var nextID = 0

    /// Every request received, in order.
    public private(set) var receivedRequests: [OutgoingRequest] = []
    /// The transport options each request came with, in the same order.
    public private(set) var receivedTransports: [TransportOptions] = []
    /// How many requests were cancelled by the engine.
    public private(set) var cancelledCount = 0
    /// When true, responses wait in `heldRequests` until released.
    public var holdsResponses = false
    /// When false, `receivedRequests` stays empty (long runs, e.g. memory soaks, would grow it).
    public var recordsRequests = true

    public init() {}

    /// Answers requests for `url` (and `method`, if given) with `response`. Later stubs win.
    public func stub(_ method: RequestMethod? = nil, _ url: String, _ response: FakeResponse) {
        stub(method, url) { _ in response }
    }

    /// Answers requests for `url` with whatever `responder` returns for each request.
    public func stub(_ method: RequestMethod? = nil, _ url: String, responder: @escaping Responder) {
        stubs.append(Stub(method: method?.httpName, url: url, responder: responder))
    }

    /// How many requests were made for `url`.
    public func requestCount(for url: String) -> Int {
        receivedRequests.filter { $0.url?.absoluteString == url }.count
    }

    /// The requests waiting for release, oldest first.
    public var heldRequests: [OutgoingRequest] { pending.map(\.request) }

    /// Sends the responses to every held request.
    public func releaseAll() {
        let toRelease = pending
        pending = []
        for item in toRelease { item.deliver(respond(to: item.request)) }
    }

    /// Sends the response to the oldest held request.
    public func releaseFirst() {
        guard !pending.isEmpty else { return }
        let item = pending.removeFirst()
        item.deliver(respond(to: item.request))
    }

    public func startRequest(
        _ request: OutgoingRequest,
        transport: TransportOptions,
        progress: @escaping @Sendable (Double) -> Void,
        completion: @escaping @Sendable (NetworkResult) -> Void
    ) -> any RequestNetworking {
        if recordsRequests {
            receivedRequests.append(request)
            receivedTransports.append(transport)
        }
        nextID += 1
        let id = nextID
        let url = request.url!
        let deliver: @Sendable (FakeResponse) -> Void = { fake in
            DispatchQueue.global().async {
                if let error = fake.error {
                    completion(NetworkResult(error: error, timing: fake.timing))
                    return
                }
                progress(0.5)
                completion(NetworkResult(
                    response: HTTPResponseHead(statusCode: fake.status, headers: fake.headers, url: url), body: fake.body,
                    timing: fake.timing))
            }
        }
        if holdsResponses {
            pending.append(Pending(id: id, request: request, deliver: deliver))
        } else {
            deliver(respond(to: request))
        }
        return Transfer(id: id, provider: self)
    }

    private func respond(to request: OutgoingRequest) -> FakeResponse {
        let url = request.url?.absoluteString ?? ""
        let method = request.httpMethod ?? "GET"
        guard let stub = stubs.last(where: { $0.url == url && ($0.method == nil || $0.method == method) }) else {
            return .failure(UnstubbedRequest(method: method, url: url))
        }
        return stub.responder(request)
    }

    fileprivate func cancel(id: Int) {
        cancelledCount += 1
        if let index = pending.firstIndex(where: { $0.id == id }) {
            let item = pending.remove(at: index)
            item.deliver(.failure(TransportError(.cancelled)))
        }
    }

    private struct Transfer: RequestNetworking {
        let id: Int
        weak var provider: FakeNetworkingProvider?

        func cancel() {
            let id = id
            let provider = provider
            MainActor.assumeIsolated { provider?.cancel(id: id) }
        }
    }
}

/// The error an unstubbed request fails with, naming the request so the test says what is missing.
public struct UnstubbedRequest: Error, CustomStringConvertible {
    public let method: String
    public let url: String
    public var description: String { "no stub for \(method) \(url)" }
}
