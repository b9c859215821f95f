import CNCursesW
import CTerminalRestore
import Dispatch
import Glibc
import TerminalUI

/// Owns the terminal from start to exit: curses mode, input, signals, suspend, and restoring the
/// terminal on every way out.
///
/// Nothing blocks the main thread. Keys arrive through a dispatch read source on stdin whose bytes
/// `InputDecoder` turns into keys; SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP and SIGCONT through a
/// `SignalPipe`. All of it is delivered on the main actor as `TerminalEvent`s. The terminal is
/// restored by `shutdown()`, by an `atexit` hook, and before every quit the app makes after a signal.
@MainActor
public final class TerminalSession {
    /// Why a session could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    public let backend: CursesBackend
    private let screen: OpaquePointer
    private var inputSource: (any DispatchSourceRead)?
    private var signals: SignalPipe?
    private var handler: (@MainActor (TerminalEvent) -> Void)?
    private(set) var isShutDown = false
    private var decoder = InputDecoder()
    private var escapeTimer: DispatchWorkItem?

    /// Enters curses mode on the process's terminal; with `mouse`, clicks and the wheel arrive as
    /// `.mouse` keys (and the terminal's own selection needs Shift), until the screen is left.
    ///
    /// Throws (leaving the terminal untouched) when stdin or stdout is not a terminal or `TERM`
    /// names a terminal ncurses does not know.
    public init(mouse: Bool = false) throws {
        nc_want_mouse(mouse ? 1 : 0)
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw StartError(description: "standard input and output must be a terminal")
        }
        setlocale(LC_ALL, "")
        if nc_codeset_is_utf8() == 0 { setlocale(LC_ALL, "C.UTF-8") }
        // The modes to go back to if a fatal signal ends the process (see `armFatalSignals`).
        _ = tr_save_modes(STDIN_FILENO)
        // Signals are ignored before curses starts so ncurses installs no handlers of its own;
        // `start` installs ours.
        for sig in TerminalSession.handledSignals { signal(sig, SIG_IGN) }
        // A write to a closed pipe or socket must fail with EPIPE, never end the process with the
        // terminal in curses mode (nor may a stray SIGPIPE from outside).
        signal(SIGPIPE, SIG_IGN)
        guard let screen = nc_newterm_stdio() else {
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            throw StartError(description: "cannot use terminal type \"\(term)\"; set TERM to a type this system knows, e.g. xterm-256color")
        }
        self.screen = screen
        atexit(restoreTerminalAtExit)
        guard let window = nc_stdscr() else {
            nc_endwin_if_active()
            throw StartError(description: "ncurses gave no screen")
        }
        _ = raw()
        // Input is read from stdin by the session, never by ncurses: no typeahead checks that
        // would take bytes during a refresh.
        _ = typeahead(-1)
        _ = noecho()
        _ = nonl()
        _ = keypad(window, true)
        _ = nodelay(window, true)
        _ = curs_set(0)
        _ = set_escdelay(25)
        // A terminal that cannot put the cursor anywhere (TERM=dumb) would get a blank screen.
        guard nc_string_capability("cup") != nil else {
            nc_endwin_if_active()
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            throw StartError(description: "terminal type \"\(term)\" cannot move the cursor, and Hammock draws a full screen; use a cursor-addressable terminal (TERM=xterm-256color, screen, tmux…) or `hammock snapshot` for plain text")
        }
        var colors = false
        // https://no-color.org: any non-empty NO_COLOR means no colour.
        let noColor = getenv("NO_COLOR").map { String(cString: $0).isEmpty == false } ?? false
        if has_colors(), !noColor {
            _ = start_color()
            _ = use_default_colors()
            colors = true
        }
        // Until a screen has once been through endwin and back, ncurses writes its buffer out at
        // every cursor movement (newterm leaves it "initial"): a frame went out in 50–80 writes
        // of ~50 bytes, each a system call and a chance for the terminal to show half a frame.
        // The same way back as after Ctrl-Z, before anything is drawn.
        _ = endwin()
        TerminalSession.reenterCursesMode()
        backend = CursesBackend(window: window, colors: colors)
        TerminalSession.armFatalSignals()
    }

    /// Every signal that ends the process restores the terminal first (async-signal-safely, in C):
    /// SIGQUIT, SIGABRT, SIGSEGV, a Swift trap's SIGILL or SIGTRAP, SIGUSR1… The bytes that clear
    /// the screen (as `nc_leave_screen` does), leave the alternate screen, show the cursor and turn
    /// the keypad off come from terminfo now.
    private static func armFatalSignals() {
        var reset = ""
        reset += String(cString: nc_mouse_off_sequence())
        for capability in ["clear", "rmcup", "cnorm", "rmkx", "sgr0"] {
            if let value = nc_string_capability(capability) { reset += String(cString: value) }
        }
        let bytes = Array(reset.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = tr_arm(STDOUT_FILENO, $0.baseAddress, $0.count) }
        }
    }

    /// Starts delivering events to `handler` on the main actor.
    public func start(_ handler: @escaping @MainActor (TerminalEvent) -> Void) {
        self.handler = handler
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { @Sendable in MainActor.assumeIsolated { self.drainInput() } }
        input.resume()
        inputSource = input
        signals = SignalPipe(signals: TerminalSession.handledSignals) { [weak self] sig in self?.handleSignal(sig) }
    }

    static let handledSignals = [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGTTIN, SIGTTOU]

    /// True while curses mode is left for a stop (Ctrl-Z, SIGTTIN/SIGTTOU, a pager's).
    private var outOfCursesMode = false

    /// Leaves curses mode, stops the process until it is continued (Ctrl-Z), then comes back and
    /// reports `.resumed` so the app redraws everything. Continued in the background (`bg`), it
    /// leaves the terminal to the shell and stops again until it is the foreground job.
    public func suspend() {
        guard !isShutDown else { return }
        leaveCursesMode()
        raise(SIGSTOP)
        resumeWhenInForeground()
    }

    /// Restores the terminal for whoever has it next, writing even from the background
    /// (SIGTTOU blocked: restoring must not itself stop the process half-way).
    private func leaveCursesMode() {
        guard !outOfCursesMode else { return }
        outOfCursesMode = true
        var block = sigset_t()
        var previous = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTTOU)
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        nc_leave_screen()
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    /// True when this process's group has the terminal (it may draw there).
    private static var isForeground: Bool {
        tcgetpgrp(STDIN_FILENO) == getpgrp()
    }

    /// Back into curses mode once the process is the foreground job; stopped until then.
    private func resumeWhenInForeground() {
        while !TerminalSession.isForeground {
            raise(SIGSTOP)
        }
        outOfCursesMode = false
        resumeScreen()
    }

    /// Restores the terminal: cooked mode, echo, cursor, the normal screen. Safe to call twice.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        backend.isActive = false
        inputSource?.cancel()
        inputSource = nil
        nc_endwin_if_active()
        tr_disarm()
    }

    func resumeScreen() {
        var rows: Int32 = 0, cols: Int32 = 0
        if nc_window_size(STDOUT_FILENO, &rows, &cols) == 0 { _ = resizeterm(rows, cols) }
        TerminalSession.reenterCursesMode()
        handler?(.resumed)
    }

    /// Back from `endwin`: ncurses restores raw mode, the alternate screen and the cursor at the
    /// next `doupdate`, but not the keypad's application mode (leaving curses mode turned it off,
    /// and ncurses turns it back on only inside `wgetch`, which Hammock does not use).
    private static func reenterCursesMode() {
        _ = doupdate()
        if let window = nc_stdscr() { _ = keypad(window, true) }
        nc_mouse_reporting(1)
    }

    /// Reads what stdin holds and decodes it ourselves (not `wget_wch`, which took a byte that
    /// was not a whole character for the end of input). Only a read that returns nothing — a
    /// real end of file, or a terminal that hung up — ends input.
    private func drainInput() {
        guard !isShutDown else { return }
        let available = Int(nc_bytes_available(STDIN_FILENO))
        var buffer = [UInt8](repeating: 0, count: max(1, min(available, 65_536)))
        // Readable: bytes are there, or this read returns 0 (end of file) or fails (hang-up).
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return }
        guard count > 0 else {
            inputSource?.cancel()
            inputSource = nil
            handler?(.inputClosed)
            return
        }
        deliver(decoder.feed(buffer[0..<count]))
        escapeTimer?.cancel()
        if decoder.isWaitingForEscape {
            // A lone ESC is the Escape key unless a sequence follows at once.
            let timer = DispatchWorkItem { @Sendable in
                MainActor.assumeIsolated { self.deliver(self.decoder.flush()) }
            }
            escapeTimer = timer
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(25), execute: timer)
        }
    }

    private func deliver(_ keys: [KeyEvent]) {
        for key in keys {
            if isShutDown { return }
            handler?(.key(key))
        }
    }

    private func handleSignal(_ sig: Int32) {
        guard !isShutDown else { return }
        switch sig {
        case SIGWINCH:
            var rows: Int32 = 0, cols: Int32 = 0
            guard nc_window_size(STDOUT_FILENO, &rows, &cols) == 0 else { return }
            _ = resizeterm(rows, cols)
            handler?(.resize(Size(columns: Int(cols), rows: Int(rows))))
        case SIGTSTP, SIGTTIN, SIGTTOU:
            // Ctrl-Z, or touching the terminal from the background: the terminal goes back to
            // the shell in the state it was in before Hammock, then the process stops.
            suspend()
        case SIGCONT:
            // Continued after a stop Hammock did not make (SIGSTOP from outside): the terminal
            // may have been used meanwhile, so everything is drawn again.
            if !outOfCursesMode, TerminalSession.isForeground {
                resumeScreen()
            } else if outOfCursesMode, TerminalSession.isForeground {
                outOfCursesMode = false
                resumeScreen()
            }
        default:
            handler?(.signal(sig))
        }
    }
}

/// Restores the terminal at process exit.
///
/// A top-level function on purpose: a closure written inside the main-actor initialiser would be
/// inferred main-actor isolated, and `exit` may run it on any thread (that trapped once).
private func restoreTerminalAtExit() {
    nc_endwin_if_active()
}
