import Foundation
import Glibc
import HammockHarness
import TerminalUI
import Testing

/// The terminal layer in a real terminal: `terminal-demo` under tmux at a fixed size.
@Suite(.serialized, .enabled(if: TmuxHarness.tmuxAvailable, "tmux is not installed; the end-to-end terminal tests need it"))
struct EndToEndTests {
    let binary = TmuxHarness.binDirectory.appendingPathComponent("terminal-demo").path

    @Test func drawsTypesResizesAndRestoresTheTerminalOnQuit() throws {
        let tmux = try TmuxHarness(command: "'\(binary)'", columns: 80, rows: 24)
        try tmux.waitForFrame(size: "80x24")
        let first = try tmux.capture()
        #expect(first[0].hasPrefix("terminal-demo 80x24"))
        #expect(first[1].hasPrefix("┌ Keys ─") && first[1].hasSuffix("日本語 ✓ ┐"))
        #expect(first.contains { $0.contains("wide     日本語テキスト 🚀") })
        #expect(first.contains { $0.contains("hostile  ␛]0;pwned␇␛[2J") }, "escape sequences from data are shown, not obeyed")

        try tmux.sendKeys("x", "Up", "F5", "Tab", "NPage", "Home", "é")
        _ = try tmux.waitForScreen("the typed keys") { $0.contains { $0.contains("keys: x Up F5 Tab PgDn Home é") } }

        try tmux.resize(columns: 50, rows: 12)
        try tmux.waitForFrame(size: "50x12")
        let small = try tmux.capture()
        #expect(small[0].hasPrefix("terminal-demo 50x12"))
        #expect(DisplayWidth.of(small[1]) == 50 && small[1].hasSuffix("┐"))
        #expect(small[11].hasPrefix("q quit"))

        try tmux.sendKeys("q")
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit 0 icanon echo")
    }

    @Test func joinedEmojiNeverPushARowPastItsPane() throws {
        let tmux = try TmuxHarness(command: "'\(binary)'", columns: 80, rows: 24)
        try tmux.waitForFrame(size: "80x24")
        let screen = try tmux.capture()
        let joined = try #require(screen.first { $0.contains("joined") })
        #expect(joined.contains("👨👩👧 👍 ❤ 1⃣ end"), "each emoji stands alone: \(joined)")
        for line in screen where line.hasPrefix("│") {
            #expect(line.hasSuffix("│"), "the right border stays in its column: \(line)")
        }
    }

    @Test func noColorMeansNoColour() throws {
        let tmux = try TmuxHarness(command: "NO_COLOR=1 '\(binary)'", columns: 80, rows: 24)
        try tmux.waitForFrame(size: "80x24")
        _ = try tmux.waitForScreen("the green sparkline") { $0.contains { $0.contains("█") } }
        #expect(try Self.colourCodes(tmux.tmux(["capture-pane", "-p", "-e", "-t", "e2e"])).isEmpty, "no colour, bold and reverse still")
        // (The test runner itself may run with NO_COLOR set.)
        let coloured = try TmuxHarness(command: "env -u NO_COLOR '\(binary)'", columns: 80, rows: 24)
        try coloured.waitForFrame(size: "80x24")
        _ = try coloured.waitForScreen("the green sparkline") { $0.contains { $0.contains("█") } }
        let colourful = try coloured.tmux(["capture-pane", "-p", "-e", "-t", "e2e"])
        #expect(!Self.colourCodes(colourful).isEmpty, "and colours without it")
    }

    /// The SGR parameters in `text` that set a colour (30–37, 38, 40–47, 48, 90–97, 100–107).
    static func colourCodes(_ text: String) -> [Int] {
        var codes: [Int] = []
        for sequence in text.split(separator: "\u{1B}").dropFirst() where sequence.hasPrefix("[") {
            guard let end = sequence.firstIndex(of: "m") else { continue }
            let parameters = sequence[sequence.index(after: sequence.startIndex)..<end].split(separator: ";").compactMap { Int($0) }
            codes += parameters.filter { (30...38).contains($0) || (40...48).contains($0) || (90...97).contains($0) || (100...107).contains($0) }
        }
        return codes
    }

    @Test func aTerminalThatCannotMoveTheCursorIsRefusedWithAReason() throws {
        let tmux = try TmuxHarness(command: "TERM=dumb '\(binary)' 2>\"$HAMMOCK_FRAME_FIFO\"")
        let message = try tmux.waitForLine("the error message") { $0.hasPrefix("terminal-demo:") }
        #expect(message.contains(#"terminal type "dumb" cannot move the cursor"#))
        #expect(try tmux.waitForExit() == "exit 1 icanon echo")
    }

