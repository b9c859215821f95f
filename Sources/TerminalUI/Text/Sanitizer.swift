/// Makes text safe for a terminal: no control character or escape sequence survives.
///
/// The single choke point for text from the network: `Buffer.setString` runs everything through
/// it, so no response body, header or error message can move the cursor, change colours, set the
/// window title or ring the bell. Control characters become visible placeholders (ESC → `␛`,
/// BEL → `␇`, CR → `␍`, backspace → `␈`, other C0 → their Control Pictures, DEL → `␡`, C1 → `�`);
/// the printable rest of an escape sequence is then harmless text. Bidirectional overrides,
/// isolates and marks, which can make text read differently from what it is, become `�` too;
/// emoji joiners, presentation selectors and skin-tone modifiers are dropped (see `appendSafe`).
public enum Sanitizer {
    /// One line of text: tabs become a space, line breaks become `␤`.
    public static func line(_ text: String) -> String {
        guard needsWork(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09: out.append(" ")
            case 0x0A: out.append("\u{2424}")
            default: appendSafe(scalar, to: &out)
            }
        }
        return String(out)
    }

    /// Text that may span lines: split at `\n` and `\r\n`, tabs expanded to `tabWidth` stops,
    /// each line made safe.
    public static func lines(_ text: String, tabWidth: Int = 4) -> [String] {
        // No line end, no tab, nothing to make safe: the one line is the text (a pane's value).
        guard needsWork(text) else { return [text] }
        return text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map { raw in
            // Placeholders first, so tab stops count the columns that will actually be shown.
            var safe = String.UnicodeScalarView()
            for scalar in raw.unicodeScalars {
                if scalar == "\t" { safe.append(scalar) } else { appendSafe(scalar, to: &safe) }
            }
            let line = String(safe)
            guard line.unicodeScalars.contains("\t") else { return line }
            var expanded = ""
            var column = 0
            for character in line {
                if character == "\t" {
                    let spaces = tabWidth - column % tabWidth
                    expanded += String(repeating: " ", count: spaces)
                    column += spaces
                } else {
                    expanded.append(character)
                    column += DisplayWidth.of(grapheme: String(character))
                }
            }
            return expanded
        }
    }

    private static func needsWork(_ text: String) -> Bool {
        var bytes = text
        return bytes.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte < 0x20 || byte == 0x7F { return true }
                // Only scalars with these lead bytes are ever changed; a lead byte shared by
                // harmless text ("·", "✓", box drawing) is looked at as a scalar.
                guard byte == 0xC2 || byte == 0xE2 || byte == 0xD8 || byte == 0xEF || byte == 0xF0 else {
                    offset += 1
                    continue
                }
                let (value, length) = UTF8Scalar.decode(bytes, at: offset)
                if keeps(Unicode.Scalar(value)!) {
                    offset += length
                    continue
                }
                return true
            }
            return false
        }
    }

    /// True when the sanitiser leaves `scalar` as it is.
    static func keeps(_ scalar: Unicode.Scalar) -> Bool {
        if case .keep = treatment(of: scalar) { return true }
        return false
    }

    /// What becomes of a scalar written to the terminal.
    private enum Treatment {
        case keep
        case replace(Unicode.Scalar)
        case drop
    }

    private static func treatment(of scalar: Unicode.Scalar) -> Treatment {
        let v = scalar.value
        switch v {
        case 0x1B: return .replace("\u{241B}")
        case 0x00..<0x20: return .replace(Unicode.Scalar(0x2400 + v)!)
        case 0x7F: return .replace("\u{2421}")
        case 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return .replace("\u{FFFD}")
        // Line and paragraph separators break a line wherever they are shown (a notification,
        // a log viewer): on one line they are a visible break.
        case 0x2028, 0x2029: return .replace("\u{2424}")
        // What joins or restyles emoji (zero-width joiners, presentation selectors, skin tones):
        // terminals draw such sequences 2 to 8 columns wide, ncurses counts them its own way, and
        // a row must never overflow its pane. Without them each emoji stands alone, the same width
        // everywhere.
        case 0x200D, 0xFE0E, 0xFE0F, 0x1F3FB...0x1F3FF: return .drop
        default: return .keep
        }
    }

    private static func appendSafe(_ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        switch treatment(of: scalar) {
        case .keep: out.append(scalar)
        case .replace(let placeholder): out.append(placeholder)
        case .drop: break
        }
    }
}
