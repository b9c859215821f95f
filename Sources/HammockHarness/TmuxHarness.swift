import Foundation
import Glibc

/// Runs a program in a private tmux server at a fixed size, for end-to-end terminal tests.
///
/// Waits are event-driven: the program writes a line to a FIFO (`HAMMOCK_FRAME_FIFO`) after every
/// frame, and the shell wrapper writes `exit STATUS TTYMODES` there when the program ends. Every
/// wait is bounded.
public final class TmuxHarness {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static var tmuxAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The directory holding the package's built executables (next to the test bundle).
    public static var binDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: url.appendingPathComponent("terminal-demo").path) {
            url = url.deletingLastPathComponent()
        }
        return url
    }

    public let directory: URL
    /// The tmux server's socket (`tmux -S` reaches this server alone).
    public let socket: String
    public let fifoPath: String
    private let fifo: Int32
    private var pending = ""
    /// Every line read from the FIFO so far.
    public private(set) var log: [String] = []

    /// - Parameter owner: the process whose end ends this tmux server, if it has not been ended
    ///   already (this process unless told otherwise).
    public init(command: String, columns: Int = 80, rows: Int = 24, environment: [String: String] = [:], owner: pid_t = getpid()) throws {
        directory = URL(fileURLWithPath: ScratchDirectory.path("e2e"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socket = directory.appendingPathComponent("tmux.sock").path
        fifoPath = directory.appendingPathComponent("frames").path
        guard mkfifo(fifoPath, 0o600) == 0 else { throw Failure(description: "mkfifo failed") }
        // Read-write so the FIFO never reports end-of-file between writers.
        fifo = open(fifoPath, O_RDWR | O_NONBLOCK)
        // A watchdog beside the command ends this tmux server once the process that made it has
        // gone without doing so (killed, crashed, interrupted): a tmux server is a daemon of its
        // own, and the program inside would otherwise run on. It ends itself when the socket goes.
        let watchdog = "(while kill -0 \(owner) && [ -S '\(socket)' ]; do sleep 1; done; tmux -S '\(socket)' kill-server) >/dev/null 2>&1 &"
        let wrapper = """
            \(watchdog) \(command); echo "exit $? $(stty -a | grep -Eo -- '-?icanon|-?echo ' | tr -d ' ' | tr '\\n' ' ')" > '\(fifoPath)'; exec sleep 600
            """
        // The program's cache and history go to this run's directory, never the user's ~/.cache,
        // and it reads keys from there too, never the user's ~/.config/hammock/keys.yaml.
        var environment = environment
        if environment["XDG_CACHE_HOME"] == nil { environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("cache").path }
        if environment["XDG_CONFIG_HOME"] == nil { environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path }
        let extra = environment.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        try tmux(["new-session", "-d", "-s", "e2e", "-x", "\(columns)", "-y", "\(rows)",
                  "-e", "LANG=C.UTF-8", "-e", "HAMMOCK_FRAME_FIFO=\(fifoPath)"] + extra + [wrapper])
    }

    deinit {
        _ = try? tmux(["kill-server"])
        close(fifo)
        try? FileManager.default.removeItem(at: directory)
    }

    /// The tmux server's process id, while it runs.
    public var serverPID: pid_t? {
        (try? tmux(["display-message", "-p", "#{pid}"])).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Runs a tmux client command and returns its output.
    ///
    /// Spawned with `posix_spawn` and reaped with `waitpid`: the tmux client exits at once, and
    /// this does not depend on Foundation's child monitoring. Output goes through a file, not a
    /// pipe, because `new-session` forks a server that would keep a pipe open forever.
    @discardableResult
    public func tmux(_ arguments: [String]) throws -> String {
        let outputPath = directory.appendingPathComponent("tmux-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        let argv = ["tmux", "-S", socket, "-f", "/dev/null"] + arguments
        let status = try ProcessRunner.run(argv, outputPath: outputPath).status
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 || arguments.first == "kill-server" else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (\(status)): \(output)")
        }
        return output
    }

    /// The visible screen as lines.
    public func capture() throws -> [String] {
        var lines = try tmux(["capture-pane", "-p", "-t", "e2e"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    public func sendKeys(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "e2e"] + keys)
    }

    public func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "e2e", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// How long a wait lasts before it fails: generous, only ever reached by a bug. Beside two CPU
    /// hogs on two cores, a program under tmux took over 10 s to draw or exit while the test
    /// process ran hundreds of tests at once.
    public static let patience: Double = 60

    /// Waits for the next FIFO line satisfying `predicate`, reading new lines as they arrive.
    @discardableResult
    public func waitForLine(timeout: Double = TmuxHarness.patience, _ what: String, where predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline])
                pending.removeSubrange(...newline)
                log.append(line)
                if predicate(line) { return line }
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw Failure(description: "timed out waiting for \(what); lines: \(log); screen:\n\((try? capture())?.joined(separator: "\n") ?? "")")
            }
            var descriptor = pollfd(fd: fifo, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Int32(min(remaining, 1) * 1000)) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(fifo, &buffer, buffer.count)
                if count > 0 { pending += String(decoding: buffer[0..<count], as: UTF8.self) }
            }
        }
    }

    /// Waits for a frame at the given size and returns the program's pid.
    @discardableResult
    public func waitForFrame(size: String) throws -> pid_t {
        let line = try waitForLine("a frame at \(size)") { $0.hasPrefix("frame ") && $0.contains(" \(size) ") }
        return pid_t(line.split(separator: " ").last.flatMap { Int32($0) } ?? 0)
    }

    /// Waits until the next frame's screen satisfies `predicate` (keys may take several frames).
    public func waitForScreen(_ what: String, where predicate: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(Self.patience)
        while true {
            let screen = try capture()
            if predicate(screen) { return screen }
            guard deadline.timeIntervalSinceNow > 0 else {
                throw Failure(description: "timed out waiting for \(what); screen:\n\(screen.joined(separator: "\n"))")
            }
            _ = try? waitForLine(timeout: max(0.01, min(1, deadline.timeIntervalSinceNow)), "a frame") { $0.hasPrefix("frame ") }
        }
    }

    /// Waits for the wrapper's exit line: `exit STATUS` plus the tty's icanon/echo state.
    public func waitForExit() throws -> String {
        try waitForLine("the program to exit") { $0.hasPrefix("exit ") }.trimmingCharacters(in: .whitespaces)
    }
}
