/// How a table pane's rows are ordered in zoom (`s` cycles it): by one column, either way.
public struct TableSort: Sendable, Equatable {
    public var column: Int
    public var descending: Bool

    public init(column: Int, descending: Bool) {
        self.column = column
        self.descending = descending
    }

    /// The next step of `s`: column 1 ascending, descending, column 2 ascending, … then none.
    public static func next(after sort: TableSort?, columns: Int) -> TableSort? {
        guard columns > 0 else { return nil }
        guard let sort else { return TableSort(column: 0, descending: false) }
        if !sort.descending { return TableSort(column: sort.column, descending: true) }
        return sort.column + 1 < columns ? TableSort(column: sort.column + 1, descending: false) : nil
    }

    /// `>` and `<`: the sort moves to the next column to the right (`by: 1`) or left (`by: -1`),
    /// keeping its direction; from no sort, the first column or the last. Past either end it wraps.
    public static func shifted(_ sort: TableSort?, by step: Int, columns: Int) -> TableSort? {
        guard columns > 0 else { return nil }
        guard let sort else { return TableSort(column: step > 0 ? 0 : columns - 1, descending: false) }
        return TableSort(column: ((sort.column + step) % columns + columns) % columns, descending: sort.descending)
    }
}
