import DashboardConfig
import FoundationEssentials
import Glibc
import Redaction
import Synchronization

/// A config value that reads files (`${file:…}`, a `LiveValueSource`), read again when one of
/// them changes: a token file rotated while Hammock runs is used from the next request on,
/// without a restart.
///
/// Each read checks the files' identity (device, inode, size, modification time); only a change
/// interpolates again. A new value passes the same checks as at load (`validate`): one that is
/// empty (a file read mid-write), has a line break or a control character, or cannot be read at
/// all keeps the last good value, and says so once (`LiveReports`). New values are secrets from
/// the moment they are read, in this value's own slot of `LiveSecrets`.
public final class LiveConfigValue: Sendable {
    private struct Stamp: Equatable {
        var device: UInt64 = 0
        var inode: UInt64 = 0
        var size: Int64 = 0
        var seconds = 0
        var nanoseconds = 0
    }

    private struct State {
        var value: String
        /// The files as they were when `value` was read, or when a new reading was refused (so
        /// a refused file is not read again until it changes).
        var stamps: [Stamp]
    }

    public let template: String
    private let interpolator: EnvironmentInterpolator
    private let files: [String]
    private let secrets: LiveSecrets
    private let slot: LiveSecrets.Source
    private let reports: LiveReports?
    private let transform: @Sendable (String) -> String
    private let validate: @Sendable (String) -> String?
    private let state: Mutex<State>

    /// The value `source` describes, as read when the config was loaded; new contents go to
    /// `secrets` (a slot of their own), problems with them to `reports`.
    public init(_ source: LiveValueSource, secrets: LiveSecrets, reports: LiveReports? = nil) {
        let initial = source.initial
        self.template = initial.template
        self.interpolator = source.interpolator
        self.files = initial.files
        self.secrets = secrets
        self.slot = secrets.source()
        self.reports = reports
        self.transform = source.transform
        self.validate = source.validate
        let value = transform(initial.value)
        self.state = Mutex(State(value: value, stamps: initial.files.map(LiveConfigValue.stamp)))
    }

    /// The value now: read again when a file changed since the last read.
    public var current: String {
        let stamps = files.map(LiveConfigValue.stamp)
        let known = state.withLock { $0.stamps == stamps ? $0.value : nil }
        if let known { return known }
        let problem: String
        switch interpolator.interpolate(template) {
        case .success(let fresh):
            if let invalid = validate(fresh.value) {
                problem = "the new value \(invalid)"
            } else {
                let value = transform(fresh.value)
                secrets.replace(fresh.environmentValues + [value], for: slot)
                return state.withLock { state in
                    state = State(value: value, stamps: stamps)
                    return value
                }
            }
        case .failure(let failure):
            // Mid-rotation (the file is briefly gone) or broken.
            problem = "\(failure)"
        }
        reports?.post("\(template): \(problem); still using the last good value")
        return state.withLock { state in
            state.stamps = stamps
            return state.value
        }
    }

    private static func stamp(_ path: String) -> Stamp {
        var info = stat()
        guard stat(path, &info) == 0 else { return Stamp() }
        return Stamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
    }
}
