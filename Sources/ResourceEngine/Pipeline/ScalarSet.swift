/// A set of scalars: ranges and shorthand classes, possibly negated.
struct ScalarSet: Sendable {
    enum Item: Sendable {
        case range(ClosedRange<UInt32>)
        case digit(Bool), word(Bool), space(Bool)  // true: the class, false: its complement
    }

    var items: [Item] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar, caseInsensitive: Bool) -> Bool {
        func inItems(_ s: Unicode.Scalar) -> Bool {
            items.contains { item in
                switch item {
                case .range(let range): range.contains(s.value)
                case .digit(let yes): ScalarSet.isDigit(s) == yes
                case .word(let yes): ScalarSet.isWord(s) == yes
                case .space(let yes): ScalarSet.isSpace(s) == yes
                }
            }
        }
        var found = inItems(scalar)
        if !found, caseInsensitive {
            let lower = ScalarSet.folded(scalar)
            let upper = Unicode.Scalar(String(scalar).uppercased()) ?? scalar
            found = inItems(lower) || inItems(upper)
        }
        return found != negated
    }

    static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
    static func isWord(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || isDigit(s) || s == "_"
            || (s.value > 0x7F && (s.properties.isAlphabetic || s.properties.numericType != nil))
    }
    static func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || ("\t"..."\r").contains(s) || s.properties.isWhitespace }
    static func folded(_ s: Unicode.Scalar) -> Unicode.Scalar {
        if ("A"..."Z").contains(s) { return Unicode.Scalar(s.value + 32)! }
        guard s.value > 0x7F else { return s }
        return String(s).lowercased().unicodeScalars.first ?? s
    }
}
