/// One screen position: a grapheme and its style.
///
/// A wide grapheme (CJK, most emoji) occupies two cells: the first holds it, the second is a
/// continuation cell with an empty symbol that the diff never sends on its own.
public struct Cell: Sendable, Hashable {
    /// The grapheme shown here ("" for the second half of a wide grapheme).
    public var symbol: String {
        didSet { width = Cell.width(of: symbol) }
    }
    public var style: Style
    /// How many columns the symbol takes (0 for a continuation cell), computed once when the
    /// symbol is set: the diff reads it for every cell of every frame.
    public private(set) var width: Int

    public init(_ symbol: String = " ", style: Style = .plain) {
        self.symbol = symbol
        self.style = style
        self.width = Cell.width(of: symbol)
    }

    init(_ symbol: String, style: Style, width: Int) {
        self.symbol = symbol
        self.style = style
        self.width = width
    }

    private static func width(of symbol: String) -> Int {
        symbol.isEmpty ? 0 : DisplayWidth.of(grapheme: symbol)
    }

    /// A blank cell in the default style.
    public static let blank = Cell()

    /// The second half of a wide grapheme.
    public static func continuation(style: Style) -> Cell { Cell("", style: style, width: 0) }

    /// True for the second half of a wide grapheme.
    public var isContinuation: Bool { symbol.isEmpty }

}
