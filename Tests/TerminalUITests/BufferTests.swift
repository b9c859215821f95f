import Testing
@testable import TerminalUI

@Suite struct DisplayWidthTests {
    @Test func measuresByGrapheme() {
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("✓ ok · 120 ms ▁▂▃▅▇") == 19)
        #expect(DisplayWidth.of("🚀") == 2)
        #expect(DisplayWidth.of("👩‍💻") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1, "combining acute accent takes no column")
        #expect(DisplayWidth.of("한국") == 4)
        #expect(DisplayWidth.of("ｗｉｄｅ") == 8)
    }

    @Test func truncatesByDisplayWidthWithEllipsis() {
        #expect(DisplayWidth.truncate("Payment gateway", to: 10) == "Payment g…")
        #expect(DisplayWidth.truncate("short", to: 10) == "short")
        #expect(DisplayWidth.truncate("日本語テキスト", to: 7) == "日本語…")
        #expect(DisplayWidth.truncate("日本語", to: 4) == "日…")
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
        #expect(DisplayWidth.pad("ab", to: 4) == "ab  ")
        #expect(DisplayWidth.pad("ab", to: 4, alignRight: true) == "  ab")
    }

    /// The scalar-by-scalar path is only taken where Unicode's grapheme rules would give the same:
    /// every scalar it accepts stands alone beside a letter, beside itself and beside a symbol.
    @Test func everyScalarOfTheFastPathIsAGraphemeOfItsOwn() {
        var accepted = 0
        for value in UInt32(0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value), DisplayWidth.isOneScalarPerGrapheme(String(scalar)) else { continue }
            accepted += 1
            let alone = String(scalar)
            for text in ["a" + alone + "a", alone + alone, "·" + alone + "✓"] {
                #expect(text.count == text.unicodeScalars.count, "U+\(String(value, radix: 16)) joins a neighbour in \(text.debugDescription)")
            }
            #expect(DisplayWidth.of("x" + alone + "·") == 1 + DisplayWidth.of(grapheme: alone) + 1)
        }
        #expect(accepted > 3_700)
        for outside in ["e\u{301}", "\u{20DD}", "\u{200D}", "🚀", "한", "\u{FE0F}", "\r\n"] {
            #expect(!DisplayWidth.isOneScalarPerGrapheme(outside), "\(outside.debugDescription)")
        }
    }

    /// A scalar packed straight into a cell holds its own UTF-8, at every length and at the edges
    /// between lengths.
    @Test func aPackedScalarHoldsItsUTF8() {
        let values: [UInt32] = [0x20, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xB7, 0x2500, 0x28FF, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F680, 0x10FFFF]
        for value in values {
            let scalar = Unicode.Scalar(value)!
            let cell = PackedCell(scalar: scalar, style: .plain, width: 1)
            #expect(cell.inlineSymbol == String(scalar), "U+\(String(value, radix: 16))")
            #expect(cell.inlineSymbol.utf8.elementsEqual(String(scalar).utf8))
        }
    }

    /// The symbols' widths are worked out once into a table; each entry is the scalar's own, at
    /// its own place, wide and zero-width ones included.
    @Test func theSymbolTableHoldsEachScalarsWidth() {
        for value in DisplayWidth.symbolStart..<DisplayWidth.symbolEnd {
            let scalar = Unicode.Scalar(value)!
            #expect(Int(DisplayWidth.symbolWidthTable[Int(value - DisplayWidth.symbolStart)]) == DisplayWidth.measured(scalar), "U+\(String(value, radix: 16))")
            #expect(DisplayWidth.of(scalar: scalar) == DisplayWidth.measured(scalar), "U+\(String(value, radix: 16))")
        }
        #expect(DisplayWidth.symbolEnd - DisplayWidth.symbolStart == 0xC00)
        #expect(["✓", "⣿", "─", "·", "…", "▁"].map { DisplayWidth.of(scalar: $0) } == [1, 1, 1, 1, 1, 1])
        #expect(["⌚", "✅", "⚡", "❌"].map { DisplayWidth.of(scalar: $0) } == [2, 2, 2, 2])
        #expect(["\u{2060}", "\u{200B}", "\u{20DD}"].map { DisplayWidth.of(scalar: $0) } == [0, 0, 0])
        #expect(DisplayWidth.of("a\u{7}b") == 2, "a control character takes no column, in any text")
        #expect(DisplayWidth.of("✓ ⌚ ✅") == 7)
    }

    /// Text the fast path lays out reads the same as through grapheme breaking.
    @Test func theFastPathAgreesWithGraphemeBreaking() {
        let text = "200 · 41 ms · 2s ago ⠋  ✓ ▸ ◐ ⚠ ─│┌ ▁▂▃ ← → ▲ café «q» ±½ ‰ ™ … ␤"
        #expect(DisplayWidth.isOneScalarPerGrapheme(text))
        #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of(grapheme: String($1)) })
        for width in 0...DisplayWidth.of(text) + 1 {
            let cut = DisplayWidth.truncate(text, to: width)
            let room = width - 1
            var expected = ""
            var used = 0
            for character in text {
                let w = DisplayWidth.of(grapheme: String(character))
                if used + w > room { break }
                expected.append(character)
                used += w
            }
            #expect(cut == (width <= 0 ? "" : DisplayWidth.of(text) <= width ? text : expected + "…"))
        }
        var fast = Buffer(width: 80, height: 1)
        fast.setString(x: 0, y: 0, text)
        #expect(fast.lines == [text + String(repeating: " ", count: 80 - DisplayWidth.of(text))])
    }
}

