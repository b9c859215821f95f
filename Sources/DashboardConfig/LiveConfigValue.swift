import Foundation
import Glibc
import Synchronization

/// A config value that reads files (`${file:…}`), read again when one of them changes: a token
/// file rotated while Hammock runs is used from the next request on, without a restart.
///
/// Each read checks the files' identity (device, inode, size, modification time); only a change
/// interpolates again. A file that cannot be read any more keeps the last good value. New values
/// are secrets from the moment they are read (`LiveSecrets`).
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
        var stamps: [Stamp]
    }

    public let template: String
    private let interpolator: EnvironmentInterpolator
    private let files: [String]
    private let secrets: LiveSecrets
    private let transform: @Sendable (String) -> String
    private let state: Mutex<State>

    /// `initial` as read when the config was loaded; `transform` makes the sent value from the
    /// interpolated text (`Bearer …`, a Basic encoding).
    public init(
        _ initial: ConfigString, interpolator: EnvironmentInterpolator, secrets: LiveSecrets,
        transform: @escaping @Sendable (String) -> String = { $0 }
    ) {
        self.template = initial.template
        self.interpolator = interpolator
        self.files = initial.files
        self.secrets = secrets
        self.transform = transform
        let value = transform(initial.value)
        self.state = Mutex(State(value: value, stamps: initial.files.map(LiveConfigValue.stamp)))
    }

    /// The value now: read again when a file changed since the last read.
    public var current: String {
        let stamps = files.map(LiveConfigValue.stamp)
        let known = state.withLock { $0.stamps == stamps ? $0.value : nil }
        if let known { return known }
        guard case .success(let fresh) = interpolator.interpolate(template) else {
            // Mid-rotation (the file is briefly gone) or broken: keep using the last good value.
            return state.withLock { $0.value }
        }
        for value in fresh.environmentValues { secrets.add(value) }
        let value = transform(fresh.value)
        secrets.add(value)
        return state.withLock { state in
            state = State(value: value, stamps: stamps)
            return value
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
