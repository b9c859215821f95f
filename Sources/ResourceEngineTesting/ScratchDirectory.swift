import Foundation

/// Where tests put their files: directories under one root of this process's own
/// (`$TMPDIR/hammock-tests-PID`, 0700), removed with everything in it when the process exits,
/// so a test run leaves nothing behind in /tmp however a test ends. Roots left by processes that
/// died without exiting (a crash, SIGKILL) are removed by the next run.
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

    static func removeRootsOfDeadProcesses(in temporary: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix("hammock-tests-") {
            guard let pid = pid_t(name.dropFirst("hammock-tests-".count)), pid != getpid() else { continue }
            // ESRCH: no such process. A live process (or one of another user's) keeps its root.
            if kill(pid, 0) != 0, errno == ESRCH { try? FileManager.default.removeItem(atPath: temporary + "/" + name) }
        }
    }
}