@Suite struct SanitizerTests {
    @Test func replacesEscapeSequencesWithVisiblePlaceholders() {
        #expect(Sanitizer.line("\u{1B}[31mred\u{1B}[0m") == "␛[31mred␛[0m", "CSI")
        #expect(Sanitizer.line("\u{1B}]0;pwned\u{07}") == "␛]0;pwned␇", "OSC window title with BEL")
        #expect(Sanitizer.line("ding\u{07}") == "ding␇", "BEL")
        #expect(Sanitizer.line("abc\u{08}\u{08}x") == "abc␈␈x", "backspace")
        #expect(Sanitizer.line("over\rwrite") == "over␍write", "carriage return")
        #expect(Sanitizer.line("a\tb") == "a b", "tab")
        #expect(Sanitizer.line("two\nlines") == "two␤lines")
        #expect(Sanitizer.line("del\u{7F}") == "del␡")
        #expect(Sanitizer.line("c1\u{9B}2J") == "c1\u{FFFD}2J", "8-bit CSI")
        #expect(Sanitizer.line("safe \u{202E}txt.exe") == "safe \u{FFFD}txt.exe", "bidi override")
        #expect(Sanitizer.line("nul\u{0}") == "nul␀")
    }

    @Test func leavesOrdinaryTextAlone() {
        for text in ["plain", "café ✓ 日本", "┌─┐ ▁▂▃", "emoji 🚀"] {
            #expect(Sanitizer.line(text) == text)
        }
    }

    /// Harmless text sharing a lead byte with what is replaced ("·" and C1 controls, "✓" and
    /// bidi marks) is left alone; one bad scalar among them is still caught.
    @Test func looksAtScalarsWhenALeadByteIsShared() {
        #expect(Sanitizer.line("200 · 41 ms ✓") == "200 · 41 ms ✓")
        #expect(Sanitizer.line("200 · \u{85}41 ✓") == "200 · \u{FFFD}41 ✓", "C1 next line")
        #expect(Sanitizer.line("✓ \u{2067}txt") == "✓ \u{FFFD}txt", "right-to-left isolate")
        #expect(Sanitizer.line("· ok\u{FE0F}") == "· ok", "presentation selector dropped")
        #expect(Sanitizer.line("👍\u{1F3FD} ·") == "👍 ·", "skin tone dropped")
        #expect(Sanitizer.line("· \u{61C}x") == "· \u{FFFD}x", "Arabic letter mark")
    }

    @Test func splitsLinesAndExpandsTabs() {
        #expect(Sanitizer.lines("a\r\nb\nc") == ["a", "b", "c"])
        #expect(Sanitizer.lines("x\ty\n\tz") == ["x   y", "    z"])
        #expect(Sanitizer.lines("bad\u{1B}c") == ["bad␛c"])
    }

