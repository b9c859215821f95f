import FoundationEssentials
import PrivateFiles
import Synchronization

/// Categorised diagnostic logging for the engine, off unless a category is enabled.
///
/// Mirrors Siesta's log categories so `--log network,stateChanges` reads the same. Messages are built
/// lazily, so a disabled category costs one atomic load.
public enum EngineLog {
    /// What a log line is about.
    public enum Category: String, CaseIterable, Sendable {
        /// Requests sent and answered.
        case network
        /// What the pipeline's stages did.
        case pipeline
        /// A resource's events.
        case stateChanges
        /// Observers added and removed.
        case observers
        /// Why a load was or was not needed.
        case staleness
        /// The persistent cache's reads and writes.
        case cache
        /// Which configuration applies to a URL.
        case configuration

        /// Its bit in `enabledBits`.
        var bit: UInt8 {
            switch self {
            case .network: 1
            case .pipeline: 2
            case .stateChanges: 4
            case .observers: 8
            case .staleness: 16
            case .cache: 32
            case .configuration: 64
            }
        }
    }

    /// The receiver of every enabled log line.
    public typealias Handler = @Sendable (Category, String) -> Void

    private struct State {
        var enabled: Set<Category> = []
        var handler: Handler = { category, message in
            OutputFile.standardError.write("[\(category.rawValue)] \(message)\n")
        }
    }

    private static let state = Mutex(State())
    /// `enabled` as one bit per category, read without the lock: a disabled category (nearly
    /// every call, several per request) costs one load.
    private static let enabledBits = Atomic<UInt8>(0)

    /// The categories currently written; empty by default.
    public static var enabled: Set<Category> {
        get { state.withLock { $0.enabled } }
        set {
            state.withLock { state in
                state.enabled = newValue
                enabledBits.store(newValue.reduce(0) { $0 | $1.bit }, ordering: .releasing)
            }
        }
    }

    /// Where lines go; standard error by default.
    public static var handler: Handler {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// Logs `message` under `category` if that category is enabled.
    public static func log(_ category: Category, _ message: @autoclosure () -> String) {
        guard enabledBits.load(ordering: .acquiring) & category.bit != 0 else { return }
        let handler: Handler? = state.withLock { $0.enabled.contains(category) ? $0.handler : nil }
        handler?(category, message())
    }
}
