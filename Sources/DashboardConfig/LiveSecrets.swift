import Synchronization

/// Secrets that appear while Hammock runs: a token file's new contents, a login's token. Shared
/// by every `Redactor` made for the config, so they are masked everywhere from the moment they
/// are known.
public final class LiveSecrets: Sendable {
    private let values = Mutex<[String]>([])

    public init() {}

    /// Adds a secret (and the forms it travels in); short values are ignored, as in `Redactor`.
    public func add(_ secret: String) {
        guard secret.count >= Redactor.shortest else { return }
        let forms = Redactor.forms(of: secret)
        values.withLock { current in
            var changed = false
            for form in forms where !current.contains(form) {
                current.append(form)
                changed = true
            }
            if changed { current.sort { ($0.count, $0) > ($1.count, $1) } }
        }
    }

    /// How many secret forms there are: secrets are only ever added, so an unchanged count means
    /// an unchanged set.
    public var count: Int { values.withLock { $0.count } }

    /// Every secret added, longest first.
    public var all: [String] { values.withLock { $0 } }
}
