
/// Bounds what a config file may expand to, so no file — however its anchors and aliases nest
/// ("billion laughs") — can take more than linear time or memory to read.
///
/// Two checks: before the text is parsed, mapping keys that are aliases or complex (`? …`) are
/// refused at their place (a config's keys are names, and an alias key could stand for a whole
/// expanded tree); after it, the values the document expands to are counted with a budget of
/// the file's size plus `allowance`, stopping as soon as the budget is spent.
enum YAMLGuard {
    /// Values a file may expand to beyond one per byte of its text.
    static let allowance = 100_000

    /// Keys that are not names (aliases, complex keys), as (line, column, message).
    ///
    /// Read as Unicode scalars and split into lines where the YAML parser breaks them (LF, CR,
    /// CRLF, NEL, LS, PS): split by characters at "\n", a file with Windows ("\r\n" is one
    /// grapheme) or old Mac line ends was one long line, and an alias key in it went unseen and
    /// hung the parser; grapheme breaking also made this scan most of a large config's start-up.
    static func keyProblems(in text: String) -> [(line: Int, column: Int, message: String)] {
        var problems: [(Int, Int, String)] = []
        var blockIndent: Int?  // inside a block scalar (| or >): lines indented deeper than this
        var quote: Unicode.Scalar?  // inside a quoted scalar that goes on to the next line
        for (number, characters) in lines(of: text).enumerated() {
            // Columns count characters, as the parser's own messages do.
            func column(_ index: Int) -> Int { String(String.UnicodeScalarView(characters[..<index])).count + 1 }
            func isDelimiter(_ scalar: Unicode.Scalar) -> Bool {
                scalar == " " || scalar == "," || scalar == "[" || scalar == "]" || scalar == "{" || scalar == "}"
            }
            let indent = characters.prefix { $0 == " " }.count
            if let parent = blockIndent {
                if characters.allSatisfy({ $0 == " " }) || indent > parent { continue }
                blockIndent = nil
            }
            var index = 0
            var nodeStart = quote == nil  // a value or key may begin here
            while index < characters.count {
                let c = characters[index]
                if let open = quote {
                    if open == "\"", c == "\\" { index += 2; continue }
                    if c == open {
                        if open == "'", index + 1 < characters.count, characters[index + 1] == "'" { index += 2; continue }
                        quote = nil
                    }
                    index += 1
                    continue
                }
                switch c {
                case " ", "\t", "\r":
                    index += 1
                    continue
                case "#" where index == 0 || characters[index - 1] == " " || characters[index - 1] == "\t":
                    index = characters.count
                    continue
                case "\"" where nodeStart, "'" where nodeStart:
                    quote = c
                    index += 1
                    nodeStart = false
                    continue
                case "-", "[", "{", ",":
                    let separated = c != "-" || index + 1 == characters.count || characters[index + 1] == " "
                    index += 1
                    nodeStart = separated || nodeStart
                    if !separated { nodeStart = false }
                    continue
                case ":" where index + 1 == characters.count || characters[index + 1] == " ":
                    index += 1
                    nodeStart = true
                    // A block scalar follows: skip its lines.
                    let rest = characters[index...].drop { $0 == " " }
                    if let first = rest.first, first == "|" || first == ">" { blockIndent = indent }
                    continue
                case "?" where nodeStart && (index + 1 == characters.count || characters[index + 1] == " "):
                    problems.append((number + 1, column(index), "complex mapping keys (? …) are not supported; use plain names as keys"))
                case "*" where nodeStart:
                    var end = index + 1
                    while end < characters.count, !isDelimiter(characters[end]) { end += 1 }
                    var after = end
                    while after < characters.count, characters[after] == " " { after += 1 }
                    if end > index + 1, after < characters.count, characters[after] == ":",
                        after + 1 == characters.count || isDelimiter(characters[after + 1])
                    {
                        let alias = String(String.UnicodeScalarView(characters[index..<end]))
                        problems.append((number + 1, column(index), "an alias (\(alias)) cannot be a key; use a plain name"))
                    }
                case "|" where nodeStart && index > 0, ">" where nodeStart && index > 0:
                    blockIndent = indent
                default:
                    break
                }
                nodeStart = false
                index += 1
            }
        }
        return problems
    }

    /// The text's lines as the YAML parser counts them: a CRLF pair is one break.
    private static func lines(of text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n", afterCR { continue }
            switch scalar {
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append(current)
                current = []
            default:
                current.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }

    /// True when `root` expands to at most `limit` values (aliases counted as often as they are
    /// used); stops counting as soon as the limit is passed.
    static func fits(_ root: YAMLNode, limit: Int) -> Bool {
        var budget = limit
        var stack = [root]
        while let node = stack.popLast() {
            budget -= 1
            if budget < 0 { return false }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    stack.append(key)
                    stack.append(value)
                }
            case .sequence(let sequence):
                stack.append(contentsOf: sequence)
            case .scalar:
                break
            }
        }
        return true
    }
}
