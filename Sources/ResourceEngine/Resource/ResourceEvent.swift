/// What changed about a resource, as told to its observers.
///
/// Observers should re-read the resource's state rather than trust the event alone; the event
/// says why they were called. `description` is Siesta's form (`newData(network)`);
/// `externalName` is the one logs and the `events` command print (`NewData(Network)`).
public enum ResourceEvent: Sendable, Equatable, CustomStringConvertible {
    /// Sent at once, only to an observer that was just added.
    case observerAdded
    /// A load started; `isLoading` is true.
    case requested
    /// A load was cancelled; data and error are unchanged.
    case requestCancelled
    /// `latestData` changed; the error is cleared.
    case newData(NewDataSource)
    /// The server confirmed the data (304): its timestamp moved, the error is cleared.
    case notModified
    /// A load failed; see `latestError`. `latestData` keeps the last good data.
    case error

    /// Where new data came from.
    public enum NewDataSource: String, Sendable, CustomStringConvertible {
        /// A response from the server.
        case network
        /// The persistent cache, before the first load.
        case cache
        /// `overrideLocalData` / `overrideLocalContent`: set by the program, not loaded.
        case localOverride
        /// `wipe()`: the data was removed.
        case wipe

        /// The source's name, as logs and `events` show it.
        public var description: String { rawValue }
    }

    public var description: String {
        switch self {
        case .observerAdded: "observerAdded"
        case .requested: "requested"
        case .requestCancelled: "requestCancelled"
        case .newData(let source): "newData(\(source))"
        case .notModified: "notModified"
        case .error: "error"
        }
    }

    /// The capitalised name used in logs and the `events` command: `NewData(Network)`.
    public var externalName: String {
        switch self {
        case .observerAdded: "ObserverAdded"
        case .requested: "Requested"
        case .requestCancelled: "RequestCancelled"
        case .newData(.network): "NewData(Network)"
        case .newData(.cache): "NewData(Cache)"
        case .newData(.localOverride): "NewData(LocalOverride)"
        case .newData(.wipe): "NewData(Wipe)"
        case .notModified: "NotModified"
        case .error: "Error"
        }
    }
}
