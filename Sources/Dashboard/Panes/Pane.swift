import DashboardConfig
import Foundation
import ResourceEngine

/// One pane: a spec, the resource it watches, and its status overlay.
///
/// Registers as an observer of its resource, owned by the pane itself, so when the pane goes away
/// (quit, config reload) its observers go with it. Renders from the resource's state only.
@MainActor
public final class Pane {
    /// How the header counts a pane.
    public enum Health: Equatable, Sendable {
        /// Data, no error, every expectation met.
        case ok
        /// The latest load failed.
        case failing
        /// The data arrived but an expectation does not hold (see `unmetExpectation`).
        case unmet
        case loading, waiting
    }

    public let spec: PaneSpec
    public let resource: Resource
    public let overlay: StatusOverlay
    /// Lines scrolled in zoom.
    public var scroll = 0
    /// Why the latest response misses an expectation, or nil when all hold.
    public internal(set) var unmetExpectation: String?
    private var cadence: ScheduledAction?
    private var cachedContent: PaneContent?

    /// Starts observing `resource`; `onChange` is called after every event and overlay change.
    public init(spec: PaneSpec, resource: Resource, onChange: @escaping @MainActor () -> Void) {
        self.spec = spec
        self.resource = resource
        overlay = StatusOverlay(displayPriority: spec.overlay ?? StatusOverlay.dashboardDefault)
        overlay.onChange = onChange
        overlay.onEvent = { [weak self] _, event in
            if case .newData = event { self?.cachedContent = nil }
        }
        resource.addObserver(overlay, owner: self)
    }

    /// What the pane shows of its resource's latest data; built once per new data.
    var content: PaneContent? {
        guard let data = resource.latestData else { return nil }
        if let cachedContent { return cachedContent }
        let content = PaneContent(spec: spec, content: data.content)
        cachedContent = content
        return content
    }

    /// Stops observing and stops the refresh timer.
    public func detach() {
        cadence?.cancel()
        cadence = nil
        resource.removeObservers(ownedBy: self)
    }

    public var health: Health {
        if resource.latestError != nil { return .failing }
        if unmetExpectation != nil { return .unmet }
        if resource.latestData != nil { return .ok }
        return resource.isLoading ? .loading : .waiting
    }

    /// Loads now (a key press): `load()` for GET, the configured request otherwise; shown as a
    /// manual load by the overlay.
    @discardableResult
    public func reload() -> Request {
        let request = spec.method == .get ? resource.load() : resource.load(using: makeRequest())
        overlay.trackManualLoad(request)
        return request
    }

    /// Loads unless fresh or already loading, as `Resource.loadIfNeeded()` does, for any method.
    @discardableResult
    public func loadIfNeeded() -> Request? {
        if spec.method == .get { return resource.loadIfNeeded() }
        if let inFlight = resource.loadRequests.first { return inFlight }
        if resource.isUpToDate { return nil }
        return resource.load(using: makeRequest())
    }

    /// Retries a failed load (the overlay's retry).
    @discardableResult
    public func retry() -> [Request] {
        spec.method == .get ? overlay.retryFailedRequests() : retryCustom()
    }

    private func retryCustom() -> [Request] {
        guard resource.latestError != nil, let request = loadIfNeeded() else { return [] }
        overlay.trackManualLoad(request)
        return [request]
    }

    /// Checks the expectations against the latest response; returns whether the verdict changed.
    func evaluateExpectations() -> Bool {
        guard !spec.expect.isEmpty else { return false }
        let metrics = resource.latestMetrics
        let entity = resource.latestError.map { $0.entity } ?? resource.latestData
        let observation = Expectation.Observation(
            statusCode: metrics?.statusCode, latency: metrics?.latency,
            body: entity.flatMap { PaneContent.jsonIfParsed($0.content) }, headers: entity?.headers ?? [:])
        let verdict = spec.expect.lazy.compactMap { $0.failure(in: observation) }.first
        defer { unmetExpectation = verdict }
        return verdict != unmetExpectation
    }

    private func makeRequest() -> Request {
        if let body = spec.body { return resource.request(spec.method, json: body) }
        return resource.request(spec.method)
    }

    /// Calls `loadIfNeeded()` now and then every `spec.every` seconds, unless `isPaused()`.
    func startCadence(scheduler: any DashboardScheduler, isPaused: @escaping @MainActor () -> Bool) {
        cadence?.cancel()
        if !isPaused() { loadIfNeeded() }
        cadence = scheduler.schedule(after: spec.every) { [weak self] in
            self?.startCadence(scheduler: scheduler, isPaused: isPaused)
        }
    }
}
