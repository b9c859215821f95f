import FoundationEssentials

/// The transport seam: sends a `OutgoingRequest` and reports the raw outcome as a `NetworkResult`.
///
/// The engine never talks to the network directly. `URLSessionProvider` is the default one,
/// `CurlProvider` (libcurl) the one to use on Linux; tests use `FakeNetworkingProvider` from
/// ResourceEngineTesting. `startRequest` is called on the main actor; the callbacks may be called
/// on any thread, and `completion` exactly once.
@MainActor
public protocol NetworkingProvider: AnyObject {
    /// Starts `request` with the `transport` options configured for its URL.
    func startRequest(
        _ request: OutgoingRequest,
        transport: TransportOptions,
        progress: @escaping @Sendable (Double) -> Void,
        completion: @escaping @Sendable (NetworkResult) -> Void
    ) -> any RequestNetworking

    /// True when `completion` is always called off the main actor, on a thread where a short
    /// parse does no harm: the engine then runs the pipeline for small bodies right there,
    /// instead of hopping to a background queue and back. False by default.
    var completesOffTheMainActor: Bool { get }
}

extension NetworkingProvider {
    public var completesOffTheMainActor: Bool { false }
}

extension NetworkingProvider {
    /// Starts `request` with default transport options.
    public func startRequest(
        _ request: OutgoingRequest,
        progress: @escaping @Sendable (Double) -> Void,
        completion: @escaping @Sendable (NetworkResult) -> Void
    ) -> any RequestNetworking {
        startRequest(request, transport: TransportOptions(), progress: progress, completion: completion)
    }
}

/// A running transfer that can be cancelled.
public protocol RequestNetworking: Sendable {
    /// Stops the transfer; its completion may still be called, and is then ignored.
    func cancel()
}
