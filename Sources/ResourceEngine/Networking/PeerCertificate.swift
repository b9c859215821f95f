import FoundationEssentials

/// The certificate an https server presented (the leaf of its chain): who it names, who signed
/// it, and when it stops being valid. Read from the transport on each new connection.
public struct PeerCertificate: Sendable, Equatable {
    /// Who the certificate names (`CN=api.example.com, …`).
    public var subject: String
    /// Who signed it.
    public var issuer: String
    /// Start of validity, on the engine clock (seconds since the reference date).
    public var notBefore: TimeInterval?
    /// End of validity, on the engine clock.
    public var notAfter: TimeInterval

    /// A certificate valid from `notBefore` (when known) to `notAfter`.
    public init(subject: String, issuer: String, notBefore: TimeInterval? = nil, notAfter: TimeInterval) {
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// Reads OpenSSL's printed time, `Dec  3 20:25:11 2026 GMT` (as libcurl's certinfo gives it),
    /// into the engine clock; nil for anything else. No locale or formatter: the month names are
    /// OpenSSL's own, always English.
    public static func openSSLTime(_ text: String) -> TimeInterval? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 5, parts[4] == "GMT",
            let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].firstIndex(of: String(parts[0])),
            let day = Int(parts[1]), (1...31).contains(day), let year = Int(parts[3]), (1950...9999).contains(year)
        else { return nil }
        let clock = parts[2].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = DateText.days(year: year, month: month + 1, day: day)
        let unix = TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second)
        return unix - Date.timeIntervalBetween1970AndReferenceDate
    }
}
