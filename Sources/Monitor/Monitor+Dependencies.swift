import DashboardConfig
import FoundationEssentials
import ResourceEngine

/// Blocked, not failing twice: a pane that fails while a pane it depends on is in trouble
/// (`dependsOn`), while its service's login fails, while an earlier pane of its origin is refused,
/// or while the network is gone (`connectivity:`), is blocked by that one. It probes on and says
/// so, but raises no alert of its own: the root's alert speaks for both.
extension Monitor {
    /// Finds each probe's dependencies by title (its service's included, as the loader gave
    /// them) and who depends on each.
    func linkDependencies() {
        blockedDependents = [:]
        implicitRoots = [:]
        let byTitle = Dictionary(probes.map { ($0.spec.title, $0) }) { first, _ in first }
        for probe in probes {
            probe.dependencies = probe.spec.dependsOn.compactMap { byTitle[$0.title] }
            probe.blockedBy = nil
            for dependency in probe.dependencies { blockedDependents[ObjectIdentifier(dependency), default: []].append(probe) }
        }
    }

    /// Works out who blocks `probe` now; true when that changed.
    @discardableResult
    func updateBlockage(of probe: Probe) -> Bool {
        let blockage = blockage(of: probe)
        guard blockage != probe.blockedBy else { return false }
        probe.blockedBy = blockage
        return true
    }

    private func blockage(of probe: Probe) -> Probe.Blockage? {
        let verdict = probe.verdict
        guard verdict == .failing || verdict == .unmet else { return nil }
        if let connectivity, connectivity.isOffline { return Probe.Blockage(by: "the network", since: connectivity.offlineSince) }
        for dependency in probe.dependencies where Self.isInTrouble(dependency) {
            return Probe.Blockage(by: dependency.spec.title, since: Self.troubleBegan(dependency))
        }
        if let key = implicitKey(of: probe), let root = implicitRoots[key], root !== probe {
            return Probe.Blockage(by: key.hasPrefix("login ") ? key : root.spec.title, since: Self.troubleBegan(root))
        }
        return nil
    }

    /// What a probe's failure implicitly waits on: its service's login (`login shop`), when
    /// that failed, or its origin (`origin http://host:port`), when it refused the connection.
    func implicitKey(of probe: Probe) -> String? {
        guard let error = probe.resource.latestError, !probe.errorIsExpected else { return nil }
        if spec.implicitDependencies.login, error.cause is LoginSession.LoginFailed { return "login " + (probe.spec.service ?? "service") }
        if spec.implicitDependencies.origin, Self.isRefused(error), let origin = Self.origin(of: probe.resource) { return "origin " + origin }
        return nil
    }

    /// Before `shown`'s probes are judged: the first pane to fail on a login or a refusing
    /// origin becomes its root (its alert speaks for the others); when the root is past that
    /// trouble, the earliest of the others still in it takes over. Returns the keys whose root
    /// changed (their panes are judged again afterwards).
    func updateImplicitRoots(for shown: ResourceProbes) -> [String] {
        guard spec.implicitDependencies.login || spec.implicitDependencies.origin, let first = shown.probes.first else { return [] }
        var changed: [String] = []
        let key = implicitKey(of: first)
        if let key, implicitRoots[key] == nil {
            implicitRoots[key] = first
            changed.append(key)
        }
        // Rare: a root past its trouble hands over.
        for (rooted, root) in implicitRoots where rooted != key && shown.probes.contains(where: { $0 === root }) {
            let others = probes.filter { $0.resource !== first.resource && implicitKey(of: $0) == rooted }
            implicitRoots[rooted] = others.min { (Self.troubleBegan($0) ?? .infinity) < (Self.troubleBegan($1) ?? .infinity) }
            changed.append(rooted)
        }
        return changed
    }

    /// Counts a finished probe toward its alert, unless it failed while a pane it depends on is
    /// still loading: then it waits for that one's verdict (both fail, or recover, in the same
    /// round: the order their answers come in must not choose which alert fires).
    func countOrDefer(_ probe: Probe) {
        if probe.verdict != .ok, probe.dependencies.contains(where: { $0.resource.isLoading }) || connectivity?.isLoading == true {
            probe.countDeferred = true
            return
        }
        probe.countDeferred = false
        countProbe(of: probe)
    }

