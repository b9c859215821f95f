import FoundationEssentials
import ResourceEngine

extension Monitor {
    /// Loads due this close to now start now: the real scheduler runs actions due within its
    /// batch window (50 ms) together.
    static let cadenceSlack: TimeInterval = 0.06

    /// Loads the probe's resource if it is due (and nothing pauses or already loads it), else
    /// sets the probe's timer for when it will be.
    public func updateCadence(of probe: Probe) {
        updateCadence(of: probe, lastRequested: probes(of: probe.resource)?.lastRequested)
    }

    /// As above, with when the probe's resource was last requested (its probes' record, at hand).
    func updateCadence(of probe: Probe, lastRequested: TimeInterval?) {
        guard started, !isPaused, refreshesOnItsOwn else { return probe.cancelCadence() }
        let now = clock.now
        guard let due = probe.nextLoadDue(lastRequested: lastRequested, now: now) else { return probe.cancelCadence() }
        if due <= now + Self.cadenceSlack {
            probe.cancelCadence()
            // Reports `requested` at once, which brings every probe of the resource back here.
            probe.resource.load()
            // A load started early keeps the schedule: the next one is due `every` after this
            // one was due, not after it started, or early starts would add up (two probes every
            // 100 ms, batched together, were each loaded every 50 ms).
            if due > now, let shown = probes(of: probe.resource), let requested = shown.lastRequested, requested < due {
                shown.lastRequested = due
            }
        } else {
            probe.scheduleCadence(at: due, now: now, scheduler: scheduler, monitor: self)
        }
    }

    /// Loads every probed resource once, now (a key press, `R`): the first probe of each
    /// resource, with the probes sharing it.
    public func reloadAll() -> [(probes: [Probe], request: Request)] {
        probesByResource.values.compactMap { shown in
            guard let first = shown.probes.first, let request = first.load() else { return nil }
            return (shown.probes, request)
        }
    }
}
