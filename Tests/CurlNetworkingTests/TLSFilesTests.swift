import Foundation
import Glibc
import HammockHarness
import ResourceEngine
import Testing

/// What the transport hands libcurl and OpenSSL for TLS: bytes it read itself from regular files,
/// never a path they could block on (a FIFO), and a key always with a passphrase (empty when none
/// is given), so OpenSSL never asks for one on the terminal.
@MainActor
@Suite(.serialized) struct TLSFilesTests {
    let pki: TestCertificates
    let server: PythonTestServer
    let directory: String

    init() throws {
        pki = try TestCertificates()
        server = try PythonTestServer(certificate: try pki.leaf(name: "server"), clientCA: pki.caCertificate)
        directory = ScratchDirectory.path("tls-files")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    private func load(_ tls: TLSOptions) async -> Response {
        let service = Service(networking: CurlProvider())
        service.configure("**") {
            $0.transport.tls = tls
            $0.timeout = 10
        }
        return await service.resource(absoluteURL: server.url("/health")).load().result
    }

    private func message(_ response: Response) -> String? {
        if case .failure(let error) = response { error.userMessage } else { nil }
    }

    @Test func anEncryptedKeyWorksWithItsPassphraseAndFailsWithoutOne() async throws {
        let client = try pki.leaf(name: "me", client: true)
        let encrypted = directory + "/me-encrypted.key"
        let outcome = try await ProcessRunner.capture(
            ["openssl", "pkey", "-in", client.key, "-aes256", "-passout", "pass:sesame", "-out", encrypted], environment: ProcessInfo.processInfo.environment,
            timeout: 30)
        #expect(outcome.status == 0, "\(outcome.errors)")
        let good = await load(TLSOptions(caFile: pki.caCertificate, clientCertificate: client.certificate, clientKey: encrypted, clientKeyPassword: "sesame"))
        #expect(message(good) == nil, "\(good)")
        for password in [nil, "wrong"] {
            let refused = await load(TLSOptions(caFile: pki.caCertificate, clientCertificate: client.certificate, clientKey: encrypted, clientKeyPassword: password))
            #expect(message(refused) == "tls.clientKey cannot be used: it is encrypted and its passphrase is missing or wrong (tls.clientKeyPassword)")
        }
    }

    @Test func aFIFOWhereAFileShouldBeIsRefusedNotWaitedOn() async throws {
        let client = try pki.leaf(name: "me", client: true)
        let fifo = directory + "/trap.pem"
        #expect(mkfifo(fifo, 0o600) == 0)
        let asCA = await load(TLSOptions(caFile: fifo))
        #expect(message(asCA) == "tls.ca \(fifo): is not a regular file")
        let asKey = await load(TLSOptions(caFile: pki.caCertificate, clientCertificate: client.certificate, clientKey: fifo))
        #expect(message(asKey) == "tls.clientKey \(fifo): is not a regular file")
    }
}
