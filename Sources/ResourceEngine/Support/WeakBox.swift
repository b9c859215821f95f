/// A weak reference to an object, compared by identity.
struct WeakBox {
    private(set) weak var object: AnyObject?
    let identity: ObjectIdentifier

    init(_ object: AnyObject) {
        self.object = object
        self.identity = ObjectIdentifier(object)
    }
}
