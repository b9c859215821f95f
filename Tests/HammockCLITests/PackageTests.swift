import Foundation
import Glibc
import HammockHarness
import Testing

/// `scripts/build-deb.sh`: the package's contents, its sandboxed unit as systemd reads it, and, on
/// CI's own machine (`.ci/run` says so), the package installed with dpkg and used.
@Suite(.serialized) struct PackageTests {
    static let repository = CLITests.repository

    func run(_ argv: [String], environment: [String: String]? = nil) async throws -> ProcessRunner.Outcome {
        try await ProcessRunner.capture(argv, environment: environment, timeout: 120)
    }

    @Test func theDebianPackageHoldsTheBinaryManPageCompletionsAndASandboxedUnit() async throws {
        let directory = ScratchDirectory.path("deb")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let build = try await run([Self.repository.appendingPathComponent("scripts/build-deb.sh").path, "--binary", CLITests.binary, "--output", directory])
        #expect(build.status == 0, "\(build.output)\(build.errors)")
        let deb = build.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix("/hammock_0.1.0_\(try await run(["/usr/bin/dpkg", "--print-architecture"]).output.trimmingCharacters(in: .whitespacesAndNewlines)).deb"))

        let info = try await run(["/usr/bin/dpkg-deb", "--field", deb, "Package", "Version", "Depends"]).output
        #expect(info.contains("Package: hammock") && info.contains("Version: 0.1.0") && info.contains("libcurl4") && info.contains("libjemalloc2") && info.contains("libyaml-0-2"), "\(info)")
        let contents = try await run(["/usr/bin/dpkg-deb", "--contents", deb]).output
        for path in [
            "./usr/bin/hammock", "./usr/share/man/man1/hammock.1.gz", "./usr/share/bash-completion/completions/hammock",
            "./usr/share/zsh/vendor-completions/_hammock", "./usr/share/fish/vendor_completions.d/hammock.fish",
            "./lib/systemd/system/hammock-serve@.service", "./usr/share/doc/hammock/examples/example.yaml",
        ] {
            #expect(contents.contains(" \(path)\n"), "the package holds \(path)")
        }
        #expect(contents.split(separator: "\n").allSatisfy { $0.contains(" root/root ") }, "every file root's, whoever built it")

        let root = directory + "/root"
        #expect(try await run(["/usr/bin/dpkg-deb", "-x", deb, root]).status == 0)
        #expect(try await run([root + "/usr/bin/hammock", "--version"]).output == "0.1.0\n")
        let check = try await run([root + "/usr/bin/hammock", "check", root + "/usr/share/doc/hammock/examples/example.yaml"])
        #expect(check.status == 0, "the example config checks: \(check.errors)")

        // The unit, as systemd reads it (ExecStart pointed at the unpacked binary: nothing is installed).
        let unit = try String(contentsOfFile: root + "/lib/systemd/system/hammock-serve@.service", encoding: .utf8)
        for line in ["DynamicUser=yes", "ProtectSystem=strict", "NoNewPrivileges=yes", "ExecStart=/usr/bin/hammock serve /etc/hammock/%i.yaml"] {
            #expect(unit.contains(line + (line.hasSuffix("yaml") ? "" : "\n")), "\(line)")
        }
        let instance = directory + "/hammock-serve@example.service"
        try unit.replacingOccurrences(of: "/usr/bin/hammock", with: root + "/usr/bin/hammock").write(toFile: instance, atomically: true, encoding: .utf8)
        let verify = try await run(["/usr/bin/systemd-analyze", "verify", "--man=no", instance])
        #expect(verify.status == 0 && verify.errors.isEmpty, "\(verify.errors)")

        // On CI's machine: install it, use it, remove it.
        guard ProcessInfo.processInfo.environment["HAMMOCK_CI_INSTALLS_PACKAGES"] == "1", geteuid() == 0 else { return }
        let install = try await run(["/usr/bin/dpkg", "-i", deb])
        #expect(install.status == 0, "\(install.output)\(install.errors)")
        defer { _ = try? ProcessRunner.run(["/usr/bin/dpkg", "-r", "hammock"], outputPath: "/dev/null", timeout: 120) }
        #expect(try await run(["/usr/bin/hammock", "--version"]).output == "0.1.0\n")
        #expect(try await run(["/usr/bin/man", "-w", "hammock"]).output == "/usr/share/man/man1/hammock.1.gz\n")
        let installed = try await run(["/usr/bin/systemd-analyze", "verify", "hammock-serve@example.service"])
        #expect(installed.status == 0 && installed.errors.isEmpty, "\(installed.errors)")
    }
}
