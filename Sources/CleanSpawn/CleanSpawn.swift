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

    /// Why posix_spawn refused.
    public struct Failure: Error, CustomStringConvertible {
        /// The errno posix_spawn returned.
        public let code: Int32
        public var description: String { String(cString: strerror(code)) }
    }

    /// Starts `argv` — argv[0] looked up on PATH unless it has a slash — with `actions` applied,
    /// in `environment` ("NAME=value" entries; nil: ours). Returns the child's pid.
    public static func spawn(
        _ argv: [String], environment: [String]? = nil, actions: inout posix_spawn_file_actions_t, group: Group = .inherited
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
    public static func closeDescriptors(from lowest: Int32, in actions: inout posix_spawn_file_actions_t) -> Bool {
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
