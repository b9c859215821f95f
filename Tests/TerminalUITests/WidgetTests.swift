import Testing
import TerminalUI

private func render(_ widget: some Widget, width: Int, height: Int) -> [String] {
    var buffer = Buffer(width: width, height: height)
    widget.render(into: buffer.area, buffer: &buffer)
    return buffer.lines
}

@Suite struct LayoutTests {
    @Test func splitsByLengthPercentageAndFill() {
        let rects = Layout.vertical([.length(1), .fill(1), .length(1)]).split(Rect(width: 10, height: 10))
        #expect(rects.map(\.height) == [1, 8, 1])
        #expect(rects.map(\.y) == [0, 1, 9])
        let columns = Layout.horizontal([.percentage(25), .fill(1)]).split(Rect(x: 2, y: 1, width: 40, height: 3))
        #expect(columns == [Rect(x: 2, y: 1, width: 10, height: 3), Rect(x: 12, y: 1, width: 30, height: 3)])
    }

    @Test func distributesFillByWeightAndRoundingToTheFirst() {
        #expect(Layout.sizes(for: [.fill(1), .fill(2)], total: 30) == [10, 20])
        #expect(Layout.sizes(for: [.fill(1), .fill(1), .fill(1)], total: 10) == [4, 3, 3])
        #expect(Layout.sizes(for: [.ratio(1, 3), .fill(1)], total: 12) == [4, 8])
    }

    @Test func minAndMaxBoundGrowth() {
        #expect(Layout.sizes(for: [.min(5), .fill(1)], total: 20) == [13, 7])
        #expect(Layout.sizes(for: [.max(3), .fill(1)], total: 20) == [3, 17])
        #expect(Layout.sizes(for: [.min(8), .fill(1)], total: 10) == [9, 1])
    }

    @Test func fixedPartsShrinkInProportionWhenTheyDoNotFit() {
        let sizes = Layout.sizes(for: [.length(10), .length(10)], total: 10)
        #expect(sizes == [5, 5])
        #expect(Layout.sizes(for: [.length(3), .length(30)], total: 11).reduce(0, +) == 11)
    }

    @Test func spacingSitsBetweenParts() {
        let rects = Layout.horizontal([.fill(1), .fill(1)], spacing: 2).split(Rect(width: 10, height: 1))
        #expect(rects.map(\.x) == [0, 6])
        #expect(rects.map(\.width) == [4, 4])
    }

    @Test func gridFillsRowsAndWidensTheLastRow() {
        let cells = Layout.grid(Rect(width: 20, height: 10), count: 3, columns: 2)
        #expect(cells == [
            Rect(x: 0, y: 0, width: 10, height: 5), Rect(x: 10, y: 0, width: 10, height: 5),
            Rect(x: 0, y: 5, width: 20, height: 5),
        ])
    }
}

