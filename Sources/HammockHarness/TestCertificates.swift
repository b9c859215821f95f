import Foundation

/// Certificates made for a test with the system's `openssl`, in a private temporary directory:
/// a test CA and leaf certificates it signs (for 127.0.0.1 and localhost unless told otherwise).
///
/// Nothing here is trusted by anything but the test that made it.
public final class TestCertificates: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A certificate and its key, as PEM files.
    public struct Pair: Sendable {
        public let certificate: String
        public let key: String
    }

    public let directory: String
    /// The test CA's certificate (PEM), to trust.
    public let caCertificate: String
    let caKey: String

    /// Makes a fresh CA.
    public init(name: String = "Hammock Test CA") throws {
        directory = ScratchDirectory.path("pki")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        caCertificate = directory + "/ca.pem"
        caKey = directory + "/ca.key"
        try TestCertificates.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "30",
            "-subj", "/CN=\(name)", "-keyout", caKey, "-out", caCertificate,
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A leaf certificate signed by the CA (or by itself, with `selfSigned`), valid from
    /// `validFrom` to `validUntil` (defaults: yesterday to 30 days from now), for `hosts` (IP
    /// addresses and DNS names), for servers or, with `client`, for clients.
    public func leaf(
        name: String, hosts: [String] = ["127.0.0.1", "localhost"], validFrom: Date? = nil, validUntil: Date? = nil,
        client: Bool = false, selfSigned: Bool = false
    ) throws -> Pair {
        let base = directory + "/" + name
        let pair = Pair(certificate: base + ".pem", key: base + ".key")
        try TestCertificates.openssl([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-subj", "/CN=\(hosts.first ?? name)", "-keyout", pair.key, "-out", base + ".csr",
        ])
        let alternatives = hosts.map { $0.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? "IP:\($0)" : "DNS:\($0)" }
        let extensions = """
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=\(client ? "clientAuth" : "serverAuth")
            \(alternatives.isEmpty || client ? "" : "subjectAltName=" + alternatives.joined(separator: ","))

            """
        try extensions.write(toFile: base + ".ext", atomically: true, encoding: .utf8)
        // `openssl ca` is the one that takes exact start and end dates (an expired certificate).
        let start = validFrom ?? Date().addingTimeInterval(-86_400)
        let end = validUntil ?? Date().addingTimeInterval(30 * 86_400)
        let config = """
            [ ca ]
            default_ca = test
            [ test ]
            database = \(base).index
            new_certs_dir = \(directory)
            serial = \(base).serial
            default_md = sha256
            policy = anything
            copy_extensions = none
            [ anything ]
            commonName = supplied

            """
        try config.write(toFile: base + ".cnf", atomically: true, encoding: .utf8)
        try "".write(toFile: base + ".index", atomically: true, encoding: .utf8)
        try String(format: "%016llX\n", UInt64.random(in: 1..<UInt64.max / 2)).write(toFile: base + ".serial", atomically: true, encoding: .utf8)
        var arguments = [
            "ca", "-batch", "-config", base + ".cnf", "-in", base + ".csr", "-out", pair.certificate, "-notext",
            "-extfile", base + ".ext", "-startdate", TestCertificates.stamp(start), "-enddate", TestCertificates.stamp(end),
        ]
        arguments += selfSigned ? ["-selfsign", "-keyfile", pair.key] : ["-cert", caCertificate, "-keyfile", caKey]
        try TestCertificates.openssl(arguments)
        return pair
    }

    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.string(from: date)
    }

    static func openssl(_ arguments: [String]) throws {
        let outcome = try ProcessRunner.captureBlocking(["openssl"] + arguments, timeout: 60)
        guard outcome.status == 0 else {
            throw Failure(description: "openssl \(arguments.first ?? "") failed: \(outcome.errors)")
        }
    }
}
