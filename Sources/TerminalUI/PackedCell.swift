/// A cell as a `Buffer` keeps it: plain bytes, so a frame's thousands of cells are filled, copied
/// and compared without reference counting (a `Cell` holds a `String`, whose every copy retains).
///
/// The grapheme's UTF-8 is held inline when it fits in 15 bytes, which is nearly every grapheme a
/// terminal shows (the sanitiser has already dropped emoji joiners and modifiers); a longer one
/// is kept in its buffer's overflow list and named here by its index there.
struct PackedCell: Sendable, BitwiseCopyable {
    /// UTF-8 bytes 0–7 (or the overflow index) and 8–14; byte 15 is the inline length, or
    /// `PackedCell.overflowTag`.
    private(set) var low: UInt64
    private(set) var high: UInt64
    /// The style's bytes, so that comparing two cells is comparing four words.
    private var styleBits: UInt64
    /// The columns the grapheme takes, in a whole word: a cell is four words with no padding,
    /// so equal cells have equal bytes throughout (the diff compares rows with `memcmp`).
    private var widthBits: UInt64
    var width: UInt8 {
        get { UInt8(truncatingIfNeeded: widthBits) }
        set { widthBits = UInt64(newValue) }
    }

    var style: Style {
        get { withUnsafeBytes(of: styleBits) { $0.load(as: Style.self) } }
        set { styleBits = PackedCell.bits(of: newValue) }
    }

    private static func bits(of style: Style) -> UInt64 {
        var bits: UInt64 = 0
        withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: style, as: Style.self) }
        return bits
    }

    static let overflowTag: UInt64 = 0xFF
    static let inlineCapacity = 15

    /// A blank in the default style.
    static let blank = PackedCell(ascii: 0x20, style: .plain)

    /// One printable ASCII byte, one column.
    init(ascii byte: UInt8, style: Style) {
        low = UInt64(byte)
        high = 1 << 56
        styleBits = PackedCell.bits(of: style)
        widthBits = 1
    }

    /// One scalar, encoded straight into the cell (no `String` made).
    init(scalar: Unicode.Scalar, style: Style, width: Int) {
        // UTF-8 by hand, first byte lowest: `UTF8.encode` costs a collection per scalar.
        let v = UInt64(scalar.value)
        let bytes: UInt64
        let count: UInt64
        switch v {
        case ..<0x80:
            (bytes, count) = (v, 1)
        case ..<0x800:
            (bytes, count) = ((0xC0 | v >> 6) | (0x80 | v & 0x3F) << 8, 2)
        case ..<0x10000:
            (bytes, count) = ((0xE0 | v >> 12) | (0x80 | v >> 6 & 0x3F) << 8 | (0x80 | v & 0x3F) << 16, 3)
        default:
            (bytes, count) = ((0xF0 | v >> 18) | (0x80 | v >> 12 & 0x3F) << 8 | (0x80 | v >> 6 & 0x3F) << 16 | (0x80 | v & 0x3F) << 24, 4)
        }
        low = bytes
        high = count << 56
        styleBits = PackedCell.bits(of: style)
        widthBits = UInt64(UInt8(clamping: width))
    }

    /// The second half of a wide grapheme.
    static func continuation(style: Style) -> PackedCell {
        var cell = PackedCell.blank
        cell.low = 0
        cell.high = 0
        cell.styleBits = PackedCell.bits(of: style)
        cell.width = 0
        return cell
    }

    /// `symbol` inline; nil when it is longer than 15 bytes.
    init?(inline symbol: String, style: Style, width: Int) {
        let utf8 = symbol.utf8
        let count = utf8.count
        guard count <= PackedCell.inlineCapacity else { return nil }
        var bytes: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            let copied: Bool? = utf8.withContiguousStorageIfAvailable {
                raw.copyMemory(from: UnsafeRawBufferPointer($0))
                return true
            }
            if copied == nil {
                for (offset, byte) in utf8.enumerated() { raw[offset] = byte }
            }
        }
        low = UInt64(littleEndian: bytes.0)
        high = UInt64(littleEndian: bytes.1) | UInt64(count) << 56
        styleBits = PackedCell.bits(of: style)
        widthBits = UInt64(UInt8(clamping: width))
    }

    /// A reference to entry `index` of the buffer's overflow list.
    init(overflow index: Int, style: Style, width: Int) {
        low = UInt64(index)
        high = PackedCell.overflowTag << 56
        styleBits = PackedCell.bits(of: style)
        widthBits = UInt64(UInt8(clamping: width))
    }

    var isOverflow: Bool { high >> 56 == PackedCell.overflowTag }
    var overflowIndex: Int { Int(low) }
    /// The second half of a wide grapheme: no bytes.
    var isContinuation: Bool { high >> 56 == 0 }

    /// The inline grapheme (not for an overflow cell).
    var inlineSymbol: String {
        withInlineUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// The inline grapheme's UTF-8 bytes, without making a `String` (not for an overflow cell).
    @inline(__always)
    func withInlineUTF8<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let count = Int(high >> 56)
        var bytes = (low.littleEndian, (high & ~(0xFF << 56)).littleEndian)
        return try withUnsafeBytes(of: &bytes) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }

    /// The grapheme when it is one scalar held inline (nearly every cell), decoded from its bytes.
    var singleScalar: Unicode.Scalar? {
        let decoded = UTF8Scalar.decode(
            UInt8(truncatingIfNeeded: low), UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low >> 16),
            UInt8(truncatingIfNeeded: low >> 24))
        // Only a lead byte announcing exactly the bytes held is one scalar.
        guard decoded.length > 0, UInt64(decoded.length) == high >> 56 else { return nil }
        return Unicode.Scalar(decoded.value)
    }

    @inline(__always)
    func hasSameStyle(as other: PackedCell) -> Bool { styleBits == other.styleBits }

    /// Same bytes, style and width: for two inline cells, the same cell.
    @inline(__always)
    func isBitwiseEqual(to other: PackedCell) -> Bool {
        low == other.low && high == other.high && styleBits == other.styleBits && widthBits == other.widthBits
    }
}
