/// What a pane keeps for display, whatever the size of the body: the screen shows a window of it,
/// `snapshot --json` the data itself. Longer lines and values end in "… (N more characters)",
/// longer lists in a line "… N more lines".
public enum PaneContentLimits {
    /// Lines of the text and json views, rows of a table, fields.
    public static let lines = 5_000
    /// Characters of one line of the text and json views.
    public static let lineLength = 2_000
    /// Characters of one value in a table cell, a field or the value view.
    public static let value = 500
}
