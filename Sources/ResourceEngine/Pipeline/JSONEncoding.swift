import FoundationEssentials

/// Which Unicode encoding a JSON body is in, so it can be read as UTF-8.
///
/// RFC 8259 asks for UTF-8 between systems, but servers still send UTF-16 and UTF-32, and
/// Siesta's parser (`JSONSerialization`) reads them as RFC 4627 §3 says: a byte-order mark
/// decides, else the pattern of zero bytes among the first four (JSON text starts with two ASCII
/// characters). A `charset` in the content type names the encoding outright; a byte-order mark
/// still decides the byte order of a bare `utf-16` or `utf-32`.
enum JSONEncoding: Equatable {
    case utf8
    case utf16BigEndian, utf16LittleEndian, utf32BigEndian, utf32LittleEndian

    /// The encoding of `data`, read from `charset` when it names a Unicode encoding, else from
    /// the bytes; with the length of the byte-order mark to skip.
    static func of(_ data: Data, charset: String?) -> (JSONEncoding, bom: Int) {
        // The first four bytes (0xAA past the end: neither zero nor part of a mark), without an
        // array: every JSON body comes through here.
        func byte(_ index: Int) -> UInt8 { index < data.count ? data[data.startIndex + index] : 0xAA }
        let bytes = (byte(0), byte(1), byte(2), byte(3))
        var fromBOM: (JSONEncoding, Int)?
        switch bytes {
        case (0x00, 0x00, 0xFE, 0xFF): fromBOM = (.utf32BigEndian, 4)
        case (0xFF, 0xFE, 0x00, 0x00): fromBOM = (.utf32LittleEndian, 4)
        case (0xEF, 0xBB, 0xBF, _): fromBOM = (.utf8, 3)
        case (0xFE, 0xFF, _, _): fromBOM = (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _): fromBOM = (.utf16LittleEndian, 2)
        default: break
        }
        switch charset?.lowercased() {
        case "utf-16be": return (.utf16BigEndian, fromBOM?.0 == .utf16BigEndian ? 2 : 0)
        case "utf-16le": return (.utf16LittleEndian, fromBOM?.0 == .utf16LittleEndian ? 2 : 0)
        case "utf-32be": return (.utf32BigEndian, fromBOM?.0 == .utf32BigEndian ? 4 : 0)
        case "utf-32le": return (.utf32LittleEndian, fromBOM?.0 == .utf32LittleEndian ? 4 : 0)
        case "utf-16":
            if let fromBOM, fromBOM.0 == .utf16BigEndian || fromBOM.0 == .utf16LittleEndian { return fromBOM }
            return (bytes.0 != 0 && bytes.1 == 0 ? .utf16LittleEndian : .utf16BigEndian, 0)
        case "utf-32":
            if let fromBOM, fromBOM.0 == .utf32BigEndian || fromBOM.0 == .utf32LittleEndian { return fromBOM }
            return (bytes.0 != 0 && bytes.3 == 0 ? .utf32LittleEndian : .utf32BigEndian, 0)
        default: break
        }
        if let fromBOM { return fromBOM }
        // Without a mark: the first two characters are ASCII, so their zero bytes give it away.
        switch (bytes.0 == 0, bytes.1 == 0, bytes.2 == 0, bytes.3 == 0) {
        case (true, true, true, false): return (.utf32BigEndian, 0)
        case (false, true, true, true): return (.utf32LittleEndian, 0)
        case (true, false, true, false): return (.utf16BigEndian, 0)
        case (false, true, false, true): return (.utf16LittleEndian, 0)
        default: return (.utf8, 0)
        }
    }

    /// The IANA name the text decoder knows it by.
    var charsetName: String {
        switch self {
        case .utf8: "utf-8"
        case .utf16BigEndian: "utf-16be"
        case .utf16LittleEndian: "utf-16le"
        case .utf32BigEndian: "utf-32be"
        case .utf32LittleEndian: "utf-32le"
        }
    }

    /// `data` as UTF-8 JSON text: as it is when it is UTF-8 (less a byte-order mark), decoded and
    /// encoded again when not; a body that is not valid in its encoding is a `RequestError`.
    static func utf8(_ data: Data, charset: String?) throws -> Data {
        let (encoding, bom) = of(data, charset: charset)
        let body = bom > 0 ? data.dropFirst(bom) : data
        guard encoding != .utf8 else { return Data(body) }
        return Data(try Parsers.decodeText(Data(body), charset: encoding.charsetName).utf8)
    }
}
