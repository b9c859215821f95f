import CNCursesW
@testable import CursesBackend
import Testing
import TerminalUI

@Suite struct KeyDecoderTests {
    @Test func decodesCharactersAndControlKeys() {
        #expect(KeyDecoder.decode(status: OK, code: UInt32(UInt8(ascii: "q"))) == .character("q"))
        #expect(KeyDecoder.decode(status: OK, code: 0xE9) == .character("é"))
        #expect(KeyDecoder.decode(status: OK, code: 0x03) == .ctrl("c"))
        #expect(KeyDecoder.decode(status: OK, code: 0x1A) == .ctrl("z"))
        #expect(KeyDecoder.decode(status: OK, code: 0x09) == .tab)
        #expect(KeyDecoder.decode(status: OK, code: 0x0A) == .enter)
        #expect(KeyDecoder.decode(status: OK, code: 0x0D) == .enter)
        #expect(KeyDecoder.decode(status: OK, code: 0x1B) == .escape)
        #expect(KeyDecoder.decode(status: OK, code: 0x7F) == .backspace)
        #expect(KeyDecoder.decode(status: ERR, code: 0) == nil)
    }

    @Test func decodesKeypadCodes() {
        let cases: [(Int32, KeyEvent)] = [
            (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
            (KEY_NPAGE, .pageDown), (KEY_PPAGE, .pageUp), (KEY_HOME, .home), (KEY_END, .end),
            (KEY_BTAB, .backTab), (KEY_ENTER, .enter), (KEY_BACKSPACE, .backspace), (KEY_DC, .delete),
            (nc_key_f(1), .function(1)), (nc_key_f(12), .function(12)),
        ]
        for (code, key) in cases {
            #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(code)) == key)
        }
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_RESIZE)) == nil)
    }
}
