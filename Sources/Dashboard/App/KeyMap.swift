import TerminalUI

/// Where a key is pressed: the view that has the keyboard.
public enum KeyContext: Sendable, CaseIterable {
    /// The grid of panes (and, for keys the zoom does not take, a zoomed pane).
    case grid
    /// A zoomed pane.
    case zoom
    /// A zoomed table in its data view.
    case zoomTable
    /// The event log.
    case events
    /// The help overlay.
    case help
    /// The curl command overlay.
    case curl
    /// Everywhere, before any view.
    case anywhere
}

/// What a key does.
public enum KeyAction: Hashable, Sendable {
    case reload, retry, reloadAll
    case selectNext, selectPrevious, moveLeft, moveRight, moveUp, moveDown
    case zoom, showCurl, openPager, showEvents, filterPanes, sortFailingFirst, toggleRawValues, togglePause
    case showHelp, suspend, quit, interrupt, commandLine, editConfig
    /// Escape on the grid: clears the pane filter.
    case clearFilter
    /// Closes the view that has the keyboard (zoom, help, curl, events).
    case close
    case zoomView(ZoomView), nextZoomView, previousZoomView, search, searchNext, searchPrevious, sortColumn, sortNextColumn, sortPreviousColumn
    case scrollDown, scrollUp, pageDown, pageUp, top, bottom
    case filterEvents, eventsOfThisPaneOnly, toggleRequestedEvents
}

/// One row of the key map: the keys, what each does where, and how the help overlay, the footer
/// and README name it.
public struct KeyBinding: Sendable {
    /// Where the keys mean this.
    public let context: KeyContext
    /// Each key and its action, in the order they are named.
    public let keys: [(KeyEvent, KeyAction)]
    /// The help overlay's line, or nil when another row's line says it.
    public let help: String?
    /// The footer's hint, or nil when the footer leaves the row out.
    public let hint: String?
    /// README's Keys table row (keys, what they do), or nil when another row's says it.
    public let readme: (keys: String, does: String)?

    init(
        _ context: KeyContext, _ keys: [(KeyEvent, KeyAction)], help: String? = nil, hint: String? = nil,
        readme: (keys: String, does: String)? = nil
    ) {
        self.context = context
        self.keys = keys
        self.help = help
        self.hint = hint
        self.readme = readme
    }
}

/// The dashboard's keys, in one table: the key handler looks actions up here, and the help
/// overlay, the footer's hints and README's Keys table (kept in step by a test) are written
/// from it. The seam for remappable keys.
public enum KeyMap {
    private static func character(_ c: Character, _ action: KeyAction) -> (KeyEvent, KeyAction) { (.character(c), action) }

