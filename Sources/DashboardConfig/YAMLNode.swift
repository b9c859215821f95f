/// A node of a YAML document as `YAMLDocument` composes it: aliases are replaced by the node
/// their anchor names, and every node keeps where it starts in the text.
enum YAMLNode {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(List)

    /// Where a node starts: line and column from 1, columns counting characters.
    struct Mark: Equatable {
        let line: Int
        let column: Int
    }

    /// A scalar's text, how it was written, and its explicit tag if it had one (`!!str`;
    /// a quoted or block scalar counts as tagged `str`).
    struct Scalar {
        enum Style { case plain, singleQuoted, doubleQuoted, literal, folded }
        let string: String
        let style: Style
        let tag: String?
        let mark: Mark
    }

    /// A mapping's entries in the order written.
    struct Mapping: RandomAccessCollection {
        let entries: [(key: YAMLNode, value: YAMLNode)]
        let mark: Mark
        var startIndex: Int { entries.startIndex }
        var endIndex: Int { entries.endIndex }
        subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) { entries[position] }

        /// The value of the first entry whose key is the scalar `key`.
        subscript(key: String) -> YAMLNode? {
            entries.first { $0.key.scalar?.string == key }?.value
        }
    }

    /// A sequence's items.
    struct List: RandomAccessCollection {
        let items: [YAMLNode]
        let mark: Mark
        var startIndex: Int { items.startIndex }
        var endIndex: Int { items.endIndex }
        subscript(position: Int) -> YAMLNode { items[position] }
    }

    var mark: Mark {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .mapping(let mapping): mapping.mark
        case .sequence(let list): list.mark
        }
    }

    var scalar: Scalar? {
        if case .scalar(let scalar) = self { scalar } else { nil }
    }
}

// The scalar values a config reads, as YAML 1.1's types (and Yams, which Hammock read its configs with
// before) resolve them: only a plain scalar is a number or null; a quoted one or one tagged `!!str` is
// never true or false.
extension YAMLNode {
    /// True for a plain `~`, `null`, `Null`, `NULL` or nothing at all.
    var isNull: Bool {
        guard let scalar, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// `true`, `yes`, `on` and `false`, `no`, `off` in any case.
    var bool: Bool? {
        guard let scalar, scalar.tag != YAMLNode.strTag else { return nil }
        switch scalar.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// A whole number: decimal, `0x…`, `0o…`, `0b…`, `0…` (octal), or base 60 (`1:30`), with `_`
    /// between digits allowed.
    var int: Int? {
        guard let scalar, scalar.style == .plain else { return nil }
        let signed = scalar.string.replacing("_", with: "")
        if signed == "0" { return 0 }
        let negative = signed.hasPrefix("-")
        let digits = signed.dropFirst(negative || signed.hasPrefix("+") ? 1 : 0)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int((negative ? "-" : "") + digits.dropFirst(prefix.count), radix: radix)
        }
        if digits.contains(":") {
            // Base 60, refusing what overflows rather than trapping.
            var value = 0
            for part in digits.split(separator: ":", omittingEmptySubsequences: false) {
                guard let digit = Int(part, radix: 10) else { return nil }
                let (times60, o1) = value.multipliedReportingOverflow(by: 60)
                let (sum, o2) = times60.addingReportingOverflow(digit)
                guard !o1, !o2 else { return nil }
                value = sum
            }
            return negative ? -value : value
        }
        return Int(signed)
    }

    /// A number: as `int` reads it but in base 10, with decimals and exponents, or `.inf`, `-.inf`, `.nan`.
    var float: Double? {
        guard let scalar, scalar.style == .plain else { return nil }
        switch scalar.string.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let text = scalar.string.replacing("_", with: "")
            guard text.contains(":") else { return Double(text) }
            let negative = text.hasPrefix("-")
            var value = 0.0
            for part in text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0).split(separator: ":", omittingEmptySubsequences: false) {
                guard let digit = Double(part) else { return nil }
                value = value * 60 + digit
            }
            return negative ? -value : value
        }
    }

    static let strTag = "tag:yaml.org,2002:str"
}