@Suite struct WidgetTests {
    @Test func blockDrawsBorderAndBothTitles() {
        #expect(render(Block(title: "Health", rightTitle: "200 · 41 ms"), width: 30, height: 3) == [
            "┌ Health ─────── 200 · 41 ms ┐",
            "│                            │",
            "└────────────────────────────┘",
        ])
    }

    @Test func blockTruncatesTitlesToFit() {
        #expect(render(Block(title: "Open orders from the shop", rightTitle: "503"), width: 20, height: 2) == [
            "┌ Open orde… ─ 503 ┐",
            "└──────────────────┘",
        ])
        // The right title is the state: the left gives way first, down to a few cells.
        #expect(render(Block(title: "Payment gateway", rightTitle: "no response · error"), width: 30, height: 1) == [
            "┌ Pay… ─ no response · error ┐"
        ])
        #expect(render(Block(title: "Payment gateway", rightTitle: "no response · error"), width: 20, height: 1) == [
            "┌ P… ─ no respons… ┐"
        ])
        #expect(render(Block(title: "Tiny"), width: 4, height: 2) == ["┌──┐", "└──┘"])
    }

    @Test func blockInnerIsInsideTheBorder() {
        #expect(Block().inner(Rect(x: 1, y: 1, width: 10, height: 5)) == Rect(x: 2, y: 2, width: 8, height: 3))
    }

    @Test func paragraphWrapsAndScrolls() {
        let text = "The quick brown fox jumps over the lazy dog"
        #expect(render(Paragraph(text), width: 12, height: 4) == [
            "The quick   ", "brown fox   ", "jumps over  ", "the lazy dog",
        ])
        #expect(render(Paragraph(text, scroll: 2), width: 12, height: 2) == ["jumps over  ", "the lazy dog"])
        #expect(render(Paragraph("abcdefghij", wrap: true), width: 4, height: 3) == ["abcd", "efgh", "ij  "])
        #expect(render(Paragraph("abcdefghij", wrap: false), width: 4, height: 1) == ["abc…"])
    }

    @Test func paragraphCentersAndSanitises() {
        #expect(render(Paragraph("⠋ Loading…", alignment: .center), width: 14, height: 1) == ["  ⠋ Loading…  "])
        #expect(render(Paragraph("a\u{1B}[1mb\tc"), width: 12, height: 1) == ["a␛[1mb  c   "])
    }

    @Test func tableSizesColumnsToContent() {
        let table = Table(header: ["id", "customer", "total"], rows: [["1021", "Ada Lovelace", "40.00"], ["1022", "Alan Turing", "12.50"]])
        #expect(render(table, width: 30, height: 4) == [
            "id    customer      total     ",
            "1021  Ada Lovelace  40.00     ",
            "1022  Alan Turing   12.50     ",
            "                              ",
        ])
    }

    @Test func tableTruncatesTheWidestColumnFirst() {
        let table = Table(header: ["id", "customer", "total"], rows: [["1021", "Ada Lovelace King", "40.00"]])
        #expect(render(table, width: 26, height: 2) == ["id    customer       total", "1021  Ada Lovelace…  40.00"])
        #expect(table.columnWidths(for: 26) == [4, 13, 5])
        #expect(table.columnWidths(for: 20) == [4, 14, 0], "below a readable width, the last column goes")
    }

    /// Too narrow for every column's header: the last columns are left out, and those that stay
    /// are whole, rather than every column cut to a stub ("cu…", "st…", "pl…").
    @Test func aNarrowTableLeavesOutItsLastColumnsBeforeCuttingThemAll() {
        let table = Table(
            header: ["customer", "status", "plan", "region", "created"],
            rows: [["Ada Lovelace", "active", "pro", "eu-west-1", "2024-01-02"]])
        #expect(render(table, width: 30, height: 2) == [
            "customer      status  plan    ",
            "Ada Lovelace  active  pro     ",
        ])
        #expect(table.columnWidths(for: 30) == [12, 6, 4, 0, 0])
        #expect(render(table, width: 11, height: 2) == ["customer   ", "Ada Lovela…"], "a column is cut only when it is the last one")
        #expect(render(table, width: 60, height: 2)[1] == "Ada Lovelace  active  pro   eu-west-1  2024-01-02           ")
    }

    @Test func aWindowOfATableKeepsTheWholeTablesColumnWidths() {
        let all = [["1", "Ada"], ["2", "Alan"], ["1000", "Grace Brewster Murray Hopper"]]
        let widths = Table.naturalWidths(header: ["id", "name"], rows: all)
        #expect(widths == [4, 28])
        let window = Table(header: ["id", "name"], rows: Array(all.prefix(2)), naturalWidths: widths)
        #expect(render(window, width: 24, height: 3) == [
            "id    name              ",
            "1     Ada               ",
            "2     Alan              ",
        ], "the id column is as wide as row 3 needs, though row 3 is not drawn")
    }

    @Test func aWindowOfAKeyValueListKeepsTheWholeListsKeyWidth() {
        let all: [(key: String, value: String)] = [("a", "1"), ("b", "2"), ("a.long.key", "3")]
        let window = KeyValueList(Array(all.prefix(2)), naturalKeyWidth: KeyValueList.naturalKeyWidth(all))
        #expect(render(window, width: 30, height: 2) == ["a           1                 ", "b           2                 "])
    }

    @Test func keyValueListAlignsKeys() {
        let list = KeyValueList([("status", "UP"), ("version", "1.4.2")])
        #expect(render(list, width: 16, height: 2) == ["status   UP     ", "version  1.4.2  "])
    }

    @Test func sparklineScalesToTheMaximum() {
        #expect(Sparkline([0, 1, 2, 3, 4, 5, 6, 7]).text(width: 8) == "▁▂▃▄▅▆▇█")
        #expect(Sparkline([1, nil, 1]).text(width: 3) == "█ █")
        #expect(Sparkline([1, 2, 3, 4]).text(width: 2) == "▆█", "most recent samples win")
    }

    @Test func spinnerCyclesByTick() {
        #expect(Spinner(tick: 0).symbol == "⠋")
        #expect(Spinner(tick: 11).symbol == "⠙")
        #expect(Spinner(tick: -1).symbol == "⠏")
    }

    @Test func statusBarDropsTheRightTextWhenCrowded() {
        #expect(render(StatusBar(left: "Shop API", right: "14:02:31"), width: 20, height: 1) == ["Shop API    14:02:31"])
        #expect(render(StatusBar(left: "Shop API · 6 panes", right: "14:02:31"), width: 20, height: 1) == ["Shop API · 6 panes  "])
        #expect(render(StatusBar(left: "A very long status line", right: "x"), width: 10, height: 1) == ["A very lo…"])
    }

    @Test func modalIsCentredOverExistingContent() {
        var buffer = Buffer(lines: Array(repeating: "..................", count: 5))
        Modal(title: "Help", lines: ["q quit"]).render(into: buffer.area, buffer: &buffer)
        #expect(buffer.lines == [
            "..................",
            "....┌ Help ──┐....",
            "....│ q quit │....",
            "....└────────┘....",
            "..................",
        ])
    }
}

