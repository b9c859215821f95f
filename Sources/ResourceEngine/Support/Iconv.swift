import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Character-set conversion through the C library's iconv, for the charsets Foundation on Linux
/// cannot convert (EUC-JP, ISO-2022-JP, GB18030, Big5, KOI8-R…).
///
/// glibc ships a converter for every IANA charset a server is likely to name; using it beats a
/// hand-written table and needs nothing beyond libc.
enum Iconv {
    enum Failure: Error {
        /// iconv has no converter by that name.
        case unknownCharset
        /// The bytes are not valid in the source charset, or cannot be written in the target one.
        case unconvertible
    }

    /// Decodes `data` written in `charset` into a string.
    static func decode(_ data: Data, charset: String) throws(Failure) -> String {
        let utf8 = try convert(data, from: charset, to: "UTF-8")
        guard let text = String(validating: utf8, as: UTF8.self) else { throw .unconvertible }
        return text
    }

    /// Encodes `text` in `charset`.
    static func encode(_ text: String, charset: String) throws(Failure) -> Data {
        try convert(Data(text.utf8), from: "UTF-8", to: charset)
    }

    /// A charset name as servers send it: letters, digits and `._:+-`, nothing iconv would read as
    /// an option (`//TRANSLIT`) or a path.
    static func isPlausibleName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 40
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: ":"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    private static func convert(_ data: Data, from source: String, to target: String) throws(Failure) -> Data {
        guard isPlausibleName(source), isPlausibleName(target) else { throw .unknownCharset }
        let converter = iconv_open(target, source)
        guard let converter, converter != iconv_t(bitPattern: -1) else { throw .unknownCharset }
        defer { iconv_close(converter) }
        var output = Data()
        output.reserveCapacity(data.count + data.count / 2 + 16)
        var chunk = [CChar](repeating: 0, count: 64 * 1024)
        var input = [CChar](unsafeUninitializedCapacity: data.count) { buffer, count in
            count = data.copyBytes(to: UnsafeMutableRawBufferPointer(buffer))
        }
        /// One call into iconv; nil input flushes the shift state (ISO-2022-JP). False on a bad sequence.
        func step(_ inPointer: inout UnsafeMutablePointer<CChar>?, _ inLeft: inout Int, flush: Bool) -> Bool? {
            let (result, produced) = chunk.withUnsafeMutableBufferPointer { chunkBuffer -> (Int, Int) in
                var outPointer: UnsafeMutablePointer<CChar>? = chunkBuffer.baseAddress
                var outLeft = chunkBuffer.count
                let result = flush
                    ? iconv(converter, nil, nil, &outPointer, &outLeft)
                    : iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                return (result, chunkBuffer.count - outLeft)
            }
            chunk.withUnsafeBytes { output.append(contentsOf: $0.prefix(produced)) }
            if result != -1 { return true }
            return errno == E2BIG ? nil : false
        }
        let ok = input.withUnsafeMutableBufferPointer { inputBuffer -> Bool in
            var inPointer: UnsafeMutablePointer<CChar>? = inputBuffer.baseAddress
            var inLeft = inputBuffer.count
            while inLeft > 0 {
                if step(&inPointer, &inLeft, flush: false) == false { return false }
            }
            while true {
                switch step(&inPointer, &inLeft, flush: true) {
                case true?: return true
                case false?: return false
                case nil: continue
                }
            }
        }
        guard ok else { throw .unconvertible }
        return output
    }
}
