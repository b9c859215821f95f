/// What the mouse did, where: cells counted from 0 at the top left.
public struct MouseEvent: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A button went down: 0 left, 1 middle, 2 right.
        case press(button: Int)
        case release
        case wheelUp, wheelDown
    }

    public var kind: Kind
    public var x: Int
    public var y: Int
    /// 2 for the second press of a double click (the runtime counts them; the terminal does not).
    public var clicks: Int

    public init(_ kind: Kind, x: Int, y: Int, clicks: Int = 1) {
        self.kind = kind
        self.x = x
        self.y = y
        self.clicks = clicks
    }

    /// A left click.
    public var isLeftPress: Bool { kind == .press(button: 0) }

    public var description: String {
        let what: String
        switch kind {
        case .press(let button): what = clicks > 1 ? "DoubleClick\(button)" : "Click\(button)"
        case .release: what = "Release"
        case .wheelUp: what = "WheelUp"
        case .wheelDown: what = "WheelDown"
        }
        return "\(what)@\(x),\(y)"
    }

    /// The mouse report xterm's SGR mode (1006) sends: `ESC [ < b ; x ; y` then `M` (press, wheel)
    /// or `m` (release), with 1-based cells. Motion, and buttons 4 and up, are ignored.
    static func sgr(parameters: String, final: UInt8) -> MouseEvent? {
        let fields = parameters.dropFirst().split(separator: ";").map { Int($0) }
        guard fields.count == 3, let code = fields[0], let x = fields[1], let y = fields[2], x >= 1, y >= 1 else { return nil }
        // Bits: 0–1 the button, 4 shift, 8 meta, 16 ctrl, 32 motion, 64 the wheel.
        guard code & 32 == 0 else { return nil }
        let kind: Kind
        if final == UInt8(ascii: "m") {
            kind = .release
        } else if code & 64 != 0 {
            switch code & 3 {
            case 0: kind = .wheelUp
            case 1: kind = .wheelDown
            default: return nil
            }
        } else if code & 128 != 0 || code & 3 == 3 {
            return nil
        } else {
            kind = .press(button: code & 3)
        }
        return MouseEvent(kind, x: x - 1, y: y - 1)
    }
}
