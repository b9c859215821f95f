/// A value kept behind one shared reference and copied only when changed while shared: a copy of
/// the holder is one retain, however many parts the value has. `Configuration` and `Entity` keep
/// their fields in one; both are copied several times per request.
struct CopyOnWrite<Value> {
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    /// Reads share the box; a change copies it first if another holder shares it.
    var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}

/// The box is changed only while no other holder shares it (the standard library's
/// copy-on-write), so holders of a `Sendable` value may cross threads.
extension CopyOnWrite: @unchecked Sendable where Value: Sendable {}
