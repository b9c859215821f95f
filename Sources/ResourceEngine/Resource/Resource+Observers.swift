extension Resource {
    /// Adds an object that observes on its own behalf; it is held weakly.
    ///
    /// The object stops observing when it is deallocated. Adding the same object again changes nothing.
    @discardableResult
    public func addObserver(_ observerAndOwner: any ResourceObserver & AnyObject) -> Resource {
        addObserver(observerAndOwner, owner: observerAndOwner)
    }

    /// Adds an observer that lives as long as `owner` does; the owner is held weakly.
    ///
    /// An observer already present gains `owner` as an extra owner and gets no second
    /// `observerAdded`. A new observer gets `observerAdded` at once, and nobody else does.
    @discardableResult
    public func addObserver(_ observer: any ResourceObserver, owner: AnyObject) -> Resource {
        let identity = observer.observerIdentity
        if observerIndex[identity] != nil {
            cleanDefunctObservers()
            if let existing = observerIndex[identity] {
                existing.addOwner(owner)
                return self
            }
        }
        let entry = ObserverEntry(observer, identity: identity)
        entry.addOwner(owner)
        observerEntries.append(entry)
        observerIndex[identity] = entry
        EngineLog.log(.observers, "\(self) added observer \(type(of: observer))")
        observer.resourceChanged(self, event: .observerAdded)
        observersChanged()
        checkCacheIfNeeded()
        return self
    }

    /// Adds a closure observer that lives as long as `owner` does. Closures are never de-duplicated.
    @discardableResult
    public func addObserver(owner: AnyObject, closure: @escaping ResourceObserverClosure) -> Resource {
        addObserver(ClosureObserver(closure: closure), owner: owner)
    }

    /// Removes `owner` from every observer; observers left with no owner stop observing.
    public func removeObservers(ownedBy owner: AnyObject?) {
        guard let owner else { return }
        for entry in observerEntries { entry.removeOwner(owner) }
        cleanDefunctObservers()
    }

    /// The number of live observers.
    public var observerCount: Int {
        cleanDefunctObservers()
        return observerEntries.count
    }

    /// Drops observers whose owners are gone, telling each that still exists.
    func cleanDefunctObservers() {
        guard !observerEntries.isEmpty, observerEntries.contains(where: \.isDefunct) else { return }
        var stopped: [any ResourceObserver] = []
        observerEntries.removeAll { entry in
            guard entry.isDefunct else { return false }
            observerIndex.removeValue(forKey: entry.identity)
            if let observer = entry.observer { stopped.append(observer) }
            return true
        }
        guard !stopped.isEmpty || observerEntries.isEmpty else { return }
        observersChanged()
        for observer in stopped {
            EngineLog.log(.observers, "\(self) removed observer \(type(of: observer))")
            observer.stoppedObserving(resource: self)
        }
    }

    private func observersChanged() {
        keepAliveWhileObserved = observerEntries.isEmpty ? nil : self
        keepFreshWhileObserved()
    }

    /// Tells every live observer, in the order they were added, that `event` happened.
    ///
    /// One pass: an observer whose owners are gone is skipped (never told), and the dead entries
    /// are swept out afterwards. Iterates over a snapshot, so observers may add or remove
    /// observers while being told.
    func notifyObservers(_ event: ResourceEvent) {
        EngineLog.log(.stateChanges, "\(self) \(event.externalName)")
        var sawDefunct = false
        for entry in observerEntries {
            if entry.isDefunct {
                sawDefunct = true
                continue
            }
            if let closure = entry.closure {
                closure(self, event)
            } else {
                entry.observer?.resourceChanged(self, event: event)
            }
        }
        if sawDefunct { cleanDefunctObservers() }
    }

    func notifyObserversOfProgress(_ progress: Double) {
        for entry in observerEntries {
            entry.observer?.resourceRequestProgress(for: self, progress: progress)
        }
    }
}
