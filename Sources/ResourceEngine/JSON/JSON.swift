import FoundationEssentials

/// A JSON value that is `Sendable`, ordered and exact.
///
/// The engine's parsed content type for JSON bodies. Objects keep the key order of the document
/// (so fields show as the API sends them); integers that fit in `Int` stay integers (so an id
/// of 9007199254740993 survives), longer ones keep their digits (`bigInteger`); everything else
/// numeric is a `Double`.
public enum JSON: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number with no fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// An integer outside `Int`'s range, kept digit for digit (a `Double` would round it).
    case bigInteger(String)
    /// A string.
    case string(String)
    /// A list, in order.
    case array([JSON])
    /// An object, its members in the document's order.
    case object(JSONObject)
}

extension JSON {
    /// The value as a `Double` if it is a number: `json["price"]?.double`.
    public var double: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        case .bigInteger(let digits): Double(digits)
        default: nil
        }
    }

    /// The value as an `Int` if it is an integer, or a double with no fractional part:
    /// `json["count"]?.int`.
    public var int: Int? {
        switch self {
        case .int(let i): i
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: Int(d)
        default: nil
        }
    }

    /// The string if this is `.string`: `json["status"]?.string`, where Siesta's guide writes
    /// `jsonDict["status"] as? String` (which on `JSON` compiles and is always nil).
    public var string: String? {
        if case .string(let s) = self { s } else { nil }
    }

    /// The boolean if this is `.bool`: `json["enabled"]?.bool`.
    public var bool: Bool? {
        if case .bool(let b) = self { b } else { nil }
    }

    /// The elements if this is an array: `json["items"]?.array`.
    public var array: [JSON]? {
        if case .array(let a) = self { a } else { nil }
    }

    /// The object if this is an object: `json["user"]?.object`.
    public var object: JSONObject? {
        if case .object(let o) = self { o } else { nil }
    }

    /// Same as `double`.
    public var doubleValue: Double? { double }
    /// Same as `int`.
    public var intValue: Int? { int }
    /// Same as `string`.
    public var stringValue: String? { string }
    /// Same as `bool`.
    public var boolValue: Bool? { bool }
    /// Same as `array`.
    public var arrayValue: [JSON]? { array }
    /// Same as `object`.
    public var objectValue: JSONObject? { object }

    /// True for `.null`.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The member named `key` if this is an object.
    public subscript(key: String) -> JSON? {
        objectValue?[key]
    }

    /// The element at `index` if this is an array and the index is in range.
    public subscript(index: Int) -> JSON? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// A short human name for the kind of value, for error messages ("object", "array", …).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double, .bigInteger: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSON {
    /// True when `other` is this very value: the same scalar, the same text, or a list or object
    /// sharing this one's storage (a copy of it). Never true for values that differ; false does
    /// not prove that they do. Looks at no element: what a view asks of every new answer to keep
    /// what it made of the last (the pipeline hands an unchanged body the content it made before).
    public func isIdentical(to other: JSON) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.bigInteger(a), .bigInteger(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)):
            a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress && a.count == $0.count } }
        case let (.object(a), .object(b)): a.sharesStorage(with: b)
        default: false
        }
    }
}

extension JSON: Equatable {
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.bigInteger(a), .bigInteger(b)): a == b
        default:
            if let a = lhs.doubleValue, let b = rhs.doubleValue { a == b } else { false }
        }
    }
}

extension JSON: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(Double(i))
        case .double(let d): hasher.combine(d)
        case .bigInteger(let digits): hasher.combine(Double(digits) ?? 0)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o)
        }
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
}
