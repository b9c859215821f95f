import FoundationEssentials

/// What a rule reads of a resource's state: the live resource answers, and so does a snapshot.
@MainActor
public protocol ResourceState {
    /// True while a load request is in flight.
    var isLoading: Bool { get }
    /// True when there is data.
    var hasData: Bool { get }
    /// The latest error, if any.
    var latestError: RequestError? { get }
}

extension Resource: ResourceState {}

/// A resource's state at one moment, as a value: what a screen or a rule reads without holding
/// the live resource.
public struct ResourceSnapshot: ResourceState, Sendable {
    /// True while a load request was in flight.
    public let isLoading: Bool
    /// The latest data, if any.
    public let latestData: Entity?
    /// The latest error, if any (it may be newer or older than the data).
    public let latestError: RequestError?
    /// How the latest finished exchange went, if there was one in this run.
    public let latestMetrics: TransferMetrics?

    /// True when there was data.
    public var hasData: Bool { latestData != nil }
    /// True when there was an error.
    public var hasError: Bool { latestError != nil }

    /// A snapshot of the given state (a resource's own is `Resource.snapshot`).
    nonisolated public init(isLoading: Bool, latestData: Entity?, latestError: RequestError?, latestMetrics: TransferMetrics? = nil) {
        self.isLoading = isLoading
        self.latestData = latestData
        self.latestError = latestError
        self.latestMetrics = latestMetrics
    }
}

extension Resource {
    /// The resource's state now, as a value.
    public var snapshot: ResourceSnapshot {
        ResourceSnapshot(isLoading: isLoading, latestData: latestData, latestError: latestError, latestMetrics: latestMetrics)
    }
}
