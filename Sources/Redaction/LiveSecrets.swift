import Synchronization

/// Secrets that appear while Hammock runs: a token file's new contents, a login's token. Shared
/// by every `Redactor` made for the config, so they are masked everywhere from the moment they
/// are known.
///
/// Each source (a value read from files, a login) has a slot: its current values and the ones
/// they replaced, so a server's echo of a token just rotated away is still masked. Older ones
/// are dropped: however often a file rotates or a login renews, what every redaction searches
/// stays two generations per source.
public final class LiveSecrets: Sendable {
    /// One source's slot.
    public struct Source: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Slot {
        var current: [String] = []
        var previous: [String] = []
    }

    private struct State {
        var slots: [Int: Slot] = [:]
        var all: [String] = []
        var version = 0
        var nextSource = 0
        /// Values added without a source (`add`): kept for the run, as before slots existed.
        var loose: [String] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// A slot for a new source.
    public func source() -> Source {
        state.withLock { state in
            state.nextSource += 1
            return Source(id: state.nextSource)
        }
    }

    /// `values` become the source's current secrets (and the forms they travel in; short ones are
    /// ignored, as in `Redactor`); what they replace stays until they are replaced in turn.
    public func replace(_ values: [String], for source: Source) {
        var forms: [String] = []
        for value in values where value.count >= Redactor.shortest {
            for form in Redactor.forms(of: value) where !forms.contains(form) { forms.append(form) }
        }
        state.withLock { state in
            var slot = state.slots[source.id] ?? Slot()
            guard slot.current != forms else { return }
            slot.previous = slot.current
            slot.current = forms
            state.slots[source.id] = slot
            LiveSecrets.rebuild(&state)
        }
    }

    /// Adds a secret with no source of its own, kept for the run.
    public func add(_ secret: String) {
        guard secret.count >= Redactor.shortest else { return }
        state.withLock { state in
            var changed = false
            for form in Redactor.forms(of: secret) where !state.loose.contains(form) {
                state.loose.append(form)
                changed = true
            }
            if changed { LiveSecrets.rebuild(&state) }
        }
    }

    private static func rebuild(_ state: inout State) {
        var all = Set(state.loose)
        for slot in state.slots.values {
            all.formUnion(slot.current)
            all.formUnion(slot.previous)
        }
        state.all = all.sorted { ($0.count, $0) > ($1.count, $1) }
        state.version += 1
    }

    /// Changes whenever the set of secrets does.
    public var version: Int { state.withLock { $0.version } }

    /// How many secret forms there are now.
    public var count: Int { state.withLock { $0.all.count } }

    /// Every secret known now, longest first.
    public var all: [String] { state.withLock { $0.all } }
}
