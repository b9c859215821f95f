import CleanSpawn
import CNCursesW
import Dispatch
import Glibc

extension TerminalSession {
    /// Hands the terminal to a pager reading `text` on its standard input, and takes it back when
    /// the pager exits (see `handOver`). Ctrl-C or a closed pipe is the user's way out of a pager,
    /// not a failure.
    ///
    /// Returns nil, or why the pager could not run or what it exited with.
    public func page(_ text: String, command: String, environment: [String]? = nil) -> String? {
        handOver(to: command, what: "the pager (\(command))", input: text, environment: environment, quietSignals: [SIGINT, SIGPIPE])
    }

    /// Hands the terminal to an editor (`$EDITOR FILE`) and takes it back when it exits (see
    /// `handOver`). The file's path is passed as the shell's `$1`, never spliced into the command.
    ///
    /// Returns nil, or why the editor could not run or what it exited with.
    public func edit(_ path: String, command: String, environment: [String]? = nil) -> String? {
        handOver(to: command + " \"$1\"", what: "the editor (\(command))", arguments: [path], environment: environment, quietSignals: [])
    }

    /// Leaves the screen, runs `command` (`/bin/sh -c`, so `$PAGER` or `$EDITOR` may carry options)
    /// in a process group of its own that owns the terminal, so Ctrl-C and Ctrl-Z reach it, not
    /// the dashboard; it starts with default signal handling and nothing blocked, reading `input`
    /// on its standard input when given, else the terminal. Then the screen comes back whole
    /// (`.resumed`).
    ///
    /// `environment` (`NAME=value` entries) is the program's; nil: Hammock's own.
    private func handOver(
        to command: String, what: String, arguments: [String] = [], input: String? = nil, environment: [String]?, quietSignals: [Int32]
    ) -> String? {
        guard !isShutDown else { return "no terminal" }
        var pipe: (read: Int32, write: Int32)?
        if input != nil {
            guard let made = try? CleanSpawn.pipe() else { return "cannot make a pipe for \(what)" }
            pipe = made
        }
        nc_leave_screen()
        defer { resumeScreen() }

        // `exec`: no shell stays between, to die of the Ctrl-C the program itself handles.
        let pid: pid_t
        do {
            defer { if let pipe { close(pipe.read) } }
            pid = try CleanSpawn.spawn(
                ["/bin/sh", "-c", "exec " + command, "hammock"] + arguments, environment: environment,
                stdin: pipe.map { .descriptor($0.read) } ?? .inherited, stdout: .inherited, stderr: .inherited, group: .newProcessGroup)
        } catch {
            if let pipe { close(pipe.write) }
            return "cannot start \(what): \(error)"
        }
        // Its group owns the terminal while it runs.
        TerminalSession.giveTerminal(to: pid)
        // Written from another thread: a program that reads slowly (or never) must not block this one.
        let writer = DispatchQueue(label: "hammock.handover-writer")
        if let pipe, let input {
            let writeEnd = pipe.write
            let bytes = Array(input.utf8)
            writer.async {
                // A program that quits early makes the write fail with EPIPE, not end the process.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                    if written < 0, errno == EINTR { continue }
                    if written <= 0 { break }
                    offset += written
                }
                close(writeEnd)
            }
        }
        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, WUNTRACED)
            if waited == -1, errno == EINTR { continue }
            // Stopped (it read the terminal before owning it, or Ctrl-Z): give it the terminal, go on.
            if waited == pid, (status & 0xFF) == 0x7F {
                TerminalSession.giveTerminal(to: pid)
                kill(-pid, SIGCONT)
                continue
            }
            break
        }
        writer.sync {}
        TerminalSession.giveTerminal(to: getpgrp())
        let signal = status & 0x7F
        if signal != 0 { return quietSignals.contains(signal) ? nil : "\(what) ended with signal \(signal)" }
        let code = (status >> 8) & 0xFF
        return code == 0 ? nil : "\(what) exited with status \(code)"
    }

    /// Makes `group` the terminal's foreground process group. SIGTTOU is blocked around it: a
    /// process outside the foreground group may set it only so.
    static func giveTerminal(to group: pid_t) {
        var ttou = sigset_t()
        sigemptyset(&ttou)
        sigaddset(&ttou, SIGTTOU)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &ttou, &previous)
        _ = tcsetpgrp(STDIN_FILENO, group)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}