    /// Every binding, in the order the help overlay and README list them.
    public static let bindings: [KeyBinding] = [
        KeyBinding(.anywhere, [(.ctrl("c"), .interrupt), (.ctrl("z"), .suspend)]),
        KeyBinding(
            .grid, [character("r", .reload)], help: "r          reload the selected pane", hint: "r reload",
            readme: ("`r`", "reload the selected pane (shows its spinner)")),
        KeyBinding(
            .grid, [character("t", .retry)], help: "t          retry a failed pane", hint: "t retry",
            readme: ("`t`", "retry a failed pane now")),
        KeyBinding(
            .grid, [character("R", .reloadAll)], help: "R          reload every pane", hint: "R reload all",
            readme: ("`R`", "reload every pane")),
        KeyBinding(
            .grid,
            [
                (.right, .moveRight), character("l", .moveRight), (.left, .moveLeft), character("h", .moveLeft),
                (.down, .moveDown), character("j", .moveDown), (.up, .moveUp), character("k", .moveUp),
                (.tab, .selectNext), (.backTab, .selectPrevious),
                character("g", .top), (.home, .top), character("G", .bottom), (.end, .bottom), (.pageUp, .pageUp), (.pageDown, .pageDown),
            ],
            help: "←↓↑→ hjkl  move between panes (Tab / Shift-Tab; g/G first/last, PgUp/PgDn)", hint: "tab next",
            readme: ("arrows, `hjkl`, Tab, Shift-Tab, `g`/`G`, Home/End, PgUp/PgDn", "move between panes: one pane (a row in the list) per key, first and last, a page")),
        KeyBinding(
            .grid, [(.enter, .zoom)], help: "⏎          zoom the pane; j/k PgUp/PgDn scroll, q or Esc back", hint: "⏎ zoom",
            readme: ("Enter", "zoom the pane; `j`/`k`, PgUp/PgDn, Home/End scroll; `q` or Esc back")),
        KeyBinding(.zoom, [(.escape, .close), character("q", .close), (.enter, .close)], hint: "q back"),
        KeyBinding(
            .zoom,
            [
                character("j", .scrollDown), (.down, .scrollDown), character("k", .scrollUp), (.up, .scrollUp),
                (.pageDown, .pageDown), character(" ", .pageDown), (.pageUp, .pageUp),
                (.home, .top), character("g", .top), (.end, .bottom), character("G", .bottom),
            ],
            hint: "j/k scroll"),
        KeyBinding(
            .zoom, ZoomView.allCases.map { (KeyEvent.character(Character("\($0.rawValue)")), .zoomView($0)) } + [(.tab, .nextZoomView), (.backTab, .previousZoomView)],
            help: "  1-5 Tab  zoom views: data, response, request, timing, error",
            readme: (
                "`1`–`5`, Tab, Shift-Tab (zoomed)",
                "the zoom's views: data, response (status line, headers, body), request (method, URL as written and as sent, headers, body), timing (DNS, connect, TLS, first byte, total; p50/p95/max, uptime), error (message, since when, cause, error body)"
            )),
        KeyBinding(
            .zoom, [character("/", .search), character("n", .searchNext), character("N", .searchPrevious)],
            help: "  / n N    search a zoom view, next and previous match (3/17 in the footer)", hint: "/ search",
            readme: ("`/`, `n`, `N` (zoomed)", "search the view (table rows, fields, lines), next and previous match (the footer says which of how many); matches highlighted")),
        KeyBinding(
            .zoomTable, [character("s", .sortColumn), character(">", .sortNextColumn), character("<", .sortPreviousColumn)],
            help: "  s < >    zoomed table: s sorts ▲ ▼ then the next column, > and < go to any column", hint: "s < > sort",
            readme: (
                "`s`, `<`, `>` (zoomed table)",
                "`s`: sort by the first column ▲, ▼, then the next column…, then as listed; `>` and `<`: sort by the column to the right or left, straight away (numbers as numbers, missing values last)"
            )),
        KeyBinding(
            .grid, [character("c", .showCurl)], help: "c          the pane's request as a curl command (copied via OSC 52)", hint: "c curl",
            readme: (
                "`c`",
                "the selected pane's request as a `curl` command that sends what Hammock sends (the URL encoded as Hammock encodes it, `-g` so `[1m]` and `{job=\"x\"}` are not globbed; params from the environment through curl's `--url-query`, curl 7.87 or later): copied to the clipboard by OSC 52 where the terminal allows it (tmux: `set -g set-clipboard on`), shown to select otherwise. Pasting it runs nothing but curl: text is single-quoted, values from the environment stay `\"${VAR}\"` (a `:-fallback` becomes a line that sets an unset variable), `${file:…}` becomes `\"$(cat '…')\"`; a login's token is `\"${TOKEN}\"` in the login's own header and scheme; no secret is written"
            )),
        KeyBinding(
            .grid, [character("o", .openPager)], help: "o          the pane's last body in $PAGER", hint: "o pager",
            readme: ("`o`", "the selected pane's last body (redacted, pretty JSON) in `$PAGER` (else `less`); the dashboard comes back when it exits")),
        KeyBinding(
            .grid, [character("e", .showEvents)], help: "e          recent events: j/k scroll, / filter, f this pane only, r requests", hint: "e events",
            readme: (
                "`e`",
                "the latest events as a log (time, pane, what happened in words, the event's name; failures in red): `j`/`k` scroll, `/` filter, `f` only the selected pane, `r` show or hide `Requested` lines"
            )),
        KeyBinding(
            .grid, [character("/", .filterPanes), (.escape, .clearFilter)], help: "/          filter panes by title or URL", hint: "/ filter",
            readme: ("`/`", "filter panes by title or URL; Esc clears")),
        KeyBinding(
            .grid, [character("s", .sortFailingFirst)], help: "s          sort failing panes first", hint: "s sort",
            readme: ("`s`", "sort failing panes first")),
        KeyBinding(
            .grid, [character("v", .toggleRawValues)], help: "v          raw values / formatted values (bytes, durations, ages…)", hint: "v formatted",
            readme: ("`v`", "raw values / formatted values (labels and formats from the config)")),
        KeyBinding(
            .grid, [character("p", .togglePause)], help: "p          pause / resume automatic refresh", hint: "p pause",
            readme: ("`p`", "pause / resume automatic refresh")),
        KeyBinding(
            .grid, [character(":", .commandLine)], help: ":          a command: pane NAME, filter TEXT, reload [all], theme NAME, quit (Tab completes)",
            hint: ": command",
            readme: (
                "`:`",
                "a command, as in k9s: `pane NAME` (choose it), `filter TEXT`, `reload`, `reload all`, `theme NAME` (dark, light, high-contrast, none, terminal; for this run), `quit`; Tab completes commands, pane names and themes"
            )),
        KeyBinding(
            .grid, [character("E", .editConfig)], help: "E          edit the config in $EDITOR; the dashboard reloads it after", hint: "E edit config",
            readme: ("`E`", "open the config in `$EDITOR` (else `$VISUAL`, else `vi`); the dashboard comes back and reloads it (a config with problems keeps the running one and says why)")),
        KeyBinding(.grid, [character("?", .showHelp)], readme: ("`?`", "help")),
        KeyBinding(.grid, [], readme: ("Ctrl-Z", "suspend; `fg` brings it back")),
        KeyBinding(.grid, [character("q", .quit)], help: "Ctrl-Z     suspend      q / Ctrl-C  quit", hint: "q quit", readme: ("`q`, Ctrl-C", "quit")),
        KeyBinding(
            .events,
            [
                (.escape, .close), character("q", .close), character("e", .close), (.enter, .close), character("?", .close),
                character("/", .filterEvents), character("f", .eventsOfThisPaneOnly), character("r", .toggleRequestedEvents),
                character("k", .scrollUp), (.up, .scrollUp), character("j", .scrollDown), (.down, .scrollDown),
                (.pageUp, .pageUp), (.pageDown, .pageDown), character(" ", .pageDown),
                (.home, .top), character("g", .top), (.end, .bottom), character("G", .bottom),
            ]),
        KeyBinding(
            .help,
            [
                (.escape, .close), character("q", .close), character("?", .close), character("e", .close), (.enter, .close),
                character("j", .scrollDown), (.down, .scrollDown), character("k", .scrollUp), (.up, .scrollUp),
                (.pageDown, .pageDown), character(" ", .pageDown), (.pageUp, .pageUp),
                (.home, .top), character("g", .top), (.end, .bottom), character("G", .bottom),
            ]),
        KeyBinding(.curl, [(.escape, .close), character("q", .close), character("c", .close), (.enter, .close)]),
    ]

