import TerminalUI

extension KeyMap {
    /// The keys Hammock ships with: less's, vim's and k9s's where they have one.
    public static let standard = KeyMap(
        bind(.anywhere, [(.ctrl("c"), .interrupt), (.ctrl("z"), .suspend)])
            + bind(
                .grid,
                [
                    (k("r"), .reload), (k("t"), .retry), (k("R"), .reloadAll),
                    (.left, .moveLeft), (.down, .moveDown), (.up, .moveUp), (.right, .moveRight),
                    (k("h"), .moveLeft), (k("j"), .moveDown), (k("k"), .moveUp), (k("l"), .moveRight),
                    (.tab, .selectNext), (.backTab, .selectPrevious),
                    (k("g"), .top), (.home, .top), (k("G"), .bottom), (.end, .bottom), (.pageUp, .pageUp), (.pageDown, .pageDown),
                    (.enter, .zoom), (k("c"), .showCurl), (k("o"), .openPager), (k("e"), .showEvents), (k("/"), .filterPanes), (.escape, .clearFilter),
                    (k("s"), .sortFailingFirst), (k("v"), .toggleRawValues), (k("p"), .togglePause), (k("m"), .toggleMute), (k(":"), .commandLine), (k("E"), .editConfig),
                    (k("?"), .showHelp), (k("q"), .quit),
                ])
            + bind(
                .zoom,
                closing + scrolling + ZoomView.allCases.map { (k(Character("\($0.rawValue)")), .zoomView($0)) }
                    + [(.tab, .nextZoomView), (.backTab, .previousZoomView), (k("/"), .search), (k("n"), .searchNext), (k("N"), .searchPrevious)])
            + bind(.zoomTable, [(k("s"), .sortColumn), (k("<"), .sortPreviousColumn), (k(">"), .sortNextColumn)])
            + bind(
                .events,
                closing + [(k("e"), .showEvents)] + scrolling
                    + [(k("/"), .filterEvents), (k("f"), .eventsOfThisPaneOnly), (k("r"), .toggleRequestedEvents)])
            + bind(.help, closing + [(k("?"), .showHelp)] + scrolling)
            + bind(.curl, closing + [(k("c"), .showCurl)]))

    /// How every view closes: `q` first (the footer's), as in less and k9s.
    private static let closing: [(KeyEvent, KeyAction)] = [(k("q"), .close), (.escape, .close), (.enter, .close)]

    /// How every view that scrolls scrolls.
    private static let scrolling: [(KeyEvent, KeyAction)] = [
        (k("j"), .scrollDown), (.down, .scrollDown), (k("k"), .scrollUp), (.up, .scrollUp),
        (.pageDown, .pageDown), (k(" "), .pageDown), (.pageUp, .pageUp),
        (k("g"), .top), (.home, .top), (k("G"), .bottom), (.end, .bottom),
    ]

    private static func k(_ character: Character) -> KeyEvent { .character(character) }

    private static func bind(_ context: KeyContext, _ keys: [(KeyEvent, KeyAction)]) -> [KeyBinding] {
        keys.map { KeyBinding(context, $0.0, $0.1) }
    }
}