    @Test func bufferTextIsAlwaysSanitised() {
        var buffer = Buffer(width: 12, height: 1)
        buffer.setString(x: 0, y: 0, "\u{1B}[2Jboom")
        #expect(buffer.lines == ["␛[2Jboom    "])
        #expect(buffer.cells.allSatisfy { $0.symbol.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } })
        // Text otherwise made of the dashboard's own symbols, laid out scalar by scalar, is
        // sanitised too: bidi controls share the range of "‰", "←" and "…".
        for (text, shown) in [("· \u{202E}ab ✓", "· �ab ✓"), ("✓\u{2067}x…", "✓�x…"), ("←\u{200F}→", "←�→"), ("·\u{85}·", "·�·")] {
            buffer.setString(x: 0, y: 0, text + String(repeating: " ", count: 12))
            #expect(buffer.lines == [shown + String(repeating: " ", count: 12 - DisplayWidth.of(shown))], "\(text.debugDescription)")
        }
    }
}

@Suite struct BufferTests {
    @Test func initFromLinesRoundTrips() {
        let buffer = Buffer(lines: ["┌──┐", "│ab│", "└──┘"])
        #expect(buffer.lines == ["┌──┐", "│ab│", "└──┘"])
        #expect(buffer.area == Rect(width: 4, height: 3))
    }

    @Test func setStringClipsAtMaxWidthAndEdge() {
        var buffer = Buffer(width: 8, height: 2)
        let end = buffer.setString(x: 2, y: 0, "abcdefgh")
        #expect(end == 8)
        buffer.setString(x: 0, y: 1, "abcdef", maxWidth: 3)
        #expect(buffer.lines == ["  abcdef", "abc     "])
    }

    @Test func wideGraphemesTakeTwoCells() {
        var buffer = Buffer(width: 7, height: 1)
        buffer.setString(x: 0, y: 0, "日本x🚀")
        #expect(buffer.lines == ["日本x🚀"])
        #expect(buffer[1, 0].isContinuation)
        #expect(buffer[5, 0].symbol == "🚀")
        #expect(buffer[6, 0].isContinuation)
    }

    @Test func aWideGraphemeThatDoesNotFitIsLeftOut() {
        var buffer = Buffer(width: 3, height: 1)
        buffer.setString(x: 0, y: 0, "a日本")
        #expect(buffer.lines == ["a日"])
        var narrow = Buffer(width: 2, height: 1)
        narrow.setString(x: 0, y: 0, "a日")
        #expect(narrow.lines == ["a "])
    }

    /// An overlay's edge or a title can land on half of a wide grapheme: the other half becomes
    /// a blank, as on a terminal, and what was written is sent by the diff.
    @Test @MainActor func writingOverHalfAWideGraphemeBlanksTheOtherHalf() {
        var before = Buffer(width: 6, height: 3)
        for row in 0..<3 { before.setString(x: 0, y: row, "日本語") }
        var after = before
        after.setString(x: 1, y: 0, "|")  // over 日's second half
        after.setString(x: 2, y: 1, "|")  // over 本's first half
        after[3, 2] = Cell("|")  // over 本's second half, one cell
        #expect(after.lines == [" |本語", "日| 語", "日 |語"])
        let screen = TestBackend(columns: 6, rows: 3)
        screen.draw(before.allCells)
        screen.draw(before.diff(to: after))
        #expect(screen.lines == after.lines)
        var filled = before
        filled.fill(Rect(x: 1, y: 0, width: 2, height: 3), with: Cell("#"))
        #expect(filled.lines == [" ## 語", " ## 語", " ## 語"])
    }

    @Test func combiningMarksStayWithTheirBase() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.setString(x: 0, y: 0, "e\u{301}x")
        #expect(buffer[0, 0].symbol == "e\u{301}")
        #expect(buffer[1, 0].symbol == "x")
    }

    @Test func descriptionPrintsLines() {
        let buffer = Buffer(lines: ["ab", "cd"])
        #expect(buffer.description == "Buffer 2×2\n\"ab\"\n\"cd\"")
    }
}

@Suite struct DiffTests {
    @Test func identicalBuffersDiffToNothing() {
        let a = Buffer(lines: ["hello", "world"])
        #expect(a.diff(to: a).isEmpty)
    }

    @Test func changingOneWordSendsExactlyItsCells() {
        let before = Buffer(lines: ["status   UP      "])
        let after = Buffer(lines: ["status   DOWN    "])
        let updates = before.diff(to: after)
        #expect(updates.map(\.x) == [9, 10, 11, 12])
        #expect(updates.map(\.cell.symbol) == ["D", "O", "W", "N"])
    }

