/// Decoding one scalar from valid UTF-8 (a Swift string's bytes, a packed cell's), for the
/// passes over text that look at every scalar of every frame without iterating
/// `unicodeScalars`.
enum UTF8Scalar {
    /// The scalar value whose encoding starts with `lead` and continues with `second`, `third`,
    /// `fourth` (ignored past its length), and that length; length 0 when `lead` starts none.
    @inline(__always)
    static func decode(_ lead: UInt8, _ second: UInt8, _ third: UInt8, _ fourth: UInt8) -> (value: UInt32, length: Int) {
        let b1 = UInt32(second & 0x3F), b2 = UInt32(third & 0x3F), b3 = UInt32(fourth & 0x3F)
        switch lead {
        case 0x00..<0x80: return (UInt32(lead), 1)
        case 0xC0..<0xE0: return (UInt32(lead & 0x1F) << 6 | b1, 2)
        case 0xE0..<0xF0: return (UInt32(lead & 0x0F) << 12 | b1 << 6 | b2, 3)
        case 0xF0..<0xF8: return (UInt32(lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, 4)
        default: return (0, 0)
        }
    }

    /// The scalar starting at `offset` of `bytes` (valid UTF-8), and its length.
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (value: UInt32, length: Int) {
        let count = bytes.count
        return decode(
            bytes[offset], offset + 1 < count ? bytes[offset + 1] : 0, offset + 2 < count ? bytes[offset + 2] : 0,
            offset + 3 < count ? bytes[offset + 3] : 0)
    }
}