    /// After `shown`'s probes were judged: the probes their trouble may block or free (their
    /// dependents; every pane of an origin whose root changed) are judged again; returns those
    /// that changed.
    func updateBlockagesAround(_ shown: ResourceProbes, roots: [String]) -> [Probe] {
        var changed: [Probe] = []
        var seen = Set(shown.probes.map(ObjectIdentifier.init))
        func recheck(_ probe: Probe) {
            guard seen.insert(ObjectIdentifier(probe)).inserted else { return }
            if updateBlockage(of: probe) {
                recount(probe)
                changed.append(probe)
                // A pane blocked or freed may block or free its own dependents in turn.
                for dependent in blockedDependents[ObjectIdentifier(probe)] ?? [] { recheck(dependent) }
            }
        }
        for probe in shown.probes {
            for dependent in blockedDependents[ObjectIdentifier(probe)] ?? [] {
                recheck(dependent)
                // Its count waited for this verdict.
                if dependent.countDeferred, !dependent.dependencies.contains(where: { $0.resource.isLoading }) {
                    updateBlockage(of: dependent)
                    countOrDefer(dependent)
                    recount(dependent)
                    if !changed.contains(where: { $0 === dependent }) { changed.append(dependent) }
                }
            }
        }
        for key in roots {
            for probe in probes where probe.resource.hasError && implicitKey(of: probe) == key { recheck(probe) }
        }
        return changed
    }

    /// Starts the `connectivity:` checks, when the config has some and the monitor refreshes on
    /// its own.
    func startConnectivityChecks() {
        guard !spec.connectivity.isEmpty, refreshesOnItsOwn else { return }
        let check = ConnectivityCheck(
            urls: spec.connectivity.map(\.value), service: services.main, every: DashboardSpec.defaultRefreshInterval, scheduler: scheduler, clock: clock)
        check.onChange = { [weak self] offline in self?.networkChanged(offline: offline) }
        check.onJudged = { [weak self] in self?.countDeferredProbes() }
        connectivity = check
        check.start()
    }

    /// The network went (every check fails) or came back: said in the event log and the header,
    /// and every failing pane is judged again.
    private func networkChanged(offline: Bool) {
        healthCounts.offlineSince = connectivity?.offlineSince
        let checks = spec.connectivity.count
        let entry = EventLog.Entry(
            time: clock.now, url: spec.connectivity.first?.display ?? "", method: "GET", panes: [], event: offline ? "NetworkLost" : "NetworkBack", statusCode: nil, latency: nil,
            message: offline ? "every connectivity check fails (\(checks)): no pane alert fires until one answers" : "a connectivity check answers again")
        eventLog.append(entry)
        onEvent?(entry)
        let changed = updateAllBlockages()
        onStateChange?()
        onProbesChanged?(changed)
    }

    /// Counts the probes that waited for a verdict no longer pending (a check finished).
    private func countDeferredProbes() {
        var changed: [Probe] = []
        for probe in probes where probe.countDeferred {
            updateBlockage(of: probe)
            countOrDefer(probe)
            if !probe.countDeferred {
                recount(probe)
                changed.append(probe)
            }
        }
        if !changed.isEmpty {
            onStateChange?()
            onProbesChanged?(changed)
        }
    }

    /// Every request of its own in flight: its probes' loads, its connectivity checks', its
    /// posts to Alertmanager.
    public var loadsInFlight: [Request] {
        probes.flatMap(\.resource.loadRequests) + (connectivity?.loadRequests ?? []) + (alertmanager?.requests ?? [])
    }

    /// Every probe judged again (the network went or came back).
    func updateAllBlockages() -> [Probe] {
        var changed: [Probe] = []
        for probe in probes where updateBlockage(of: probe) {
            recount(probe)
            changed.append(probe)
        }
        return changed
    }

    /// When a pane's trouble began: its alert's count, else its latest error.
    static func troubleBegan(_ probe: Probe) -> TimeInterval? {
        probe.alert.troubleSince ?? probe.resource.latestError?.timestamp
    }

    /// Whether a pane is in trouble for those that depend on it: its latest probe failed or missed
    /// an expectation (blocked or not).
    static func isInTrouble(_ probe: Probe) -> Bool {
        let verdict = probe.verdict
        return verdict == .failing || verdict == .unmet
    }

    /// A connection the origin refused, or a host that could not be found: no answer at all.
    static func isRefused(_ error: RequestError) -> Bool {
        guard error.httpStatusCode == nil, let cause = error.cause as? TransportError else { return false }
        return cause.code == .cannotConnectToHost || cause.code == .cannotFindHost
    }

    /// `scheme://host:port` of a resource's URL.
    static func origin(of resource: Resource?) -> String? {
        guard let url = resource?.url, let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }
}
