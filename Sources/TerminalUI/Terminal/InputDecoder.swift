/// Turns the bytes a terminal sends into key presses.
///
/// UTF-8 characters may arrive split across reads: a partial character waits for its rest, and
/// bytes that cannot be UTF-8 are dropped — neither ends input. Escape sequences are decoded in
/// both the normal (`ESC [ A`) and the application-keypad (`ESC O A`) forms that xterm, tmux and
/// the Linux console send, modifiers ignored. A lone ESC is ambiguous until the sequence it might
/// start fails to arrive: `isWaitingForEscape` says so, and `flush()` (after ~25 ms) makes it the
/// Escape key.
public struct InputDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// True when an ESC (or an escape sequence cut off by the read) waits to see what follows.
    public var isWaitingForEscape: Bool { pending.first == 0x1B }

    /// Decodes what can be decoded of `bytes` (after anything kept from earlier reads).
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [KeyEvent] {
        pending.append(contentsOf: bytes)
        return decode(final: false)
    }

    /// Nothing more came: a waiting ESC is the Escape key; the rest of a cut-off sequence is dropped.
    public mutating func flush() -> [KeyEvent] {
        decode(final: true)
    }

    private mutating func decode(final: Bool) -> [KeyEvent] {
        var keys: [KeyEvent] = []
        var index = 0
        loop: while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x1B:
                switch escape(at: index) {
                case .key(let key, let length):
                    if let key { keys.append(key) }
                    index += length
                case .needMore:
                    guard final else { break loop }
                    keys.append(.escape)
                    index = pending.count
                }
            case 0x00..<0x80:
                if let key = InputDecoder.control(byte) { keys.append(key) }
                index += 1
            default:
                let length = InputDecoder.utf8Length(byte)
                guard length > 1 else {
                    index += 1  // a continuation byte or an invalid lead: dropped
                    continue
                }
                let available = pending.count - index
                let continuations = pending[(index + 1)..<min(pending.count, index + length)]
                guard continuations.allSatisfy({ $0 & 0xC0 == 0x80 }) else {
                    index += 1  // broken by what followed: dropped, the rest read again
                    continue
                }
                guard available >= length else {
                    if final { index = pending.count }  // never completed
                    break loop
                }
                if let text = String(validating: pending[index..<(index + length)], as: UTF8.self), let character = text.first {
                    keys.append(.character(character))
                }
                index += length
            }
        }
        pending.removeFirst(index)
        return keys
    }

    private enum Escape {
        case key(KeyEvent?, length: Int)
        case needMore
    }

    /// What the ESC at `start` begins.
    private func escape(at start: Int) -> Escape {
        guard start + 1 < pending.count else { return .needMore }
        let next = pending[start + 1]
        switch next {
        case UInt8(ascii: "["):
            // CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, one final byte 0x40–0x7E.
            var end = start + 2
            while end < pending.count, (0x20...0x3F).contains(pending[end]) { end += 1 }
            guard end < pending.count else {
                return end - start > 32 ? .key(nil, length: end - start) : .needMore
            }
            let final = pending[end]
            guard (0x40...0x7E).contains(final) else { return .key(.escape, length: 1) }
            let parameters = String(decoding: pending[(start + 2)..<end], as: UTF8.self)
            return .key(InputDecoder.csi(parameters: parameters, final: final), length: end - start + 1)
        case UInt8(ascii: "O"):
            guard start + 2 < pending.count else { return .needMore }
            return .key(InputDecoder.ss3(pending[start + 2]), length: 3)
        default:
            // ESC ESC, or Alt with a key: the Escape key, then whatever follows on its own.
            return .key(.escape, length: 1)
        }
    }

    static func csi(parameters: String, final: UInt8) -> KeyEvent? {
        if parameters.hasPrefix("<") {
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
            return MouseEvent.sgr(parameters: parameters, final: final).map(KeyEvent.mouse)
        }
        let first = parameters.split(separator: ";", omittingEmptySubsequences: false).first.flatMap { Int($0) }
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "P"): return .function(1)
        case UInt8(ascii: "Q"): return .function(2)
        case UInt8(ascii: "R"): return .function(3)
        case UInt8(ascii: "S"): return .function(4)
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            case let n? where (11...15).contains(n): return .function(n - 10)
            case let n? where (17...21).contains(n): return .function(n - 11)
            case let n? where (23...24).contains(n): return .function(n - 12)
            default: return nil
            }
        default: return nil
        }
    }

    static func ss3(_ byte: UInt8) -> KeyEvent? {
        switch byte {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: nil
        }
    }

    static func control(_ byte: UInt8) -> KeyEvent? {
        switch byte {
        case 0x09: .tab
        case 0x0A, 0x0D: .enter
        case 0x08, 0x7F: .backspace
        case 0x00: .ctrl("@")
        case 0x01...0x1A: .ctrl(Character(Unicode.Scalar(byte + 0x60)))
        case 0x1B...0x1F: nil
        default: .character(Character(Unicode.Scalar(byte)))
        }
    }

    /// Bytes in the UTF-8 sequence a lead byte starts; 0 for bytes no sequence starts with.
    static func utf8Length(_ byte: UInt8) -> Int {
        switch byte {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }
}
