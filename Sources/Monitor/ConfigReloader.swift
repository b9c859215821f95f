import DashboardConfig
import Dispatch
import FoundationEssentials
import Glibc
import Redaction

/// Watches a config file and reloads it when it changes; a file with problems never replaces the
/// running config.
///
/// Watches the file's directory, so editors that save by writing a new file and renaming it are
/// noticed too. Changes are debounced (editors write in several steps). Each reload reports either
/// the new spec or the problems, and the caller keeps running on `current` when there are problems.
@MainActor
public final class ConfigReloader {
    /// What a reload produced.
    public enum Outcome: Sendable {
        case reloaded(DashboardSpec)
        case rejected(ConfigErrors)
        case unchanged
    }

    public let path: String
    public private(set) var current: DashboardSpec
    private let environment: [String: String]
    /// The user's `keys.yaml`, read again with each reload (the dashboard's; none for `serve`).
    private let keysFile: String?
    private var lastText: String?
    private var source: (any DispatchSourceRead)?
    private var pending: DispatchWorkItem?
    /// Where inotify's events are read, kept between wake-ups.
    private var eventBuffer = [UInt8](repeating: 0, count: 16_384)

    /// The inotify events that can be a save (see `watch`).
    nonisolated static let savesMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)

    public init(
        path: String, current: DashboardSpec, environment: [String: String] = ProcessInfo.processInfo.environment, keysFile: String? = nil
    ) {
        self.path = path
        self.current = current
        self.environment = environment
        self.keysFile = keysFile
        self.lastText = FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// Reads the file again: a valid file becomes `current`; an invalid one leaves it alone.
    @discardableResult
    public func reload() -> Outcome {
        let text = FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
        if let text, text == lastText { return .unchanged }
        do {
            var spec = try ConfigLoader.load(path: path, environment: environment, keysFile: keysFile)
            // What the running config masked stays masked until the next reload: a server may
            // echo the credential just replaced.
            spec.retiredSecrets = Redactor(current).ownSecrets + current.liveSecrets.all
            current = spec
            lastText = text
            return .reloaded(spec)
        } catch {
            lastText = text
            return .rejected(error)
        }
    }

    /// Why the file must not be watched (another user could change it, and a reload would then
    /// run their config: their headers, their URLs), or nil. The file must be the user's (or
    /// root's) and not writable by everyone; its directory must not let others replace it.
    public nonisolated static func watchProblem(path: String) -> String? {
        var file = stat()
        guard stat(path, &file) == 0 else { return "cannot read \(path)" }
        let me = geteuid()
        if file.st_uid != me, file.st_uid != 0 { return "\(path) belongs to another user" }
        if file.st_mode & 0o002 != 0 { return "anyone can write \(path)" }
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent().path
        var directory = stat()
        guard stat(real, &directory) == 0 else { return "cannot read \(real)" }
        if directory.st_uid != me, directory.st_uid != 0 { return "its directory \(real) belongs to another user" }
        if directory.st_mode & 0o002 != 0, directory.st_mode & UInt32(S_ISVTX) == 0 { return "anyone can replace files in \(real)" }
        return nil
    }

    /// Starts watching the file (inotify on its directory, events for its name only, so a log
    /// written beside it does not keep putting the reload off); `onChange` gets each outcome
    /// other than `.unchanged`. Returns why it does not watch (`watchProblem`), or nil.
    ///
    /// A save is noticed when the writer closes the file (`IN_CLOSE_WRITE`: editors that write in
    /// place, `cp`, a shell's `>`) or a new file takes its name (`IN_MOVED_TO`, `IN_CREATE`:
    /// editors that rename). Not every `write` (`IN_MODIFY`): a log kept open beside the config
    /// (`--log`, or any program's) would wake the main queue for each line it writes.
    ///
    /// A config that is a symbolic link (`hammock.yaml → real.yaml`) is watched at both ends: a
    /// save to the file it points to reloads, and so does pointing the link elsewhere (whose new
    /// target is then watched too).
    @discardableResult
    public func watch(debounce: TimeInterval = 0.2, _ onChange: @escaping @MainActor (Outcome) -> Void) -> String? {
        if let problem = ConfigReloader.watchProblem(path: path) { return problem }
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return "inotify is not available" }
        if let problem = addWatches(fd) {
            close(fd)
            return problem
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { @Sendable in
            MainActor.assumeIsolated {
                var aboutTheFile = false
                while true {
                    let count = self.eventBuffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    guard count > 0 else { break }
                    aboutTheFile = aboutTheFile || self.watchedNames.contains { ConfigReloader.events(self.eventBuffer[0..<count], name: $0) }
                }
                guard aboutTheFile else { return }
                self.pending?.cancel()
                let work = DispatchWorkItem { @Sendable in
                    MainActor.assumeIsolated {
                        // The link may point elsewhere now.
                        _ = self.addWatches(fd)
                        let outcome = self.reload()
                        if case .unchanged = outcome { return }
                        onChange(outcome)
                    }
                }
                self.pending = work
                DispatchQueue.main.asyncAfter(deadline: .now() + debounce, execute: work)
            }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        self.source = source
        return nil
    }

    /// The names whose saves reload: the config's, and its target's when it is a link.
    private var watchedNames: [[UInt8]] = []

    /// Watches the directory of the config and, when it is a symbolic link, of the file it points
    /// to (again after a change: the link may point elsewhere). Returns why it cannot, or nil.
    private func addWatches(_ fd: Int32) -> String? {
        let url = URL(fileURLWithPath: path)
        var places = [(url.deletingLastPathComponent().path, url.lastPathComponent)]
        let target = url.resolvingSymlinksInPath()
        if target.path != url.standardizedFileURL.path { places.append((target.deletingLastPathComponent().path, target.lastPathComponent)) }
        for (index, place) in places.enumerated() where inotify_add_watch(fd, place.0, ConfigReloader.savesMask) < 0 {
            if index == 0 { return "cannot watch \(place.0)" }
        }
        watchedNames = places.map { Array($0.1.utf8) }
        return nil
    }

    /// True if any inotify event in `bytes` names the file (`struct inotify_event`s: wd, mask,
    /// cookie, len, then a NUL-padded name of `len` bytes).
    nonisolated static func events(_ bytes: ArraySlice<UInt8>, name: [UInt8]) -> Bool {
        var offset = bytes.startIndex
        while offset + 16 <= bytes.endIndex {
            let length = Int(bytes[offset + 12]) | Int(bytes[offset + 13]) << 8 | Int(bytes[offset + 14]) << 16 | Int(bytes[offset + 15]) << 24
            let start = offset + 16
            let end = min(bytes.endIndex, start + length)
            let eventName = bytes[start..<end].prefix { $0 != 0 }
            if eventName.elementsEqual(name) { return true }
            offset = end
        }
        return false
    }

    /// Stops watching.
    public func stop() {
        source?.cancel()
        source = nil
        pending?.cancel()
    }
}
