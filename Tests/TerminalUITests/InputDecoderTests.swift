import TerminalUI
import Testing

@Suite struct InputDecoderTests {
    private func keys(_ chunks: [[UInt8]], flush: Bool = true) -> [KeyEvent] {
        var decoder = InputDecoder()
        var out = chunks.flatMap { decoder.feed($0) }
        if flush { out += decoder.flush() }
        return out
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func charactersAndControlKeys() {
        #expect(keys([bytes("q é日🚀")]) == [.character("q"), .character(" "), .character("é"), .character("日"), .character("🚀")])
        #expect(keys([[0x03, 0x1A, 0x09, 0x0D, 0x0A, 0x7F, 0x08, 0x00]]) == [.ctrl("c"), .ctrl("z"), .tab, .enter, .enter, .backspace, .backspace, .ctrl("@")])
    }

    /// SGR (1006) mouse reports, as xterm and tmux send them: 1-based cells become 0-based; a
    /// report cut across reads waits for its rest; motion and odd buttons are dropped, and what
    /// follows is still read.
    @Test func sgrMouseReportsBecomeMouseEvents() {
        #expect(keys([bytes("\u{1B}[<0;12;5M\u{1B}[<0;12;5m")]) == [.mouse(MouseEvent(.press(button: 0), x: 11, y: 4)), .mouse(MouseEvent(.release, x: 11, y: 4))])
        #expect(keys([bytes("\u{1B}[<64;1;1M\u{1B}[<65;80;24M")]) == [.mouse(MouseEvent(.wheelUp, x: 0, y: 0)), .mouse(MouseEvent(.wheelDown, x: 79, y: 23))])
        #expect(keys([bytes("\u{1B}[<2;3;4M")]) == [.mouse(MouseEvent(.press(button: 2), x: 2, y: 3))])
        #expect(keys([bytes("\u{1B}[<16;3;4M")]) == [.mouse(MouseEvent(.press(button: 0), x: 2, y: 3))], "ctrl-click is a click")
        #expect(keys([bytes("\u{1B}[<3"), bytes("2;3;4M"), bytes("q")]) == [.character("q")], "a drag is dropped, split or not")
        #expect(keys([bytes("\u{1B}[<0;0;4Mx\u{1B}[<0;;Mz")]) == [.character("x"), .character("z")], "no cell 0, no empty fields")
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes("\u{1B}[<0;1")) == [])
        #expect(decoder.feed(bytes("20;40Mj")) == [.mouse(MouseEvent(.press(button: 0), x: 119, y: 39)), .character("j")])
    }

    @Test func aCharacterSplitAcrossReadsWaitsForItsRest() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0xC3]).isEmpty, "half of é: nothing yet, and not the end of input")
        #expect(!decoder.isWaitingForEscape)
        #expect(decoder.feed([0xA9]) == [.character("é")])
        #expect(decoder.feed([0xF0, 0x9F]).isEmpty)
        #expect(decoder.feed([0x9A, 0x80, 0x71]) == [.character("🚀"), .character("q")])
    }

    @Test func invalidBytesAreDroppedAndWhatFollowsIsRead() {
        #expect(keys([[0xFF, 0x71, 0x80, 0xC0, 0x72, 0xC3, 0x73]]) == [.character("q"), .character("r"), .character("s")])
        #expect(keys([[0xE6, 0x97]], flush: true) == [], "a character never completed is dropped")
    }

    @Test func escapeSequencesInBothCursorModes() {
        let cases: [(String, KeyEvent)] = [
            ("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
            ("\u{1B}OA", .up), ("\u{1B}OD", .left), ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}OH", .home),
            ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
            ("\u{1B}[3~", .delete), ("\u{1B}[Z", .backTab), ("\u{1B}OP", .function(1)), ("\u{1B}[15~", .function(5)),
            ("\u{1B}[24~", .function(12)), ("\u{1B}[1;5A", .up), ("\u{1B}OM", .enter),
        ]
        for (sequence, key) in cases {
            #expect(keys([bytes(sequence)], flush: false) == [key], "\(sequence.debugDescription)")
        }
        #expect(keys([bytes("\u{1B}[2~q")]) == [.character("q")], "an unknown sequence is skipped whole")
    }

    @Test func aLoneEscapeIsTheEscapeKeyOnceNothingFollows() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.isWaitingForEscape)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.isWaitingForEscape)
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.feed(Array("[A".utf8)) == [.up], "a sequence split across reads")
        #expect(keys([[0x1B, 0x1B]]) == [.escape, .escape])
        #expect(keys([[0x1B, 0x71]]) == [.escape, .character("q")], "Alt-q: Escape, then q")
    }
}
