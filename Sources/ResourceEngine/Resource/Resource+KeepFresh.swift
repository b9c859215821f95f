import Foundation

/// `Configuration.refreshInterval`: a resource that loads on its own while it is observed, so a
/// watcher needs no timer of its own. Timers run on the service's clock.
extension Resource {
    /// Starts keeping fresh when the resource is observed and its configuration asks for it;
    /// stops when the last observer has gone.
    func keepFreshWhileObserved() {
        guard !observerEntries.isEmpty, let interval = configuration.refreshInterval, interval > 0 else {
            stopKeepingFresh()
            return
        }
        guard !keepingFresh else { return }
        keepingFresh = true
        failedRefreshes = 0
        // Not inside `addObserver`: the observer hears `observerAdded` before `requested`.
        scheduleRefresh(after: 0)
    }

    /// Whether the resource loads on its own now.
    public var isKeptFresh: Bool { keepingFresh }

    private func stopKeepingFresh() {
        refreshTimer?.cancel()
        refreshTimer = nil
        keepingFresh = false
    }

    private func scheduleRefresh(after seconds: TimeInterval) {
        refreshTimer?.cancel()
        refreshTimer = service.clock.schedule(after: seconds) { [weak self] in self?.refresh() }
    }

    /// Loads (joining a load in flight), then schedules the next: `refreshInterval` after this one
    /// started, or after a failure the retry wait, doubled for each failure in a row.
    private func refresh() {
        refreshTimer = nil
        guard keepingFresh, observerCount > 0, let interval = configuration.refreshInterval, interval > 0 else {
            stopKeepingFresh()
            return
        }
        let started = service.clock.now
        let request = loadRequests.first ?? load()
        request.onCompletion { [weak self] info in
            guard let self, self.keepingFresh else { return }
            let now = self.service.clock.now
            if case .failure(let error) = info.response, !error.isCancellation {
                self.failedRefreshes += 1
                // Never back to back: a refused connection fails at once.
                let retry = max(0.5, self.configuration.retryTime)
                let wait = RetryBackoff.wait(afterFailures: self.failedRefreshes, retry: retry, limit: interval)
                self.scheduleRefresh(after: max(0, error.timestamp + wait - now))
            } else {
                self.failedRefreshes = 0
                self.scheduleRefresh(after: max(0, started + interval - now))
            }
        }
    }
}
