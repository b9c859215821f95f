/// One row of the help overlay and of README's Keys table: some actions of one context, what
/// they do, and the word the footer uses for them. The keys are the map's, whatever it is.
public struct KeyHelpRow: Sendable {
    /// Where the keys work.
    public let context: KeyContext
    /// The actions, in the order their keys are named.
    public let actions: [KeyAction]
    /// What they do, on screen.
    public let help: String
    /// What they do, in README (`help` unless it says more).
    public let readme: String
    /// The footer's word for them ("reload"), or nil when the footer leaves them out.
    public let hint: String?
    /// The actions whose first keys the footer names before the word (the row's own unless
    /// said), joined by `hintJoin`: `j/k scroll`, `Tab next`, `s < > sort`.
    let hintActions: [KeyAction]?
    let hintJoin: String

    init(
        _ context: KeyContext, _ actions: [KeyAction], _ help: String, readme: String? = nil, hint: String? = nil,
        hintActions: [KeyAction]? = nil, hintJoin: String = "/"
    ) {
        self.context = context
        self.actions = actions
        self.help = help
        self.readme = readme ?? help
        self.hint = hint
        self.hintActions = hintActions
        self.hintJoin = hintJoin
    }

    /// The row that holds `action` in `context`, or nil.
    static func row(of action: KeyAction, in context: KeyContext) -> KeyHelpRow? {
        rowIndex[context]?[action].map { all[$0] }
    }

    private static let rowIndex: [KeyContext: [KeyAction: Int]] = {
        var index: [KeyContext: [KeyAction: Int]] = [:]
        for (position, row) in all.enumerated() {
            for action in row.actions where index[row.context]?[action] == nil { index[row.context, default: [:]][action] = position }
        }
        return index
    }()

