import Glibc

/// Starts another program clean: an empty signal mask and every signal at its default
/// disposition (Hammock blocks and handles several; a child must not inherit that), in the
/// process group or session asked for. One place for the pager, alert commands and the tests'
/// processes.
public enum CleanSpawn {
    /// Where the child stands among processes.
    public enum Group: Sendable {
        /// Ours.
        case inherited
        /// A process group of its own (a pager given the terminal).
        case newProcessGroup
        /// A session of its own: no controlling terminal (an alert command).
        case newSession
    }

    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// Ours (the terminal, for a pager).
        case inherited
        /// A file, created (0600) or truncated: a forked daemon cannot hold a pipe open.
        case file(String)
        /// A descriptor of ours (a pipe's end), duplicated into the child.
        case descriptor(Int32)
        /// Standard error only: wherever standard output goes.
        case sameAsOutput
    }

    /// Why posix_spawn refused.
    public struct Failure: Error, CustomStringConvertible {
        /// The errno posix_spawn returned.
        public let code: Int32
        public var description: String { String(cString: strerror(code)) }
    }

    /// Starts `argv` (argv[0] looked up on PATH unless it has a slash) with its standard streams
    /// where asked and no other descriptor of ours: a child that inherited another child's pipe
    /// would keep it open after that child exited, and sockets and files stay with Hammock.
    /// Returns the child's pid.
    public static func spawn(
        _ argv: [String], environment: [String]? = nil, stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null,
        group: Group = .inherited
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .inherited:
                break
            case .null:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let own):
                posix_spawn_file_actions_adddup2(&actions, own, descriptor)
            case .sameAsOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, descriptor)
            }
        }
        closeDescriptors(from: 3, in: &actions)
        return try spawn(argv, environment: environment, actions: &actions, group: group)
    }

    /// A pipe whose ends no child inherits unless handed to it as a `Stream.descriptor`.
    public static func pipe() throws(Failure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw Failure(code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Starts `argv` — argv[0] looked up on PATH unless it has a slash — with `actions` applied,
    /// in `environment` ("NAME=value" entries; nil: ours). Returns the child's pid.
    static func spawn(
        _ argv: [String], environment: [String]? = nil, actions: inout posix_spawn_file_actions_t, group: Group
    ) throws(Failure) -> pid_t {
        guard let program = argv.first else { throw Failure(code: EINVAL) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        switch group {
        case .inherited: break
        case .newProcessGroup:
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
        case .newSession:
            flags |= setSession
        }
        posix_spawnattr_setflags(&attributes, flags)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var cEnvironment = (environment ?? []).map { strdup($0) } + [nil]
        defer { for pointer in cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = cEnvironment.withUnsafeMutableBufferPointer { ownEnvironment in
            let chosen = environment == nil ? environ : ownEnvironment.baseAddress
            return program.contains("/")
                ? posix_spawn(&pid, program, &actions, &attributes, &cArguments, chosen)
                : posix_spawnp(&pid, program, &actions, &attributes, &cArguments, chosen)
        }
        guard spawned == 0 else { throw Failure(code: spawned) }
        return pid
    }

    /// Closes every descriptor from `lowest` up in the child, where glibc offers it (2.34 and
    /// later, `posix_spawn_file_actions_addclosefrom_np`, found at run time); false where not.
    @discardableResult
    static func closeDescriptors(from lowest: Int32, in actions: inout posix_spawn_file_actions_t) -> Bool {
        guard let closeFrom = addCloseFrom else { return false }
        return closeFrom(&actions, lowest) == 0
    }

    /// glibc's POSIX_SPAWN_SETSID (2.26 and later), which the Glibc module does not export.
    private static let setSession: Int16 = 0x80

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: CloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()
}