@MainActor
@Suite struct TerminalTests {
    @discardableResult
    private func drawStatus(_ terminal: Terminal, _ value: String) -> Int {
        terminal.draw { buffer in
            Block(title: "Health").render(into: buffer.area, buffer: &buffer)
            KeyValueList([("status", value)]).render(into: Block().inner(buffer.area), buffer: &buffer)
        }
    }

    @Test func firstFrameSendsEveryCellSecondIdenticalFrameSendsNone() {
        let backend = TestBackend(columns: 20, rows: 3)
        let terminal = Terminal(backend: backend)
        #expect(drawStatus(terminal, "UP") == 60)
        #expect(drawStatus(terminal, "UP") == 0)
        #expect(backend.cellsPerFrame == [60, 0])
        #expect(backend.lines == ["┌ Health ──────────┐", "│status  UP        │", "└──────────────────┘"])
    }

    @Test func changingOneValueSendsExactlyItsCells() {
        let backend = TestBackend(columns: 20, rows: 3)
        let terminal = Terminal(backend: backend)
        drawStatus(terminal, "UP")
        #expect(drawStatus(terminal, "DOWN") == 4)
        #expect(backend.lastFrame.map(\.cell.symbol) == ["D", "O", "W", "N"])
        #expect(backend.lines[1] == "│status  DOWN      │")
    }

    @Test func resizeAndForcedRedrawSendEverything() {
        let backend = TestBackend(columns: 20, rows: 3)
        let terminal = Terminal(backend: backend)
        drawStatus(terminal, "UP")
        backend.resize(columns: 10, rows: 3)
        #expect(drawStatus(terminal, "UP") == 30)
        terminal.forceFullRedraw()
        #expect(drawStatus(terminal, "UP") == 30)
        #expect(backend.clearCount == 3)
        #expect(backend.lines == ["┌ Health ┐", "│sta…  UP│", "└────────┘"])
    }
}
