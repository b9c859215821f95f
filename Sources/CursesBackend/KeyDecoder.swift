import CNCursesW
import TerminalUI

/// Turns what `wget_wch` returned into a `KeyEvent`.
enum KeyDecoder {
    /// `status` is `wget_wch`'s result (`OK` or `KEY_CODE_YES`); `code` what it stored.
    static func decode(status: Int32, code: UInt32) -> KeyEvent? {
        if status == KEY_CODE_YES { return decodeKeyCode(Int32(bitPattern: code)) }
        guard status == OK else { return nil }
        switch code {
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x1B: return .escape
        case 0x08, 0x7F: return .backspace
        case 0x00: return .ctrl("@")
        case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(code + 0x60)!))
        case 0x1C...0x1F: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }

    static func decodeKeyCode(_ key: Int32) -> KeyEvent? {
        switch key {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_NPAGE: return .pageDown
        case KEY_PPAGE: return .pageUp
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case nc_key_f(1)...nc_key_f(24): return .function(Int(key - nc_key_f(0)))
        default: return nil
        }
    }
}
