/// How many terminal columns text takes, by grapheme.
///
/// East Asian wide and fullwidth characters and emoji take two columns; combining marks and other
/// zero-width scalars take none. Pure Swift (no `wcwidth`), so widths do not depend on the
/// process locale and tests can run in parallel.
public enum DisplayWidth {
    /// Columns for a whole string.
    public static func of(_ text: String) -> Int {
        var bytes = text
        if let width = bytes.withUTF8(widthScalarByScalar) { return width }
        return text.reduce(0) { $0 + of(grapheme: String($1)) }
    }

    /// The width of text whose every scalar is a grapheme of its own (`isOneScalarPerGrapheme`),
    /// in one pass over its bytes; nil for any other text.
    private static func widthScalarByScalar(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var width = 0
        let whole = visitOwnGraphemes(bytes) { value in
            width += value < 0x80 ? 1 : of(scalar: Unicode.Scalar(value)!)
            return true
        }
        return whole ? width : nil
    }

    /// Visits the scalar values of `bytes` (valid UTF-8) as long as each is a grapheme of its own
    /// (`isOneScalarPerGrapheme`) and `visit` says go on; true when every scalar was visited.
    @inline(__always)
    static func visitOwnGraphemes(_ bytes: UnsafeBufferPointer<UInt8>, _ visit: (UInt32) -> Bool) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let lead = bytes[offset]
            if lead < 0x80 {
                guard lead >= 0x20, lead != 0x7F, visit(UInt32(lead)) else { return false }
                offset += 1
                continue
            }
            let (value, length) = UTF8Scalar.decode(bytes, at: offset)
            guard isOwnGrapheme(value), visit(value) else { return false }
            offset += length
        }
        return true
    }

    /// True when no two scalars of `text` can join into one grapheme, so it can be measured and
    /// laid out scalar by scalar: each is printable ASCII, Latin-1 up to the combining marks, or a
    /// symbol from U+2010 to U+2BFF (punctuation, arrows, box drawing, braille, dingbats) other
    /// than the combining marks for symbols. None of these extends, joins or prepends
    /// (Unicode's grapheme rules); the dashboard's own text is made of them.
    public static func isOneScalarPerGrapheme(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { isOwnGrapheme($0.value) }
    }

    @inline(__always)
    private static func isOwnGrapheme(_ value: UInt32) -> Bool {
        switch value {
        case 0x20..<0x7F, 0xA0..<0x300, 0x2010..<0x20D0, 0x2100...0x2BFF: return true
        default: return false
        }
    }

    /// Columns for one grapheme cluster.
    public static func of(grapheme: String) -> Int {
        if grapheme.utf8.count == 1 {
            let byte = grapheme.utf8.first!
            return byte < 0x20 || byte == 0x7F ? 0 : 1
        }
        var scalars = grapheme.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        var width = of(scalar: first)
        while let next = scalars.next() {
            if next.value == 0xFE0F, first.properties.isEmoji { width = 2 }  // emoji presentation
            if next.value == 0x200D { width = max(width, 2) }                // ZWJ sequence
        }
        return width
    }

    /// Columns for one scalar on its own.
    public static func of(scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }
        if v >= symbolStart, v < symbolEnd { return Int(symbolWidthTable[Int(v - symbolStart)]) }
        return measured(scalar)
    }

    static let symbolStart: UInt32 = 0x2000
    static let symbolEnd: UInt32 = 0x2C00
    /// The widths of U+2000–U+2BFF (punctuation, arrows, box drawing, braille, dingbats: the
    /// dashboard's symbols, several on every row of every frame), worked out once: the
    /// general-category and emoji lookups behind them cost hundreds of instructions each. Held
    /// where reading an entry takes no reference count: never freed, never changed once made.
    nonisolated(unsafe) static let symbolWidthTable: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: Int(symbolEnd - symbolStart))
        for value in symbolStart..<symbolEnd { table[Int(value - symbolStart)] = UInt8(measured(Unicode.Scalar(value)!)) }
        return UnsafePointer(table)
    }()

    /// The width of a scalar from its Unicode properties.
    static func measured(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }
        // Box drawing, block elements and braille (borders, bars, spinners): narrow, and common.
        if (0x2500...0x259F).contains(v) || (0x2800...0x28FF).contains(v) { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B || (0x1160...0x11FF).contains(v) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(v) ? 2 : 1
    }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns, ending in `…` when something was cut.
    public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let room = width - of(ellipsis)
        guard room >= 0 else { return "" }
        var result = ""
        var used = 0
        if isOneScalarPerGrapheme(text) {
            for scalar in text.unicodeScalars {
                let w = of(scalar: scalar)
                if used + w > room { break }
                result.unicodeScalars.append(scalar)
                used += w
            }
            return result + ellipsis
        }
        for character in text {
            let w = of(grapheme: String(character))
            if used + w > room { break }
            result.append(character)
            used += w
        }
        return result + ellipsis
    }

    /// `text` padded with spaces (or truncated) to exactly `width` columns.
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let cut = truncate(text, to: width)
        let gap = String(repeating: " ", count: max(0, width - of(cut)))
        return alignRight ? gap + cut : cut + gap
    }
}
