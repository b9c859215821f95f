import DashboardConfig
import FoundationEssentials
import ResourceEngine

/// "Is it me?": the `connectivity:` URLs, loaded on their own cadence. When every one of them
/// fails without an answer (no HTTP status: refused, unreachable, timed out), this machine has
/// lost the network, and no pane's failure is an alert of its own until one answers again.
@MainActor
final class ConnectivityCheck {
    let resources: [Resource]
    /// While every check fails: since when.
    private(set) var offlineSince: TimeInterval?
    var isOffline: Bool { offlineSince != nil }
    /// A check is in flight: a pane failing now waits for its verdict before it counts.
    var isLoading: Bool { resources.contains { $0.isLoading } }
    /// Its loads in flight.
    var loadRequests: [Request] { resources.flatMap(\.loadRequests) }
    /// Told after each finished check, whatever it changed.
    var onJudged: (@MainActor () -> Void)?
    /// Told when the network is lost (true) or back (false).
    var onChange: (@MainActor (Bool) -> Void)?
    private let every: TimeInterval
    private let scheduler: any DashboardScheduler
    private let clock: any EngineClock
    private var timer: ScheduledAction?
    private final class Owner {}
    private let owner = Owner()

    init(urls: [String], service: Service, every: TimeInterval, scheduler: any DashboardScheduler, clock: any EngineClock) {
        resources = urls.map { service.resource(absoluteURL: $0) }
        self.every = every
        self.scheduler = scheduler
        self.clock = clock
    }

    func start() {
        for resource in resources {
            resource.addObserver(owner: owner) { [weak self] _, event in
                switch event {
                case .newData, .notModified, .error: self?.judge()
                default: break
                }
            }
        }
        tick()
    }

    func stop() {
        timer?.cancel()
        timer = nil
        for resource in resources { resource.removeObservers(ownedBy: owner) }
    }

    private func tick() {
        for resource in resources where !resource.isLoading { resource.load() }
        timer = scheduler.schedule(after: every) { [weak self] in self?.tick() }
    }

    /// Offline once every check has failed without an answer; back as soon as one answers.
    private func judge() {
        let offline = resources.allSatisfy { resource in
            guard let error = resource.latestError else { return false }
            return error.httpStatusCode == nil && !error.isCancellation
        }
        if offline != isOffline {
            offlineSince = offline ? (resources.compactMap { $0.latestError?.timestamp }.min() ?? clock.now) : nil
            onChange?(offline)
        }
        onJudged?()
    }
}
