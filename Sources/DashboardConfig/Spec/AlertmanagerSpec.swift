/// `alertmanager:`: where firing alerts are posted (Alertmanager's `POST /api/v2/alerts`), with
/// labels of the config's own, and how often they are sent again while they fire.
public struct AlertmanagerSpec: Sendable {
    /// Alertmanager's base URL (`http://127.0.0.1:9093/`).
    public var url: ConfigString
    /// Labels added to every alert (`team: ops`), after Hammock's own.
    public var labels: [(name: String, value: String)] = []
    /// Seconds between sends of an alert that still fires: Alertmanager resolves an alert not
    /// sent again within its `resolve_timeout` (5 minutes by default).
    public var resend: Double = 60

    public init(url: ConfigString) {
        self.url = url
    }

    /// What a label name may be in Alertmanager (Prometheus's rule).
    public static func isLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}
