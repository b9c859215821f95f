/// A weak reference to an object, compared by identity.
///
/// A class, not a struct: reading a weak reference out of a struct copies it, which costs atomic
/// side-table traffic on every observer of every notification.
final class WeakBox {
    private(set) weak var object: AnyObject?
    let identity: ObjectIdentifier

    init(_ object: AnyObject) {
        self.object = object
        self.identity = ObjectIdentifier(object)
    }
}
