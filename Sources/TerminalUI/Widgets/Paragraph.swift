/// Text that wraps at the area's width (or is cut with `…`), with a scroll offset in lines.
public struct Paragraph: Widget {
    public var text: String
    public var style: Style
    public var wrap: Bool
    public var scroll: Int
    public var alignment: Alignment

    public enum Alignment: Sendable { case left, center, right }

    public init(_ text: String, style: Style = .plain, wrap: Bool = true, scroll: Int = 0, alignment: Alignment = .left) {
        self.text = text
        self.style = style
        self.wrap = wrap
        self.scroll = scroll
        self.alignment = alignment
    }

    /// The lines this text takes at `width` columns.
    public func lines(width: Int) -> [String] {
        guard width > 0 else { return [] }
        let sourceLines = Sanitizer.lines(text)
        guard wrap else { return sourceLines.map { DisplayWidth.truncate($0, to: width) } }
        return sourceLines.flatMap { Paragraph.wrap($0, width: width) }
    }

    public func render(into area: Rect, buffer: inout Buffer) {
        let all = lines(width: area.width)
        let start = max(0, min(scroll, max(0, all.count - 1)))
        for (row, line) in all.dropFirst(start).prefix(area.height).enumerated() {
            let width = DisplayWidth.of(line)
            let x: Int
            switch alignment {
            case .left: x = area.x
            case .center: x = area.x + max(0, (area.width - width) / 2)
            case .right: x = area.x + max(0, area.width - width)
            }
            buffer.setString(x: x, y: area.y + row, line, style: style, maxWidth: area.right - x)
        }
    }

    /// Word-wraps one line; words longer than the width are broken.
    public static func wrap(_ line: String, width: Int) -> [String] {
        if DisplayWidth.of(line) <= width { return [line] }
        var result: [String] = []
        var current = ""
        var currentWidth = 0
        for word in line.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let wordWidth = DisplayWidth.of(word)
            let needed = currentWidth == 0 ? wordWidth : currentWidth + 1 + wordWidth
            if needed <= width {
                current += currentWidth == 0 && current.isEmpty ? word : " " + word
                currentWidth = needed
                continue
            }
            if !current.isEmpty || currentWidth > 0 { result.append(current) }
            current = ""
            currentWidth = 0
            var piece = ""
            var pieceWidth = 0
            for character in word {
                let w = DisplayWidth.of(grapheme: String(character))
                if pieceWidth + w > width {
                    result.append(piece)
                    piece = ""
                    pieceWidth = 0
                }
                piece.append(character)
                pieceWidth += w
            }
            current = piece
            currentWidth = pieceWidth
        }
        if !current.isEmpty { result.append(current) }
        return result.isEmpty ? [""] : result
    }
}
