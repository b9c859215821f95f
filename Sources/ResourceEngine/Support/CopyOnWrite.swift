/// A value kept behind one shared reference and copied only when changed while shared: a copy of
/// the holder is one retain, however many parts the value has. `Configuration` and `Entity` keep
/// their fields in one; both are copied several times per request.
///
/// The value lives in the box's header (`ManagedBuffer`) and is reached through its address, as
/// the standard library's own buffers are: a class's stored `var` would be checked for
/// overlapping access at run time on every read (a `_modify` that yields it may overlap anything),
/// and an entity's or configuration's fields are read many times for every request.
struct CopyOnWrite<Value> {
    private typealias Box = ManagedBuffer<Value, UInt8>

    private var box: Box

    init(_ value: Value) {
        box = Box.create(minimumCapacity: 0) { _ in value }
    }

    /// Reads share the box; a change copies it first if another holder shares it.
    var value: Value {
        // A read borrows the value in place: reading one field copies that field, not all of them.
        _read {
            let header = box.withUnsafeMutablePointerToHeader { $0 }
            yield header.pointee
        }
        _modify {
            if !isKnownUniquelyReferenced(&box) {
                let shared = box
                box = Box.create(minimumCapacity: 0) { _ in shared.withUnsafeMutablePointerToHeader { $0.pointee } }
            }
            // The box stays alive while it is `box`, for as long as this access lasts.
            let header = box.withUnsafeMutablePointerToHeader { $0 }
            yield &header.pointee
        }
    }
}

/// The box is changed only while no other holder shares it (the standard library's
/// copy-on-write), so holders of a `Sendable` value may cross threads.
extension CopyOnWrite: @unchecked Sendable where Value: Sendable {}