    @Test func styleChangesAreChanges() {
        let before = Buffer(lines: ["ok"])
        var after = before
        after.setStyle(Style().fg(.green), in: Rect(width: 1, height: 1))
        #expect(before.diff(to: after).map(\.x) == [0])
    }

    @Test func wideGlyphsSendOneUpdateAndNeverTheirContinuation() {
        let before = Buffer(lines: ["abcd"])
        var after = Buffer(width: 4, height: 1)
        after.setString(x: 0, y: 0, "日cd")
        let updates = before.diff(to: after)
        #expect(updates.map(\.x) == [0])
        #expect(updates.map(\.cell.symbol) == ["日"])
    }

    /// Rows whose bytes did not change are passed over whole; the diff must still be exactly
    /// the cell-by-cell one. A long grapheme in a row of its own turns the row comparison off,
    /// which gives the cell-by-cell diff to compare with.
    @Test @MainActor func passingOverUnchangedRowsChangesNoUpdate() {
        var random = SeededRandom(seed: 17)
        let pieces = ["a", "b", " ", "日", "·", "✓", "⣿", "é", "e\u{301}", "🚀"]
        func line() -> String { (0..<random.next(9)).map { _ in pieces[random.next(pieces.count)] }.joined() }
        for _ in 0..<300 {
            var before = Buffer(width: 12, height: 8)
            for row in 0..<7 { before.setString(x: 0, y: row, line()) }
            var after = before
            for _ in 0..<random.next(4) {
                after.setString(x: random.next(12), y: random.next(7), line(), style: random.next(2) == 0 ? .plain : Style().fg(.red))
            }
            let updates = before.diff(to: after)
            // Applied to the old screen, the updates give the new one.
            let screen = TestBackend(columns: 12, rows: 8)
            screen.draw(before.allCells)
            screen.draw(updates)
            #expect(screen.lines == after.lines)
            // The same diff with the row comparison off.
            var beforeLong = before
            var afterLong = after
            beforeLong.setString(x: 0, y: 7, "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}")
            afterLong.setString(x: 0, y: 7, "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}")
            #expect(beforeLong.diff(to: afterLong) == updates)
        }
    }

    @Test func replacingAWideGlyphWithNarrowOnesResendsTheCoveredCell() {
        var before = Buffer(width: 4, height: 1)
        before.setString(x: 0, y: 0, "日cd")
        let after = Buffer(lines: ["a cd"])
        let updates = before.diff(to: after)
        #expect(updates.map(\.x) == [0, 1])
        #expect(updates.map(\.cell.symbol) == ["a", " "])
    }
}

/// Graphemes longer than a cell holds inline (15 bytes of UTF-8) live in the buffer's overflow
/// list; they read, compare and diff like any other, and the list stays bounded.
@Suite struct LongGraphemeTests {
    /// 16 bytes: a letter and five combining marks of three bytes each.
    let long = "a\u{1DC0}\u{1DC1}\u{1DC2}\u{1DC3}\u{1DC4}"
    /// A tag-sequence flag (England): 28 bytes, two columns.
    let flag = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"

    @Test func longGraphemesReadBackWhole() {
        #expect(long.utf8.count == 16 && long.count == 1)
        var buffer = Buffer(width: 6, height: 1)
        buffer.setString(x: 0, y: 0, "x" + long + flag + "y")
        #expect(buffer[1, 0].symbol == long)
        #expect(buffer[2, 0].symbol == flag)
        #expect(buffer.lines == ["x" + long + flag + "y "])
        #expect(buffer.cells.map(\.symbol) == ["x", long, flag, "", "y", " "])
        buffer[5, 0] = Cell(long)
        #expect(buffer[5, 0] == Cell(long))
    }

    @Test func zeroWidthMarksJoinedOntoACellCanOutgrowItsInlineRoom() {
        var buffer = Buffer(width: 3, height: 1)
        buffer.setString(x: 0, y: 0, "e")
        buffer.setString(x: 1, y: 0, String(repeating: "\u{200B}", count: 6))
        #expect(buffer[0, 0].symbol == "e" + String(repeating: "\u{200B}", count: 6))
        #expect(buffer[1, 0].symbol == " ")
    }