    private static let table: [KeyContext: [KeyEvent: KeyAction]] = {
        var table: [KeyContext: [KeyEvent: KeyAction]] = [:]
        for binding in bindings {
            for (key, action) in binding.keys where table[binding.context]?[key] == nil {
                table[binding.context, default: [:]][key] = action
            }
        }
        return table
    }()

    /// What `key` does in `context`, or nil.
    public static func action(for key: KeyEvent, in context: KeyContext) -> KeyAction? {
        table[context]?[key]
    }

    /// The first action `key` has in `contexts`, tried in order.
    public static func action(for key: KeyEvent, in contexts: [KeyContext]) -> KeyAction? {
        for context in contexts {
            if let action = table[context]?[key] { return action }
        }
        return nil
    }

    /// The help overlay's lines.
    public static let helpLines: [String] = bindings.compactMap(\.help)

    private static let hints: [KeyContext: [KeyAction: String]] = {
        var hints: [KeyContext: [KeyAction: String]] = [:]
        for binding in bindings {
            guard let hint = binding.hint else { continue }
            for (_, action) in binding.keys where hints[binding.context]?[action] == nil {
                hints[binding.context, default: [:]][action] = hint
            }
        }
        return hints
    }()

    /// The footer hint of the row binding `action` in `context`.
    public static func hint(_ action: KeyAction, in context: KeyContext = .grid) -> String? {
        hints[context]?[action]
    }

    /// README's Keys table, in Markdown.
    public static var readmeTable: String {
        var lines = ["| key | does |", "| --- | --- |"]
        for binding in bindings {
            guard let row = binding.readme else { continue }
            lines.append("| \(row.keys) | \(row.does) |")
        }
        return lines.joined(separator: "\n")
    }
}
