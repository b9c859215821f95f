/// Something that wants to hear whenever a resource's state changes.
///
/// Classes are de-duplicated by identity (adding the same object twice keeps one entry); structs
/// and closures never are. An observer gets `observerAdded` as soon as it is added, so all of its
/// rendering can live in `resourceChanged`.
@MainActor
public protocol ResourceObserver {
    /// Called after every change to the resource's data, error or loading state.
    func resourceChanged(_ resource: Resource, event: ResourceEvent)

    /// Called as a load request makes progress (0...1).
    func resourceRequestProgress(for resource: Resource, progress: Double)

    /// Called when this observer stops observing `resource` (its owners are gone or were removed),
    /// if the observer still exists.
    func stoppedObserving(resource: Resource)

    /// What makes two observers the same observer.
    var observerIdentity: AnyHashable { get }
}

extension ResourceObserver {
    public func resourceRequestProgress(for resource: Resource, progress: Double) {}
    public func stoppedObserving(resource: Resource) {}

    /// A fresh identity on every read: value observers are never de-duplicated.
    public var observerIdentity: AnyHashable { AnyHashable(UniqueObserverIdentity.next()) }
}

extension ResourceObserver where Self: AnyObject {
    /// Objects are the same observer when they are the same object.
    public var observerIdentity: AnyHashable { AnyHashable(ObjectIdentifier(self)) }
}

/// A closure as an observer.
public typealias ResourceObserverClosure = @MainActor (Resource, ResourceEvent) -> Void

/// Wraps a closure so it can be added as an observer.
struct ClosureObserver: ResourceObserver {
    let closure: ResourceObserverClosure
    let identity = AnyHashable(UniqueObserverIdentity.next())

    func resourceChanged(_ resource: Resource, event: ResourceEvent) {
        closure(resource, event)
    }

    var observerIdentity: AnyHashable { identity }
}

@MainActor
enum UniqueObserverIdentity {
    private static var counter = 0

    struct Token: Hashable {
        let value: Int
    }

    static func next() -> Token {
        counter += 1
        return Token(value: counter)
    }
}