    @Test func diffComparesLongGraphemesByWhatTheyAre() {
        var before = Buffer(width: 4, height: 1)
        before.setString(x: 0, y: 0, "ab" + long)
        var same = Buffer(width: 4, height: 1)
        same.setString(x: 0, y: 0, "zz")  // a different overflow layout: nothing at index 0
        same.setString(x: 0, y: 0, "ab" + long)
        #expect(before.diff(to: same).isEmpty)
        #expect(before == same)
        var other = Buffer(width: 4, height: 1)
        other.setString(x: 0, y: 0, "aba\u{1DC0}\u{1DC1}\u{1DC2}\u{1DC3}\u{1DC5}")
        #expect(before.diff(to: other).map(\.x) == [2])
        #expect(before != other)
        let short = Buffer(lines: ["abc "])
        #expect(before.diff(to: short).map(\.cell.symbol) == ["c"])
        #expect(short.diff(to: before).map(\.cell.symbol) == [long])
    }

    @Test func rewritingLongGraphemesKeepsTheOverflowBounded() {
        var buffer = Buffer(width: 4, height: 2)
        for round in 0..<1_000 {
            let mark = Unicode.Scalar(0x1DC0 + UInt32(round % 40))!
            buffer.setString(x: round % 4, y: round / 4 % 2, "q\u{1DC0}\u{1DC1}\u{1DC2}\u{1DC3}" + String(mark))
        }
        #expect(buffer.cells.allSatisfy { $0.symbol.utf8.count == 16 && $0.width == 1 })
        #expect(buffer.lines.allSatisfy { $0.count == 4 })
        #expect(buffer[3, 1].symbol == "q\u{1DC0}\u{1DC1}\u{1DC2}\u{1DC3}" + String(Unicode.Scalar(0x1DC0 + UInt32(999 % 40))!))
        #expect(buffer.overflowCount <= 16)
    }
}

@Suite struct PackedCellTests {
    /// A packed cell keeps the style as one word: every style must fit it and come back whole.
    @Test func stylesFitAWordAndComeBackWhole() {
        #expect(MemoryLayout<Style>.size <= MemoryLayout<UInt64>.size)
        let colors: [Color] = [.default, .red, .brightWhite, .indexed(255), .indexed(16)]
        for foreground in colors {
            for background in colors {
                for flags in 0..<16 {
                    let style = Style(
                        foreground: foreground, background: background, bold: flags & 1 != 0, dim: flags & 2 != 0,
                        reverse: flags & 4 != 0, underline: flags & 8 != 0)
                    let cell = PackedCell(scalar: "✓", style: style, width: 1)
                    #expect(cell.style == style)
                    #expect(cell.isBitwiseEqual(to: PackedCell(scalar: "✓", style: style, width: 1)))
                    #expect(!cell.isBitwiseEqual(to: PackedCell(scalar: "✓", style: style.fg(.green), width: 1)) || style.foreground == .green)
                }
            }
        }
    }

    /// A backend reads a one-scalar cell's scalar straight from its bytes.
    @Test func aSingleScalarComesBackFromItsBytes() {
        var checked = 0
        for value in stride(from: UInt32(0x20), through: 0x10FFFF, by: 3) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(PackedCell(scalar: scalar, style: .plain, width: 1).singleScalar == scalar)
            checked += 1
        }
        for scalar in ["\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"] as [Unicode.Scalar] {
            #expect(PackedCell(inline: String(scalar), style: .plain, width: 1)?.singleScalar == scalar)
        }
        #expect(checked > 350_000)
        for grapheme in ["e\u{301}", "🇫🇷", "👍🏽", "ab", "\u{1100}\u{1161}", "🏴\u{E0067}"] {
            #expect(PackedCell(inline: grapheme, style: .plain, width: 2)?.singleScalar == nil)
        }
    }

    @Test func scalarsAndStringsPackAlike() {
        for scalar in ["a", "·", "✓", "日", "🚀", "\u{10FFFF}"] as [Unicode.Scalar] {
            let direct = PackedCell(scalar: scalar, style: .plain, width: 1)
            let viaString = PackedCell(inline: String(scalar), style: .plain, width: 1)
            #expect(viaString.map(direct.isBitwiseEqual(to:)) == true)
            #expect(direct.inlineSymbol == String(scalar))
        }
    }
}

/// A linear congruential generator (Knuth's MMIX constants): the same numbers on every run.
private struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    /// A number in 0..<bound, from the high bits.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
