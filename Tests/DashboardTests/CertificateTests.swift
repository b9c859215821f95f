import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import HammockHarness
import Monitor
import ResourceEngine
import TerminalUI
import Testing

/// The https server's certificate, read by libcurl: `tls.expires` expectations, the metric, and
/// the zoom views, against a server whose certificate (made in the test) expires in 10 days.
@MainActor
@Suite(.serialized) struct CertificateTests {
    @Test func openSSLTimesAreRead() {
        let reference = Date.timeIntervalBetween1970AndReferenceDate
        #expect(PeerCertificate.openSSLTime("Dec  3 20:25:11 2026 GMT").map { $0 + reference } == 1_796_329_511)
        #expect(PeerCertificate.openSSLTime("Feb 29 00:00:00 2028 GMT").map { $0 + reference } == 1_835_395_200)
        #expect(PeerCertificate.openSSLTime("Jan  1 00:00:00 1970 GMT").map { $0 + reference } == 0)
        for bad in ["", "Dec 3 2026", "Foo  3 20:25:11 2026 GMT", "Dec 33 20:25:11 2026 GMT", "Dec  3 24:00:00 2026 GMT", "Dec  3 20:25:11 2026 UTC"] {
            #expect(PeerCertificate.openSSLTime(bad) == nil, "\(bad)")
        }
    }

    @Test func tlsExpiresReadsAsADurationAndSaysWhatItSaw() throws {
        let expectation = try Expectation("tls.expires > 14d")
        #expect(expectation.condition == .compare(.operand(.tlsExpires), .greater, .number(14 * 86_400), nil, text: "tls.expires > 14d"))
        let soon = Expectation.Observation(statusCode: 200, latency: 0.1, body: nil, headers: [:], certificateExpiresIn: 10 * 86_400 - 30)
        #expect(expectation.failure(in: soon) == "expected tls.expires > 14d, got in 9d 23h")
        let expired = Expectation.Observation(statusCode: 200, latency: 0.1, body: nil, headers: [:], certificateExpiresIn: -7_200)
        #expect(expectation.failure(in: expired) == "expected tls.expires > 14d, got expired 2h 0m ago")
        let plain = Expectation.Observation(statusCode: 200, latency: 0.1, body: nil, headers: [:])
        #expect(expectation.failure(in: plain) == "expected tls.expires > 14d, but no certificate was seen (plain HTTP, or no https answer yet)")
        #expect(throws: Expectation.SyntaxError.self) { try Expectation("tls.expires > soon") }
        #expect(try Expectation("tls.expires >= 30d").failure(in: Expectation.Observation(
            statusCode: 200, latency: 0, body: nil, headers: [:], certificateExpiresIn: 31 * 86_400)) == nil)
    }

    @Test func aCertificateThatExpiresInTenDaysMeetsSevenNotFourteen() async throws {
        let pki = try TestCertificates()
        let validUntil = Date().addingTimeInterval(10 * 86_400)
        let server = try PythonTestServer(certificate: try pki.leaf(name: "api", validUntil: validUntil))
        defer { server.stop() }
        let spec = try ConfigLoader.parse("""
            service:
              baseURL: \(server.baseURL)
              tls: { ca: "\(pki.caCertificate)" }
            panes:
              - { title: Soon, resource: /a, every: 1s, expect: ["tls.expires > 14d"] }
              - { title: Fine, resource: /b, every: 1s, expect: ["tls.expires > 7d"] }
            """, file: "tls.yaml", environment: [:])
        let live = DashboardHarness(spec: spec, networking: .curl, start: Date().timeIntervalSinceReferenceDate, columns: 90, rows: 24)
        let app = live.app
        let backend = live.backend
        app.start()
        try await live.settle()
        let soon = app.panes[0]
        #expect(soon.probe.health == .unmet)
        #expect(soon.probe.unmetExpectation == "expected tls.expires > 14d, got in 9d 23h", "\(soon.probe.unmetExpectation ?? "met")")
        #expect(app.panes[1].probe.health == .ok)

        // Again over the kept connection: libcurl reads no certificate then; the origin's stands.
        try await live.advance(1)
        #expect(soon.probe.unmetExpectation == "expected tls.expires > 14d, got in 9d 23h")
        #expect(app.panes[1].probe.health == .ok)

        let expiry = Int(validUntil.timeIntervalSince1970)
        let metric = MetricsExposition.render(app.monitor, location: nil).split(separator: "\n")
            .first { $0.hasPrefix("hammock_tls_cert_expiry_timestamp_seconds{pane=\"Soon\"") }
        let value = try #require(metric.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) }, "\(String(describing: metric))")
        #expect(abs(value - expiry) <= 1, "the certificate's own end, to the second: \(value) vs \(expiry)")

        app.send(.key(.enter))
        app.send(.key(.character("2")))
        app.drawNow()
        let screen = backend.lines.joined(separator: "\n")
        #expect(screen.contains("│ TLS certificate"), "\(screen)")
        #expect(screen.contains("│ subject     CN = 127.0.0.1"), "\(screen)")
        #expect(screen.contains("│ issuer      CN = Hammock Test CA"), "\(screen)")
        #expect(screen.contains("(in 9d 23h)"), "\(screen)")
        app.stop()
    }
}
