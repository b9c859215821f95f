import Foundation
import Glibc
import HammockHarness
import Testing

/// `hammock demo` in a real terminal under tmux.
@Suite(.serialized, .enabled(if: TmuxHarness.tmuxAvailable, "tmux is not installed; the end-to-end dashboard test needs it"))
struct DemoEndToEndTests {
    @Test func demoShowsDataTakesKeysResizesAndRestoresTheTerminal() throws {
        let tmux = try TmuxHarness(
            command: "cd '\(CLITests.repository.path)' && '\(CLITests.binary)' demo", columns: 100, rows: 30,
            environment: ["no_proxy": "127.0.0.1,localhost", "XDG_CACHE_HOME": ScratchDirectory.path("e2e-cache")])
        var screen = try tmux.waitForScreen("the demo's data") { lines in
            lines.contains { $0.contains("status   UP") } && lines.contains { $0.contains("Payment gateway unavailable") }
        }
        #expect(screen[0].hasPrefix(" Demo Shop API · demo.yaml · 8 panes"))
        #expect(screen.last?.hasPrefix(" Demo: Payments, Flaky and Slow report fail on purpose · ? explains the symbols") == true, "\(screen)")
        #expect(screen.contains { $0.contains("┌ ▸ Health") })

        try tmux.sendKeys("j")
        screen = try tmux.waitForScreen("Payments selected, the footer offering retry") { lines in
            lines.contains { $0.contains("┌ ▸ Payments") } && lines.last?.contains("t retry") == true
        }
        try tmux.sendKeys("t", "e")
        screen = try tmux.waitForScreen("the event log") { lines in
            lines.contains { $0.contains("Events (latest last)") } && lines.contains { $0.contains("failed: 503 Payment gateway unavailable") }
        }
        try tmux.sendKeys("Escape", "Enter")
        screen = try tmux.waitForScreen("the zoomed pane") { $0.last?.contains("[1 data]") == true }
        #expect(screen[1].hasPrefix("┌ Payments"))
        try tmux.sendKeys("Escape")

        try tmux.resize(columns: 60, rows: 20)
        try tmux.waitForFrame(size: "60x20")
        screen = try tmux.waitForScreen("the smaller layout") { $0.first?.hasPrefix(" Demo Shop API") == true && $0.count >= 20 }
        #expect(screen.prefix(20).allSatisfy { $0.count <= 60 })

        try tmux.sendKeys("q")
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit 0 icanon echo")
    }

