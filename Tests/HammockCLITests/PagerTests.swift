import Foundation
import HammockHarness
import Testing

/// `o` hands the terminal to `$PAGER` and takes it back: a stub pager records what it was given,
/// its signal state and whether it owned the terminal; the dashboard comes back whole.
@Suite(.serialized) struct PagerTests {
    @Test(.enabled(if: TmuxHarness.tmuxAvailable, "needs tmux"))
    func oPagesTheBodyAndTheScreenComesBack() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = ScratchDirectory.path("pager")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stub = directory + "/pager.sh"
        // grep reads its own status: what the pager started with (the shell's own mask is briefly
        // full while it forks).
        try """
            #!/bin/sh
            grep -E '^(SigBlk|SigIgn)' /proc/self/status > '\(directory)/signals.txt'
            awk '{ print ($5 == $8) ? "owns the terminal" : "does not own the terminal" }' /proc/$$/stat > '\(directory)/terminal.txt'
            echo "LESSSECURE=$LESSSECURE" > '\(directory)/environment.txt'
            # Ctrl-Z in the pager: it stops; the dashboard must not hang waiting for it.
            kill -TSTP $$
            cat > '\(directory)/body.tmp'
            mv '\(directory)/body.tmp' '\(directory)/body.txt'

            """.write(toFile: stub, atomically: true, encoding: .utf8)
        chmod(stub, 0o755)
        let config = SampleConfigTests.configDirectory.appendingPathComponent("health.yaml").path
        let tmux = try TmuxHarness(
            command: "'\(CLITests.binary)' '\(config)' --no-cache", columns: 100, rows: 24,
            environment: ["HAMMOCK_DEMO_URL": api.baseURL, "PAGER": stub, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        _ = try tmux.waitForScreen("the health pane's data") { $0.contains { $0.contains("version  3.2.1") } }
        try tmux.sendKeys("Enter")
        _ = try tmux.waitForScreen("the zoomed pane") { $0.last?.contains("[1 data]") == true }
        try tmux.sendKeys("o")
        let screen = try tmux.waitForScreen("the dashboard back after the pager") { lines in
            FileManager.default.fileExists(atPath: directory + "/body.txt")
                && lines.first?.contains("3 panes") == true && lines.last?.contains("[1 data]") == true
                && lines.contains { $0.contains("status") && $0.contains("UP") }
        }
        #expect(screen[1].hasPrefix("┌ Health"), "the whole screen is drawn again: \(screen.joined(separator: "\n"))")
        let body = try String(contentsOfFile: directory + "/body.txt", encoding: .utf8)
        #expect(body.hasPrefix("{\n  \"status\": \"UP\""), "the body, pretty: \(body)")
        let signals = try String(contentsOfFile: directory + "/signals.txt", encoding: .utf8)
        // SIGHUP to SIGSYS and the rest of the first 31 at their defaults; glibc keeps its own
        // signals (32, 33) out of reach of posix_spawn, so only the classic ones are asked about.
        let fields = Dictionary(uniqueKeysWithValues: signals.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t")
            return (String(parts[0]), UInt64(parts.last ?? "", radix: 16) ?? .max)
        })
        #expect(fields["SigBlk:"] == 0, "nothing blocked: \(signals)")
        #expect((fields["SigIgn:"] ?? .max) & 0x7FFF_FFFF == 0, "no classic signal ignored (the dashboard ignores SIGINT, SIGTSTP…): \(signals)")
        let terminal = try String(contentsOfFile: directory + "/terminal.txt", encoding: .utf8)
        #expect(terminal == "owns the terminal\n")
        let environment = try String(contentsOfFile: directory + "/environment.txt", encoding: .utf8)
        #expect(environment == "LESSSECURE=1\n", "less runs no shell command from the pager")
        try tmux.sendKeys("Escape", "q")
        #expect(try tmux.waitForExit().hasPrefix("exit 0"))
    }

    /// `E` hands the terminal to `$EDITOR` with the config's path (as `$1`, never spliced into a
    /// command), and the dashboard comes back with what the editor saved.
    @Test(.enabled(if: TmuxHarness.tmuxAvailable, "needs tmux"))
    func eEditsTheConfigAndTheDashboardReloadsIt() async throws {
        let directory = ScratchDirectory.path("editor")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/it's here.yaml"
        try "service: { baseURL: \"http://127.0.0.1:1/\" }\npanes:\n  - { title: First, resource: /a }\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let editor = directory + "/editor.sh"
        // An editor that adds a pane, as a user would type it, and says whether it had the terminal.
        try """
            #!/bin/sh
            [ -t 0 ] && echo "a terminal" > '\(directory)/stdin.txt'
            printf '  - { title: Added in the editor, resource: /b }\\n' >> "$1"

            """.write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let tmux = try TmuxHarness(
            command: "'\(CLITests.binary)' \"$CONFIG\" --no-cache", columns: 100, rows: 24,
            environment: ["CONFIG": config, "EDITOR": editor, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        _ = try tmux.waitForScreen("the first pane") { $0.contains { $0.contains("First") } }
        try tmux.sendKeys("E")
        let screen = try tmux.waitForScreen("the pane the editor added") { lines in
            lines.contains { $0.contains("Added in the editor") } && lines.first?.contains("2 panes") == true
        }
        #expect(screen.contains { $0.contains("┌") && $0.contains("First") })
        #expect((try? String(contentsOfFile: directory + "/stdin.txt", encoding: .utf8)) == "a terminal\n", "the editor reads the terminal")
        try tmux.sendKeys("q")
        _ = try tmux.waitForExit()
    }
}
