import FoundationEssentials

/// `Configuration.refreshInterval`: a resource that loads on its own while it is observed, so a
/// watcher needs no timer of its own. Timers run on the service's clock; when each load is due is
/// `RefreshSchedule`'s rule.
extension Resource {
    /// Starts keeping fresh when the resource is observed and its configuration asks for it;
    /// stops when the last observer has gone.
    func keepFreshWhileObserved() {
        guard !observerEntries.isEmpty, configuration.refreshSchedule != nil else {
            stopKeepingFresh()
            return
        }
        guard !keepingFresh else { return }
        keepingFresh = true
        failedRefreshes = 0
        lastRefreshStarted = nil
        // Never inside `addObserver`, even when due now: the observer hears `observerAdded` first.
        scheduleNextRefresh()
    }

    /// Whether the resource loads on its own now.
    public var isKeptFresh: Bool { keepingFresh }

    private func stopKeepingFresh() {
        refreshTimer?.cancel()
        refreshTimer = nil
        keepingFresh = false
    }

    private func scheduleNextRefresh() {
        guard let schedule = configuration.refreshSchedule else { return stopKeepingFresh() }
        let now = service.clock.now
        let failure = failedRefreshes > 0 ? latestError.map { (at: $0.timestamp, inARow: failedRefreshes) } : nil
        let due = schedule.nextLoad(lastRequested: lastRefreshStarted, failure: failure, dataTimestamp: latestData?.timestamp, now: now)
        refreshTimer?.cancel()
        refreshTimer = service.clock.schedule(after: max(0, due - now)) { [weak self] in self?.refresh() }
    }

    /// Loads (joining a load in flight), then schedules the next when it ends.
    private func refresh() {
        refreshTimer = nil
        guard keepingFresh, observerCount > 0, configuration.refreshSchedule != nil else { return stopKeepingFresh() }
        lastRefreshStarted = service.clock.now
        let request = loadRequests.first ?? load()
        request.onCompletion { [weak self] info in
            guard let self, self.keepingFresh else { return }
            if case .failure(let error) = info.response, !error.isCancellation {
                self.failedRefreshes += 1
            } else {
                self.failedRefreshes = 0
            }
            self.scheduleNextRefresh()
        }
    }
}
