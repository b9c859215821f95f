/// One observer of a resource and the owners that keep it observing.
///
/// As in Siesta, the observer is held strongly unless it is its own only owner: an observer added
/// with an external owner stays alive after that owner is gone, until the resource removes the
/// defunct entry and tells it `stoppedObserving`. A self-owned object observer with no external
/// owner is held weakly. The entry is defunct when the observer is gone, or when it is not
/// self-owned and every external owner is gone.
@MainActor
final class ObserverEntry {
    let identity: AnyHashable
    /// Set for closure observers, which are called directly rather than through the protocol.
    let closure: ResourceObserverClosure?
    private var strongObserver: (any ResourceObserver)?
    private weak var weakObserver: AnyObject?
    private let observerObjectID: ObjectIdentifier?
    private var selfOwned = false
    private var externalOwners: [WeakBox] = []

    init(_ observer: any ResourceObserver, identity: AnyHashable) {
        self.identity = identity
        self.strongObserver = observer
        self.closure = (observer as? ClosureObserver)?.closure
        if type(of: observer) is AnyClass {
            let object = observer as AnyObject
            weakObserver = object
            observerObjectID = ObjectIdentifier(object)
        } else {
            observerObjectID = nil
        }
    }

    var observer: (any ResourceObserver)? {
        strongObserver ?? (weakObserver as? any ResourceObserver)
    }

    func addOwner(_ owner: AnyObject) {
        if ObjectIdentifier(owner) == observerObjectID {
            selfOwned = true
        } else if !externalOwners.contains(where: { $0.identity == ObjectIdentifier(owner) && $0.object != nil }) {
            externalOwners.append(WeakBox(owner))
        }
        refresh()
    }

    func removeOwner(_ owner: AnyObject) {
        let id = ObjectIdentifier(owner)
        if id == observerObjectID { selfOwned = false }
        externalOwners.removeAll { $0.identity == id }
        refresh()
    }

    /// Drops dead owners and decides whether the observer is held strongly.
    func refresh() {
        if externalOwners.contains(where: { $0.object == nil }) {
            externalOwners.removeAll { $0.object == nil }
        }
        if selfOwned && externalOwners.isEmpty {
            if observerObjectID != nil { strongObserver = nil }
        } else if strongObserver == nil {
            strongObserver = weakObserver as? any ResourceObserver
        }
    }

    var isDefunct: Bool {
        // Hot path (every observer, every event): one external owner that is alive. While any
        // external owner lives, `refresh` has made the observer strong, so nothing else to check.
        let owners = externalOwners
        if owners.count == 1, owners[0].object != nil { return false }
        refresh()
        if !selfOwned && externalOwners.isEmpty { return true }
        return strongObserver == nil && weakObserver == nil
    }
}
