import DashboardConfig
import Redaction
import Synchronization

/// One service's values read from files, each made once: a service's configuration is worked
/// out again whenever it changes, and each value keeps its last good content and its own slot
/// of the spec's `LiveSecrets` across those runs.
final class LiveValues: Sendable {
    private let secrets: LiveSecrets
    private let reports: LiveReports
    private let made = Mutex<[String: LiveConfigValue]>([:])

    init(secrets: LiveSecrets, reports: LiveReports) {
        self.secrets = secrets
        self.reports = reports
    }

    /// The running value `source` describes, for `header`.
    func value(_ source: LiveValueSource, of header: HeaderSpec) -> LiveConfigValue {
        let key = header.name + "\u{0}" + source.initial.template
        return made.withLock { made in
            if let value = made[key] { return value }
            let value = LiveConfigValue(source, secrets: secrets, reports: reports)
            made[key] = value
            return value
        }
    }
}
