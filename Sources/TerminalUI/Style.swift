/// A terminal colour: the terminal's default, one of the 16 named colours, or a 256-colour index.
public enum Color: Sendable, Hashable {
    case `default`
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
    case indexed(UInt8)

    /// The colour's index in the 256-colour palette, or nil for the default colour.
    public var paletteIndex: Int? {
        switch self {
        case .default: nil
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .brightBlack: 8
        case .brightRed: 9
        case .brightGreen: 10
        case .brightYellow: 11
        case .brightBlue: 12
        case .brightMagenta: 13
        case .brightCyan: 14
        case .brightWhite: 15
        case .indexed(let i): Int(i)
        }
    }
}

/// How a cell is drawn: colours and text attributes.
public struct Style: Sendable, Hashable {
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