    @Test func oddBytesOnStdinNeverEndInput() throws {
        let tmux = try TmuxHarness(command: "'\(binary)'", columns: 80, rows: 24)
        try tmux.waitForFrame(size: "80x24")
        // An invalid byte, a stray continuation byte, and é in two writes some time apart.
        try tmux.tmux(["send-keys", "-t", "e2e", "-H", "ff"])
        try tmux.tmux(["send-keys", "-t", "e2e", "-H", "80"])
        try tmux.tmux(["send-keys", "-t", "e2e", "-H", "c3"])
        _ = try? tmux.waitForLine(timeout: 0.1, "nothing; the second half comes later") { _ in false }
        try tmux.tmux(["send-keys", "-t", "e2e", "-H", "a9"])
        try tmux.sendKeys("x")
        _ = try tmux.waitForScreen("é and x, still running") { $0.contains { $0.contains("keys: é x") } }
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == "exit 0 icanon echo")
    }

    @Test(arguments: [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)])
    func signalsRestoreTheTerminal(signal: Int32, status: Int) throws {
        let tmux = try TmuxHarness(command: "'\(binary)'")
        let pid = try tmux.waitForFrame(size: "80x24")
        #expect(pid > 0)
        kill(pid, signal)
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit \(status) icanon echo")
    }

    /// The pane's modes after the program ended: alternate screen, cursor, keypad.
    private func modes(_ tmux: TmuxHarness) throws -> String {
        try tmux.tmux(["display", "-p", "-t", "e2e", "alternate #{alternate_on} cursor #{cursor_flag} keypad #{keypad_cursor_flag}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGSYS])
    func everyFatalSignalRestoresTheTerminal(signal: Int32) throws {
        let tmux = try TmuxHarness(command: "SWIFT_BACKTRACE=enable=no '\(binary)'")
        let pid = try tmux.waitForFrame(size: "80x24")
        #expect(try modes(tmux) == "alternate 1 cursor 0 keypad 1", "curses mode is on to begin with")
        kill(pid, signal)
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit \(128 + signal) icanon echo", "signal \(signal) ended it as it would have, with the modes back")
        #expect(try modes(tmux) == "alternate 0 cursor 1 keypad 0", "signal \(signal)")
    }

    @Test func aSwiftTrapRestoresTheTerminal() throws {
        let tmux = try TmuxHarness(command: "SWIFT_BACKTRACE=enable=no '\(binary)' 2>/dev/null")
        try tmux.waitForFrame(size: "80x24")
        try tmux.sendKeys("T")
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit \(128 + SIGILL) icanon echo" || exitLine == "exit \(128 + SIGTRAP) icanon echo", "\(exitLine)")
        #expect(try modes(tmux) == "alternate 0 cursor 1 keypad 0")
    }

    @Test func anErrorThrownInTheAppRestoresTheTerminal() throws {
        let tmux = try TmuxHarness(command: "'\(binary)' 2>\"$HAMMOCK_FRAME_FIFO\"")
        try tmux.waitForFrame(size: "80x24")
        try tmux.sendKeys("!")
        #expect(try tmux.waitForLine("the error message") { $0.hasPrefix("terminal-demo:") } == "terminal-demo: simulated failure (the ! key)")
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit 70 icanon echo")
    }

    @Test(arguments: ["xterm-256color", "screen", "tmux-256color", "linux", "vt100"])
    func worksWithTheTerminalTypesUsersHave(term: String) throws {
        let tmux = try TmuxHarness(command: "TERM=\(term) '\(binary)'", columns: 60, rows: 12)
        try tmux.waitForFrame(size: "60x12")
        let screen = try tmux.capture()
        #expect(screen[0].hasPrefix("terminal-demo 60x12"))
        #expect(screen.contains { $0.contains("日本語テキスト") })
        try tmux.sendKeys("q")
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit 0 icanon echo")
    }

    /// Whether `strace` is here and may trace a child (a container can forbid it).
    static let canTrace: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return false }
        return (try? ProcessRunner.captureBlocking(["/usr/bin/strace", "-qq", "-o", "/dev/null", "/bin/true"], timeout: 30).status) == 0
    }()

    /// A frame reaches the terminal in one write. Until a screen has once been through endwin,
    /// ncurses writes its buffer out at every cursor movement: a frame that changes two rows went
    /// out in three writes, a dashboard's frame in 50 to 80, each a system call and a moment
    /// where the terminal shows half a frame.
    @Test(.enabled(if: EndToEndTests.canTrace, "strace is missing or may not trace here"))
    func aFrameGoesToTheTerminalInOneWrite() throws {
        let trace = ScratchDirectory.path("strace") + ".log"
        defer { unlink(trace) }
        let tmux = try TmuxHarness(command: "strace -f -qq -e trace=write -e signal=none -o '\(trace)' '\(binary)'")
        try tmux.waitForFrame(size: "80x24")
        // Each key changes two rows: the header's frame count and the keys line.
        for key in ["a", "b", "c", "d", "e"] {
            try tmux.sendKeys(key)
            _ = try tmux.waitForLine("the frame for \(key)") { $0.hasPrefix("frame ") }
        }
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == "exit 0 icanon echo")
        // Writes to the terminal between one frame's report on the FIFO and the next.
        var writesPerFrame: [Int] = []
        for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
            if line.contains("write(1, "), !writesPerFrame.isEmpty { writesPerFrame[writesPerFrame.count - 1] += 1 }
            if line.contains("\"frame ") { writesPerFrame.append(0) }
        }
        // The first report follows the first frame; then come the five keys' frames.
        #expect(writesPerFrame.count >= 6, "\(writesPerFrame)")
        #expect(writesPerFrame.prefix(5) == [1, 1, 1, 1, 1], "writes per frame: \(writesPerFrame)")
    }

    /// Started at 100×30 and grown to 120×40, as a user drags a window larger: however it leaves
    /// (`q`, a signal, a crash, Ctrl-Z), nothing of its screen stays in view or in the scrollback.
    /// tmux narrows the alternate screen back to 100 columns on the way out, and a full-width
    /// line of 120 that no longer fit went into the scrollback, then back into view.
    @Test(arguments: ["q", "SIGTERM", "SIGABRT", "C-z"])
    func leavingAfterAResizeLeavesNoTrace(how: String) throws {
        let tmux = try TmuxHarness(command: "SWIFT_BACKTRACE=enable=no '\(binary)' 2>/dev/null", columns: 100, rows: 30)
        let pid = try tmux.waitForFrame(size: "100x30")
        try tmux.resize(columns: 120, rows: 40)
        try tmux.waitForFrame(size: "120x40")
        switch how {
        case "SIGTERM": kill(pid, SIGTERM)
        case "SIGABRT": kill(pid, SIGABRT)
        default: try tmux.sendKeys(how)
        }
        if how == "C-z" {
            try waitForState(pid, "T", in: tmux)
        } else {
            _ = try tmux.waitForExit()
        }
        let everything = try tmux.tmux(["capture-pane", "-p", "-S", "-500", "-t", "e2e"])
        // Any of its lines has a box's side; the shell's own lines (which name the program when it
        // is killed: "Aborted … terminal-demo") have none.
        #expect(!everything.contains("│") && !everything.contains("terminal-demo 1"), "after \(how):\n\(everything)")
        if how == "C-z" { kill(pid, SIGKILL) }
    }

    /// Mouse reporting is on while the screen is (SGR reports decoded into clicks), and off
    /// whenever it is left: a quit, a crash, a suspend. A shell must never get mouse reports.
    @Test(arguments: ["q", "SIGABRT", "C-z"])
    func mouseReportingIsOnOnlyWhileTheScreenIs(how: String) throws {
        let tmux = try TmuxHarness(command: "SWIFT_BACKTRACE=enable=no '\(binary)' --mouse 2>/dev/null")
        let pid = try tmux.waitForFrame(size: "80x24")
        func mouseModes() throws -> String {
            try tmux.tmux(["display", "-p", "-t", "e2e", "#{mouse_standard_flag} #{mouse_sgr_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try mouseModes() == "1 1")
        // A left click at column 5, row 3 (1-based), as a terminal reports it.
        try tmux.tmux(["send-keys", "-t", "e2e", "-H", "1b", "5b", "3c", "30", "3b", "35", "3b", "33", "4d"])
        _ = try tmux.waitForScreen("the click") { $0.contains { $0.contains("Click0@4,2") } }
        switch how {
        case "SIGABRT": kill(pid, SIGABRT)
        default: try tmux.sendKeys(how)
        }
        if how == "C-z" {
            try waitForState(pid, "T", in: tmux)
            #expect(try mouseModes() == "0 0", "off while suspended")
            kill(pid, SIGCONT)
            _ = try tmux.waitForScreen("the screen again") { $0.first?.hasPrefix("terminal-demo") == true }
            #expect(try mouseModes() == "1 1", "on again after resuming")
            try tmux.sendKeys("q")
        }
        _ = try tmux.waitForExit()
        #expect(try mouseModes() == "0 0", "off after \(how)")
    }

    @Test func ctrlCIsAKeyThatQuits() throws {
        let tmux = try TmuxHarness(command: "'\(binary)'")
        try tmux.waitForFrame(size: "80x24")
        try tmux.sendKeys("C-c")
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit 130 icanon echo")
    }

    @Test func ctrlZSuspendsAndResumeRedrawsEverything() throws {
        let tmux = try TmuxHarness(command: "'\(binary)'")
        let pid = try tmux.waitForFrame(size: "80x24")
        try tmux.sendKeys("C-z")
        // A stopped process has no event to wait on: check its state, bounded.
        let deadline = Date().addingTimeInterval(10)
        while Self.state(of: pid) != "T" {
            guard Date() < deadline else { throw TmuxHarness.Failure(description: "process did not stop") }
            _ = try? tmux.waitForLine(timeout: 0.05, "nothing") { _ in false }
        }
        let suspended = try tmux.capture()
        #expect(!suspended.contains { $0.contains("terminal-demo") }, "curses mode was left while suspended")
        kill(pid, SIGCONT)
        _ = try tmux.waitForScreen("the redrawn screen after resume") { $0.first?.hasPrefix("terminal-demo 80x24") == true }
        #expect(try modes(tmux) == "alternate 1 cursor 0 keypad 1", "every mode is back, the keypad's too")
        try tmux.sendKeys("q")
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit 0 icanon echo")
    }

    /// Waits (bounded) until `pid` is in the state `want` (`T`: stopped).
    private func waitForState(_ pid: pid_t, _ want: String, in tmux: TmuxHarness) throws {
        let deadline = Date().addingTimeInterval(10)
        while Self.state(of: pid) != want {
            guard Date() < deadline else { throw TmuxHarness.Failure(description: "process did not reach state \(want)") }
            _ = try? tmux.waitForLine(timeout: 0.05, "nothing") { _ in false }
        }
    }

    /// A stray SIGPIPE does not end it with the terminal in curses mode: it is ignored.
    @Test func aStrayPipeSignalIsIgnored() throws {
        let tmux = try TmuxHarness(command: "'\(binary)'")
        let pid = try tmux.waitForFrame(size: "80x24")
        kill(pid, SIGPIPE)
        try tmux.sendKeys("a")
        _ = try tmux.waitForScreen("a frame after SIGPIPE") { $0.contains { $0.contains("a") && $0.contains("keys") } }
        #expect(try modes(tmux) == "alternate 1 cursor 0 keypad 1")
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == "exit 0 icanon echo")
    }

    /// Stopped for touching the terminal from the background (SIGTTOU, SIGTTIN), it gives the
    /// terminal back first, as Ctrl-Z does, and draws everything again when continued.
    @Test(arguments: [SIGTTOU, SIGTTIN])
    func aBackgroundStopRestoresTheTerminal(signal: Int32) throws {
        let tmux = try TmuxHarness(command: "'\(binary)'")
        let pid = try tmux.waitForFrame(size: "80x24")
        kill(pid, signal)
        try waitForState(pid, "T", in: tmux)
        #expect(try modes(tmux) == "alternate 0 cursor 1 keypad 0", "the terminal is the shell's while it is stopped")
        kill(pid, SIGCONT)
        _ = try tmux.waitForScreen("the redrawn screen") { $0.first?.hasPrefix("terminal-demo 80x24") == true }
        #expect(try modes(tmux) == "alternate 1 cursor 0 keypad 1")
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == "exit 0 icanon echo")
    }

    /// Stopped and continued from outside (SIGSTOP, SIGCONT), it draws the whole screen again:
    /// whatever was written to the terminal meanwhile is gone.
    @Test func anOutsideStopAndContinueRepaints() throws {
        let tmux = try TmuxHarness(command: "'\(binary)'")
        let pid = try tmux.waitForFrame(size: "80x24")
        kill(pid, SIGSTOP)
        try waitForState(pid, "T", in: tmux)
        let tty = try tmux.tmux(["display", "-p", "-t", "e2e", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let fd = open(tty, O_WRONLY | O_NOCTTY)
        #expect(fd >= 0)
        let garbage = "\u{1B}[2J\u{1B}[Hscribbled over"
        _ = garbage.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        _ = try tmux.waitForScreen("the scribble") { $0.first?.hasPrefix("scribbled over") == true }
        kill(pid, SIGCONT)
        _ = try tmux.waitForScreen("the repainted screen") { $0.first?.hasPrefix("terminal-demo 80x24") == true && !$0.joined().contains("scribbled") }
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == "exit 0 icanon echo")
    }

    @Test func anUnknownTerminalTypeFailsCleanly() throws {
        let tmux = try TmuxHarness(command: "TERM=no-such-terminal '\(binary)' 2>\"$HAMMOCK_FRAME_FIFO\"")
        let message = try tmux.waitForLine("the error message") { $0.hasPrefix("terminal-demo:") }
        #expect(message == #"terminal-demo: cannot use terminal type "no-such-terminal"; set TERM to a type this system knows, e.g. xterm-256color"#)
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit 1 icanon echo")
    }

    @Test func refusesToRunWithoutATerminal() throws {
        let outcome = try ProcessRunner.captureBlocking([binary], timeout: 20)
        #expect(outcome.status == 1)
        #expect(outcome.errors == "terminal-demo: standard input and output must be a terminal\n")
    }

    private static func state(of pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
    }
}
