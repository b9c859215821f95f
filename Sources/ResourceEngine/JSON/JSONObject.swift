/// A JSON object that remembers the order of its keys.
///
/// Members are kept once, in document order, in one array; objects with more than
/// `indexedFrom` members also get a key index for lookups. (A key index on every object doubled the
/// memory a large body took: 30 resources of 3.5 MB lists held 870 MiB.) A repeated key keeps its
/// first position and its last value, as most parsers do. Equality and hashing ignore order.
public struct JSONObject: Sendable, Hashable {
    private var storage: [(key: String, value: JSON)] = []
    private var index: [String: Int]?

    /// Objects this big get a key index; smaller ones are searched, which is as fast at that size.
    static let indexedFrom = 16

    /// An empty object.
    public init() {}

    /// An object of `pairs`, in their order; a repeated key keeps its first place and its last value.
    public init(_ pairs: some Sequence<(String, JSON)>) {
        for (key, value) in pairs { self[key] = value }
    }

    /// The keys in document order.
    public var keys: [String] { storage.map(\.key) }

    /// The number of members.
    public var count: Int { storage.count }

    /// True when the object has no members.
    public var isEmpty: Bool { storage.isEmpty }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return storage.firstIndex { $0.key == key }
    }

    /// Reads, inserts (at the end), replaces (in place) or removes (with nil) a member.
    public subscript(key: String) -> JSON? {
        get { position(of: key).map { storage[$0].value } }
        set {
            if let newValue {
                if let existing = position(of: key) {
                    storage[existing].value = newValue
                } else {
                    storage.append((key, newValue))
                    if index != nil {
                        index![key] = storage.count - 1
                    } else if storage.count > JSONObject.indexedFrom {
                        index = Dictionary(storage.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { first, _ in first })
                    }
                }
            } else if let existing = position(of: key) {
                storage.remove(at: existing)
                if index != nil { index = Dictionary(storage.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { first, _ in first }) }
            }
        }
    }

    /// The members in document order.
    public var members: [(key: String, value: JSON)] { storage }

    /// True when both are copies of one object (the same member storage).
    func sharesStorage(with other: JSONObject) -> Bool {
        storage.withUnsafeBufferPointer { mine in
            other.storage.withUnsafeBufferPointer { mine.baseAddress == $0.baseAddress && mine.count == $0.count }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.storage.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, as equality is: a commutative sum of the members' hashes.
        var sum = 0
        for member in storage {
            var one = Hasher()
            one.combine(member.key)
            one.combine(member.value)
            sum &+= one.finalize()
        }
        hasher.combine(storage.count)
        hasher.combine(sum)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object written as a literal, `["status": "UP"]`, in the literal's order.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }
}
