/// One screen position: a grapheme and its style.
///
/// A wide grapheme (CJK, most emoji) occupies two cells: the first holds it, the second is a
/// continuation cell with an empty symbol that the diff never sends on its own.
public struct Cell: Sendable, Hashable {
    public var symbol: String
    public var style: Style

    public init(_ symbol: String = " ", style: Style = .plain) {
        self.symbol = symbol
        self.style = style
    }

    /// A blank cell in the default style.
    public static let blank = Cell()

    /// The second half of a wide grapheme.
    public static func continuation(style: Style) -> Cell { Cell("", style: style) }

    /// True for the second half of a wide grapheme.
    public var isContinuation: Bool { symbol.isEmpty }

    /// How many columns the symbol takes (0 for a continuation cell).
    public var width: Int { symbol.isEmpty ? 0 : DisplayWidth.of(grapheme: symbol) }
}
