import CleanSpawn
import CNCursesW
import Dispatch
import Glibc

extension TerminalSession {
    /// Hands the terminal to a pager reading `text` on its standard input, and takes it back when
    /// the pager exits: the screen is left, the pager runs (`/bin/sh -c COMMAND`, so `$PAGER` may
    /// carry options like `less -R`) in a process group of its own that owns the terminal, so
    /// Ctrl-C and Ctrl-Z reach the pager, not the dashboard; it starts with default signal
    /// handling and nothing blocked. Then the screen comes back whole (`.resumed`).
    ///
    /// `environment` (`NAME=value` entries) is the pager's; nil: Hammock's own.
    ///
    /// Returns nil, or why the pager could not run or what it exited with.
    public func page(_ text: String, command: String, environment: [String]? = nil) -> String? {
        guard !isShutDown else { return "no terminal" }
        guard let pipe = try? CleanSpawn.pipe() else { return "cannot make a pipe for the pager" }
        nc_leave_screen()
        defer { resumeScreen() }

        // `exec`: no shell stays between, to die of the Ctrl-C the pager itself handles.
        let pid: pid_t
        do {
            defer { close(pipe.read) }
            pid = try CleanSpawn.spawn(
                ["/bin/sh", "-c", "exec " + command], environment: environment, stdin: .descriptor(pipe.read), stdout: .inherited,
                stderr: .inherited, group: .newProcessGroup)
        } catch {
            close(pipe.write)
            return "cannot start the pager: \(error)"
        }
        // The pager's group owns the terminal while it runs.
        TerminalSession.giveTerminal(to: pid)
        // Written from another thread: a pager that reads slowly (or never) must not block this one.
        let writeEnd = pipe.write
        let bytes = Array(text.utf8)
        let writer = DispatchQueue(label: "hammock.pager-writer")
        writer.async {
            // A pager that quits early makes the write fail with EPIPE, not end the process.
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
        // Ctrl-C or a closed pipe is the user's way out, not a failure.
        if signal != 0 { return [SIGINT, SIGPIPE].contains(signal) ? nil : "the pager ended with signal \(signal)" }
        let code = (status >> 8) & 0xFF
        return code == 0 ? nil : "the pager (\(command)) exited with status \(code)"
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
