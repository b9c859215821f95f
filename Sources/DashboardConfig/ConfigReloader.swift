import Dispatch
import Foundation
import Glibc

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
    private var lastText: String?
    private var source: (any DispatchSourceRead)?
    private var pending: DispatchWorkItem?

    public init(path: String, current: DashboardSpec, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.path = path
        self.current = current
        self.environment = environment
        self.lastText = FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// Reads the file again: a valid file becomes `current`; an invalid one leaves it alone.
    @discardableResult
    public func reload() -> Outcome {
        let text = FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
        if let text, text == lastText { return .unchanged }
        do {
            let spec = try ConfigLoader.load(path: path, environment: environment)
            current = spec
            lastText = text
            return .reloaded(spec)
        } catch {
            lastText = text
            return .rejected(error)
        }
    }

    /// Starts watching (inotify on the file's directory); `onChange` gets each outcome other
    /// than `.unchanged`.
    public func watch(debounce: TimeInterval = 0.2, _ onChange: @escaping @MainActor (Outcome) -> Void) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            close(fd)
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { @Sendable in
            MainActor.assumeIsolated {
                var buffer = [UInt8](repeating: 0, count: 4096)
                while read(fd, &buffer, buffer.count) > 0 {}
                self.pending?.cancel()
                let work = DispatchWorkItem { @Sendable in
                    MainActor.assumeIsolated {
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
    }

    /// Stops watching.
    public func stop() {
        source?.cancel()
        source = nil
        pending?.cancel()
    }
}
