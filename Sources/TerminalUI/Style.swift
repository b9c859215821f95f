/// A terminal colour: the terminal's default, one of the 16 named colours, or a 256-colour index.
///
/// A small integer underneath, so comparing styles (done for every cell of every frame) is cheap.
public struct Color: Sendable, Hashable, BitwiseCopyable {
    private let code: Int16

    private init(code: Int16) {
        self.code = code
    }

    public static let `default` = Color(code: -1)
    public static let black = Color(code: 0)
    public static let red = Color(code: 1)
    public static let green = Color(code: 2)
    public static let yellow = Color(code: 3)
    public static let blue = Color(code: 4)
    public static let magenta = Color(code: 5)
    public static let cyan = Color(code: 6)
    public static let white = Color(code: 7)
    public static let brightBlack = Color(code: 8)
    public static let brightRed = Color(code: 9)
    public static let brightGreen = Color(code: 10)
    public static let brightYellow = Color(code: 11)
    public static let brightBlue = Color(code: 12)
    public static let brightMagenta = Color(code: 13)
    public static let brightCyan = Color(code: 14)
    public static let brightWhite = Color(code: 15)

    /// A colour of the 256-colour palette.
    public static func indexed(_ index: UInt8) -> Color { Color(code: Int16(index)) }

    /// The colour's index in the 256-colour palette, or nil for the default colour.
    public var paletteIndex: Int? { code < 0 ? nil : Int(code) }
}

/// How a cell is drawn: colours and text attributes.
public struct Style: Sendable, Hashable, BitwiseCopyable {
    public var foreground: Color
    public var background: Color
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(
        foreground: Color = .default, background: Color = .default, bold: Bool = false, dim: Bool = false,
        reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// A copy with another foreground colour.
    public func fg(_ color: Color) -> Style {
        var s = self
        s.foreground = color
        return s
    }

    /// A copy with another background colour.
    public func bg(_ color: Color) -> Style {
        var s = self
        s.background = color
        return s
    }

    /// A copy in bold.
    public var bolded: Style {
        var s = self
        s.bold = true
        return s
    }

    /// A copy dimmed.
    public var dimmed: Style {
        var s = self
        s.dim = true
        return s
    }

    /// A copy in reverse video.
    public var reversed: Style {
        var s = self
        s.reverse = true
        return s
    }
}
