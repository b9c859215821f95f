/// A JSON object that remembers the order of its keys.
///
/// Lookup is by dictionary; iteration follows document order. A repeated key keeps its first
/// position and its last value, as most parsers do.
public struct JSONObject: Sendable, Hashable {
    public private(set) var keys: [String] = []
    private var storage: [String: JSON] = [:]

    public init() {}

    public init(_ pairs: some Sequence<(String, JSON)>) {
        for (key, value) in pairs { self[key] = value }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// True when the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// Reads, inserts (at the end), replaces (in place) or removes (with nil) a member.
    public subscript(key: String) -> JSON? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The members in document order.
    public var members: [(key: String, value: JSON)] {
        keys.map { ($0, storage[$0]!) }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.storage == rhs.storage
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }
}