    /// At 40×12 the demo's eight panes are a list: a key moves one row, `G`/`g` the last and
    /// first, and `q` closes the zoom and the help before it quits.
    @Test func theListMovesOneRowAndQGoesBackBeforeItQuits() throws {
        let tmux = try TmuxHarness(
            command: "cd '\(CLITests.repository.path)' && '\(CLITests.binary)' demo", columns: 40, rows: 12,
            environment: ["no_proxy": "127.0.0.1,localhost", "XDG_CACHE_HOME": ScratchDirectory.path("e2e-cache")])
        func selectedRow(_ lines: [String]) -> String? { lines.first { $0.hasPrefix("▸") } }
        var screen = try tmux.waitForScreen("the list") { selectedRow($0)?.contains("Health") == true }
        let titles = screen.dropFirst().prefix(10).map { $0.dropFirst(4).split(separator: " ").first.map(String.init) ?? "" }
        try tmux.sendKeys("j")
        screen = try tmux.waitForScreen("the second row selected") { selectedRow($0)?.contains(titles[1]) == true }
        try tmux.sendKeys("Down")
        screen = try tmux.waitForScreen("the third row selected") { selectedRow($0)?.contains(titles[2]) == true }
        try tmux.sendKeys("G")
        screen = try tmux.waitForScreen("the last pane selected") { selectedRow($0)?.contains("Failed searches") == true }
        try tmux.sendKeys("g")
        screen = try tmux.waitForScreen("the first pane selected") { selectedRow($0)?.contains("Health") == true }

        try tmux.sendKeys("Enter")
        screen = try tmux.waitForScreen("the zoom") { $0.last?.contains("[1 data]") == true }
        try tmux.sendKeys("q")
        screen = try tmux.waitForScreen("the list again") { selectedRow($0)?.contains("Health") == true }
        try tmux.sendKeys("?")
        screen = try tmux.waitForScreen("the help") { $0.contains { $0.contains("Keys") } }
        try tmux.sendKeys("q")
        screen = try tmux.waitForScreen("the list after the help") { lines in
            selectedRow(lines)?.contains("Health") == true && !lines.contains { $0.contains("Keys") }
        }
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == "exit 0 icanon echo")
    }

    /// A user's keys.yaml (under `XDG_CONFIG_HOME`) remaps the real program's keys, and the
    /// greeting, the footer, the error's button and the help all name the keys as they are.
    @Test func keysYamlRemapsTheKeysAndTheScreenSaysSo() throws {
        let home = ScratchDirectory.path("e2e-keys")
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/hammock", withIntermediateDirectories: true)
        try "reload: x\nretry: T\nhelp: H\nquit: Q\nback: [b, esc]\n".write(toFile: home + "/hammock/keys.yaml", atomically: true, encoding: .utf8)
        let tmux = try TmuxHarness(
            command: "cd '\(CLITests.repository.path)' && '\(CLITests.binary)' demo", columns: 100, rows: 30,
            environment: ["no_proxy": "127.0.0.1,localhost", "XDG_CACHE_HOME": ScratchDirectory.path("e2e-cache"), "XDG_CONFIG_HOME": home])
        var screen = try tmux.waitForScreen("the demo, with its failures") { lines in
            lines.contains { $0.contains("[T] Try again") } && lines.contains { $0.contains("status   UP") }
        }
        #expect(screen.last?.hasPrefix(" Demo: Payments, Flaky and Slow report fail on purpose · H explains the symbols") == true, "\(screen)")
        #expect(screen[0].trimmingCharacters(in: .whitespaces).hasSuffix("H help"), "\(screen[0])")
        try tmux.sendKeys("H")
        screen = try tmux.waitForScreen("the help with the keys as they are") { $0.contains { $0.contains("x             reload the selected pane") } }
        #expect(screen.contains { $0.contains("T             retry a failed pane") })
        // q no longer closes the help (were it to, H would open it again): H, its own key, does.
        try tmux.sendKeys("q", "H")
        screen = try tmux.waitForScreen("the grid, its footer naming x") { lines in
            lines.last?.contains("x reload") == true && !lines.contains { $0.contains("┌ Keys") }
        }
        try tmux.sendKeys("Enter")
        screen = try tmux.waitForScreen("the zoom, b its way back") { $0.last?.trimmingCharacters(in: .whitespaces).hasSuffix("b back") == true }
        try tmux.sendKeys("b", "q")
        screen = try tmux.waitForScreen("the grid again, q not quitting") { $0.last?.contains("x reload") == true }
        try tmux.sendKeys("Q")
        #expect(try tmux.waitForExit() == "exit 0 icanon echo")
    }

    /// Mouse reporting is on in the dashboard unless `--no-mouse` (then the terminal keeps the
    /// mouse for selecting text), and off again once it quits.
    @Test(arguments: [[], ["--no-mouse"]])
    func theMouseIsTheDashboardsUnlessNoMouse(flags: [String]) throws {
        let tmux = try TmuxHarness(
            command: "cd '\(CLITests.repository.path)' && '\(CLITests.binary)' demo \(flags.joined(separator: " "))", columns: 100, rows: 30,
            environment: ["no_proxy": "127.0.0.1,localhost", "XDG_CACHE_HOME": ScratchDirectory.path("e2e-cache")])
        _ = try tmux.waitForScreen("the demo") { $0.first?.hasPrefix(" Demo Shop API") == true }
        func mouse() throws -> String {
            try tmux.tmux(["display", "-p", "-t", "e2e", "#{mouse_standard_flag}#{mouse_sgr_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try mouse() == (flags.isEmpty ? "11" : "00"))
        if flags.isEmpty {
            // A double click on the Payments pane zooms it.
            let screen = try tmux.capture()
            let y = try #require(screen.firstIndex { $0.contains("Payments") })
            let x = try #require(screen[y].range(of: "Payments")).lowerBound.utf16Offset(in: screen[y]) + 1
            let report = Array("\u{1B}[<0;\(x + 1);\(y + 1)M".utf8).map { String(format: "%02x", $0) }
            try tmux.tmux(["send-keys", "-t", "e2e", "-H"] + report + report)
            _ = try tmux.waitForScreen("Payments zoomed") { $0.last?.contains("[1 data]") == true && $0[1].contains("Payments") }
        }
        try tmux.sendKeys("q", "q")
        _ = try tmux.waitForExit()
        #expect(try mouse() == "00")
    }

    /// The header's clock is the system's local time as the C library reads it: `TZ` here, a
    /// POSIX rule (no zone files needed) for UTC+5:45.
    @Test func theHeaderClockFollowsTZ() throws {
        let tmux = try TmuxHarness(
            command: "cd '\(CLITests.repository.path)' && '\(CLITests.binary)' demo", columns: 100, rows: 30,
            environment: ["TZ": "XYZ-5:45", "no_proxy": "127.0.0.1,localhost",
                          "XDG_CACHE_HOME": ScratchDirectory.path("e2e-cache")])
        let before = Date()
        let screen = try tmux.waitForScreen("the header") { $0.first?.hasSuffix("? help") == true }
        let after = Date()
        try tmux.sendKeys("q")
        _ = try tmux.waitForExit()
        let zone = TimeZone(secondsFromGMT: 5 * 3600 + 45 * 60)!
        let expected = Set([before, after].map { LocalTimeText.clock($0, zone) })
        let words: [String] = screen[0].split(separator: " ").map(String.init)
        let shown = words.first { $0.count == 5 && $0.dropFirst(2).first == ":" }
        #expect(shown.map(expected.contains) == true, "header \(screen[0]) shows one of \(expected)")
    }

    @Test(arguments: [SIGQUIT, SIGSEGV, SIGUSR1])
    func aFatalSignalRestoresTheTerminalToo(signal: Int32) throws {
        let tmux = try TmuxHarness(
            command: "cd '\(CLITests.repository.path)' && SWIFT_BACKTRACE=enable=no '\(CLITests.binary)' demo 2>/dev/null", columns: 80, rows: 24,
            environment: ["no_proxy": "127.0.0.1,localhost", "XDG_CACHE_HOME": ScratchDirectory.path("e2e-cache")])
        let pid = try tmux.waitForFrame(size: "80x24")
        kill(pid, signal)
        #expect(try tmux.waitForExit() == "exit \(128 + signal) icanon echo")
        let modes = try tmux.tmux(["display", "-p", "-t", "e2e", "#{alternate_on} #{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(modes == "0 1", "the normal screen and a visible cursor")
    }

    @Test func sigtermWhileRunningRestoresTheTerminal() throws {
        let tmux = try TmuxHarness(
            command: "cd '\(CLITests.repository.path)' && '\(CLITests.binary)' demo", columns: 80, rows: 24,
            environment: ["no_proxy": "127.0.0.1,localhost", "XDG_CACHE_HOME": ScratchDirectory.path("e2e-cache")])
        let pid = try tmux.waitForFrame(size: "80x24")
        kill(pid, SIGTERM)
        let exitLine = try tmux.waitForExit()
        #expect(exitLine == "exit 143 icanon echo")
    }
}

/// Whatever the pane count, `q` and SIGTERM work at every moment, start-up included.
@Suite(.serialized, .enabled(if: TmuxHarness.tmuxAvailable, "needs tmux"))
struct StartUpAtScaleEndToEndTests {
    private func bigConfig(panes: Int) throws -> String {
        // A port nothing listens on: every load fails fast, and there are ten thousand of them.
        var yaml = "service:\n  baseURL: http://127.0.0.1:1/\npanes:\n"
        for i in 0..<panes { yaml += "  - { title: P\(i), resource: /p/\(i), every: 1s }\n" }
        let path = ScratchDirectory.path("big", extension: ".yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func start(_ config: String) throws -> (TmuxHarness, pid_t) {
        let tmux = try TmuxHarness(
            command: "'\(CLITests.binary)' '\(config)' --no-cache", columns: 120, rows: 40, environment: ["no_proxy": "127.0.0.1,localhost"])
        return (tmux, try tmux.waitForFrame(size: "120x40"))
    }

    @Test func qQuitsWhileTenThousandPanesStartLoading() throws {
        let (tmux, _) = try start(try bigConfig(panes: 10_000))
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == "exit 0 icanon echo")
    }

    @Test func sigtermEndsItWhileTenThousandPanesStartLoading() throws {
        let (tmux, pid) = try start(try bigConfig(panes: 10_000))
        kill(pid, SIGTERM)
        #expect(try tmux.waitForExit() == "exit 143 icanon echo")
    }
}

/// "HH:MM" of a date in a zone, through Foundation's calendar (what the test trusts).
enum LocalTimeText {
    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