    /// Every row, in the order the help and README list them.
    public static let all: [KeyHelpRow] = [
        KeyHelpRow(.grid, [.reload], "reload the selected pane", readme: "reload the selected pane (shows its spinner)", hint: "reload"),
        KeyHelpRow(.grid, [.retry], "retry a failed pane", readme: "retry a failed pane now (as does clicking `Try again`)", hint: "retry"),
        KeyHelpRow(.grid, [.reloadAll], "reload every pane", hint: "reload all"),
        KeyHelpRow(.grid, [.moveLeft, .moveDown, .moveUp, .moveRight], "move between panes", readme: "move between panes, one pane (a row in the list) per key"),
        KeyHelpRow(.grid, [.selectNext, .selectPrevious], "next / previous pane", hint: "next", hintActions: [.selectNext]),
        KeyHelpRow(.grid, [.top, .bottom], "first / last pane"),
        KeyHelpRow(.grid, [.pageUp, .pageDown], "a page of panes up / down"),
        KeyHelpRow(.grid, [.zoom], "zoom the pane (its keys below)", readme: "zoom the pane", hint: "zoom"),
        KeyHelpRow(
            .grid, [.showCurl], "the pane's request as a curl command (copied via OSC 52)",
            readme:
                "the selected pane's request as a `curl` command that sends what Hammock sends (the URL encoded as Hammock encodes it, `-g` so `[1m]` and `{job=\"x\"}` are not globbed; params from the environment through curl's `--url-query`, curl 7.87 or later): copied to the clipboard by OSC 52 where the terminal allows it (tmux: `set -g set-clipboard on`), shown to select otherwise. Pasting it runs nothing but curl: text is single-quoted, values from the environment stay `\"${VAR}\"` (a `:-fallback` becomes a line that sets an unset variable), `${file:…}` becomes `\"$(cat '…')\"`; a login's token is `\"${TOKEN}\"` in the login's own header and scheme; no secret is written",
            hint: "curl"),
        KeyHelpRow(
            .grid, [.openPager], "the pane's last body in $PAGER",
            readme: "the selected pane's last body (redacted, pretty JSON) in `$PAGER` (else `less`); the dashboard comes back when it exits", hint: "pager"),
        KeyHelpRow(
            .grid, [.showEvents], "recent events (their keys below)",
            readme: "the latest events as a log (time, pane, what happened in words, the event's name; failures in red)", hint: "events"),
        KeyHelpRow(.grid, [.filterPanes], "filter panes by title or URL; #name by tag", readme: "filter panes by title or URL; `#name`: the panes tagged so", hint: "filter"),
        KeyHelpRow(.grid, [.clearFilter], "clear the filter"),
        KeyHelpRow(.grid, [.sortFailingFirst], "sort failing panes first", hint: "sort"),
        KeyHelpRow(
            .grid, [.toggleRawValues], "raw values / formatted values (bytes, durations, ages…)",
            readme: "raw values / formatted values (labels and formats from the config)", hint: "raw"),
        KeyHelpRow(.grid, [.togglePause], "pause / resume automatic refresh", hint: "pause"),
        KeyHelpRow(
            .grid, [.toggleMute], "mute the pane's alerts (:mute 15m, 1h, or until it recovers); again: unmute",
            readme:
                "mute the selected pane's alerts: opens `:mute ` to say for how long (`15m`, `1h`, any duration, or nothing: until it recovers); on a muted pane, unmute. It still probes and shows its state; an alert that fires meanwhile is said when the mute ends, if the pane still fails"),
        KeyHelpRow(
            .grid, [.commandLine], "a command: pane NAME, filter TEXT, reload [all], mute [15m], unmute, theme NAME, quit (Tab completes)",
            readme:
                "a command, as in k9s: `pane NAME` (choose it), `filter TEXT`, `reload`, `reload all`, `mute 15m` (the selected pane's alerts; `1h`, any duration, or nothing: until it recovers), `unmute`, `theme NAME` (dark, light, high-contrast, none, terminal; for this run), `quit`; Tab completes commands, pane names and themes",
            hint: "command"),
        KeyHelpRow(
            .grid, [.editConfig], "edit the config in $EDITOR; the dashboard reloads it after",
            readme:
                "open the config in `$EDITOR` (else `$VISUAL`, else `vi`); the dashboard comes back and reloads it (a config with problems keeps the running one and says why)",
            hint: "edit config"),
        KeyHelpRow(.grid, [.showHelp], "this help", readme: "help", hint: "help"),
        KeyHelpRow(.grid, [.quit], "quit", hint: "quit"),
        KeyHelpRow(.anywhere, [.suspend], "suspend; fg brings it back"),
        KeyHelpRow(.anywhere, [.interrupt], "quit"),
        KeyHelpRow(.zoom, [.close], "back to the grid", hint: "back"),
        KeyHelpRow(.zoom, [.scrollDown, .scrollUp], "scroll down / up", hint: "scroll"),
        KeyHelpRow(.zoom, [.pageDown, .pageUp], "a page down / up"),
        KeyHelpRow(.zoom, [.top, .bottom], "top / bottom"),
        KeyHelpRow(
            .zoom, ZoomView.allCases.map { .zoomView($0) }, "views: data, response, request, timing, error, changes",
            readme:
                "the zoom's views: data, response (status line, headers, body), request (method, URL as written and as sent, headers, body), timing (DNS, connect, TLS, first byte, total; p50/p95/max, uptime), error (message, since when, cause, error body), changes (what changed in each new answer and when: JSON paths with old → new values, text lines)"
        ),
        KeyHelpRow(.zoom, [.nextZoomView, .previousZoomView], "next / previous view"),
        KeyHelpRow(
            .zoom, [.search], "search the view", readme: "search the view (table rows, fields, lines); matches highlighted", hint: "search"),
        KeyHelpRow(
            .zoom, [.searchNext, .searchPrevious], "next / previous match (3/17 in the footer)",
            readme: "next and previous match, round the end (the footer says which of how many)", hint: "next/previous"),
        KeyHelpRow(
            .zoomTable, [.sortColumn], "sort by the first column ▲ ▼, then the next column…",
            readme: "sort by the first column ▲, ▼, then the next column…, then as listed (numbers as numbers, missing values last); clicking a column's header sorts by it",
            hint: "sort", hintActions: [.sortColumn, .sortPreviousColumn, .sortNextColumn], hintJoin: " "),
        KeyHelpRow(.zoomTable, [.sortPreviousColumn, .sortNextColumn], "sort by the column to the left / right"),
        KeyHelpRow(.events, [.close, .showEvents], "back to the grid", hint: "close"),
        KeyHelpRow(.events, [.scrollDown, .scrollUp], "scroll down (newer) / up (older)", hint: "scroll"),
        KeyHelpRow(.events, [.pageDown, .pageUp], "a page down / up"),
        KeyHelpRow(.events, [.top, .bottom], "oldest / newest"),
        KeyHelpRow(.events, [.filterEvents], "filter the events", hint: "filter"),
        KeyHelpRow(.events, [.eventsOfThisPaneOnly], "the selected pane's events only / all panes", hint: "this pane only"),
        KeyHelpRow(.events, [.toggleRequestedEvents], "show / hide Requested lines", hint: "show requests"),
    ]
}
