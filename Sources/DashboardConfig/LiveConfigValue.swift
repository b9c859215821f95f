import Foundation
import Glibc
import Redaction
import Synchronization

/// A config value that reads files (`${file:…}`), read again when one of them changes: a token
/// file rotated while Hammock runs is used from the next request on, without a restart.
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

    /// `initial` as read when the config was loaded; `transform` makes the sent value from the
    /// interpolated text (`Bearer …`, a Basic encoding); `validate` says why a new text cannot be
    /// used (nil: it can), as the loader said of the first.
    public init(
        _ initial: ConfigString, interpolator: EnvironmentInterpolator, secrets: LiveSecrets, reports: LiveReports? = nil,
        transform: @escaping @Sendable (String) -> String = { $0 }, validate: @escaping @Sendable (String) -> String? = LiveConfigValue.headerValueProblem
    ) {
        self.template = initial.template
        self.interpolator = interpolator
        self.files = initial.files
        self.secrets = secrets
        self.slot = secrets.source()
        self.reports = reports
        self.transform = transform
        self.validate = validate
        let value = transform(initial.value)
        self.state = Mutex(State(value: value, stamps: initial.files.map(LiveConfigValue.stamp)))
    }

    /// Why `text` cannot be a header's value: empty, or with a line break or a control character.
    public static let headerValueProblem: @Sendable (String) -> String? = { text in
        if text.isEmpty { return "is empty" }
        if text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) { return "has a line break" }
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) { return "has a control character" }
        return nil
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

/// What values read again while running had to say (a token file read empty mid-write), for the
/// status line: the dashboard sets `handler`, which is called on the main queue.
public final class LiveReports: Sendable {
    private let handler = Mutex<(@MainActor @Sendable (String) -> Void)?>(nil)

    public init() {}

    /// Where reports go from now on.
    public func onReport(_ handle: (@MainActor @Sendable (String) -> Void)?) {
        handler.withLock { $0 = handle }
    }

    /// Hands `message` to the handler, on the main queue (never inside the caller's work).
    public func post(_ message: String) {
        guard let handle = handler.withLock({ $0 }) else { return }
        DispatchQueue.main.async { MainActor.assumeIsolated { handle(message) } }
    }
}
