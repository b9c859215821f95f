import Foundation

/// Where tests put their files: directories under one root of this process's own
/// (`$TMPDIR/hammock-tests-PID`, 0700), removed with everything in it when the process exits,
/// so a test run leaves nothing behind in /tmp however a test ends. Roots left by processes that
/// died without exiting (a crash, SIGKILL) are removed by the next run, and what those runs left
/// running with them is ended. `hammock-bench` keeps its files here too.
public enum ScratchDirectory {
    /// A new, empty directory named after `label` (`cli-UUID`).
    public static func make(_ label: String) throws -> String {
        let path = path(label)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// A path for a file or directory named after `label` that does not exist yet.
    public static func path(_ label: String, extension suffix: String = "") -> String {
        root + "/\(label)-\(UUID().uuidString)" + suffix
    }

    /// This process's root, made (and its removal at exit arranged) on first use.
    public static var root: String { made }

    private static let made: String = {
        removeRootsOfDeadProcesses(in: FileManager.default.temporaryDirectory.path)
        let root = rootOfThisProcess
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        atexit { try? FileManager.default.removeItem(atPath: ScratchDirectory.rootOfThisProcess) }
        return root
    }()

    /// The root's path without making it (what the exit handler removes).
    static var rootOfThisProcess: String { FileManager.default.temporaryDirectory.path + "/hammock-tests-\(getpid())" }

    /// Removes the roots of processes that are gone, after ending what those processes left
    /// running with their files: a process whose command line names a path in a dead root (a
    /// tmux server by its socket, the `hammock` inside by its config, a benchmark's nginx by its
    /// prefix) belonged to that run.
    public static func removeRootsOfDeadProcesses(in temporary: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix("hammock-tests-") {
            guard let pid = pid_t(name.dropFirst("hammock-tests-".count)), pid != getpid() else { continue }
            // ESRCH: no such process. A live process (or one of another user's) keeps its root.
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let root = temporary + "/" + name
            endProcesses(naming: root + "/")
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    /// SIGTERM to every process of this user whose command line holds `path`.
    private static func endProcesses(naming path: String) {
        let needle = Data(path.utf8)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), pid != getpid(),
                let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                commandLine.range(of: needle) != nil
            else { continue }
            kill(pid, SIGTERM)
        }
    }
}
