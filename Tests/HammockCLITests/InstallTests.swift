import Foundation
import HammockHarness
import ResourceEngine
import Testing

/// `scripts/install.sh` into a temporary prefix (with the binary the tests built: the release
/// build is the script's own job), and the man page it installs kept in step with the commands.
@Suite(.serialized) struct InstallTests {
    static let repository = CLITests.repository

    @Test func installPutsTheBinaryManPageAndCompletionsUnderThePrefix() async throws {
        let prefix = ScratchDirectory.path("prefix")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let install = try await ProcessRunner.capture(
            [Self.repository.appendingPathComponent("scripts/install.sh").path, "--prefix", prefix + "/new/place", "--binary", CLITests.binary, "--no-deps"],
            environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
        #expect(install.status == 0, "\(install.output)\(install.errors)")
        #expect(install.output.contains("is not on your PATH; add it"), "says how to reach it: \(install.output)")
        let installed = prefix + "/new/place/bin/hammock"
        let version = try await ProcessRunner.capture([installed, "--version"], timeout: 30)
        #expect(version.output == "0.1.0\n")
        let size = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        #expect(size(installed) < size(CLITests.binary), "stripped")
        let nm = try await ProcessRunner.capture(["/usr/bin/nm", installed], timeout: 30)
        #expect(nm.errors.contains("no symbols"), "no symbol table left: \(nm.errors)")

        let share = prefix + "/new/place/share"
        let bash = share + "/bash-completion/completions/hammock"
        #expect(try await ProcessRunner.capture(["/bin/bash", "-n", bash], timeout: 30).status == 0)
        #expect(try String(contentsOfFile: bash, encoding: .utf8).contains("snapshot"))
        let zsh = share + "/zsh/site-functions/_hammock"
        #expect(try String(contentsOfFile: zsh, encoding: .utf8).hasPrefix("#compdef hammock"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") {
            #expect(try await ProcessRunner.capture(["/usr/bin/zsh", "-n", zsh], timeout: 30).status == 0)
        }
        #expect(try String(contentsOfFile: share + "/fish/vendor_completions.d/hammock.fish", encoding: .utf8).contains("complete -c 'hammock'"))
        let man = try await ProcessRunner.capture(["/usr/bin/man", "-w", "hammock"], environment: ["MANPATH": share + "/man", "PATH": "/usr/bin:/bin"], timeout: 30)
        #expect(man.output == share + "/man/man1/hammock.1\n", "\(man.output)\(man.errors)")

        // A wrong option is a wrong command line.
        let wrong = try await ProcessRunner.capture([Self.repository.appendingPathComponent("scripts/install.sh").path, "--perfix", prefix], timeout: 30)
        #expect(wrong.status == 64)
    }

    /// The binary users get is built as the size goal was measured: every module's functions in
    /// sections of their own, asked of the dependencies too through the toolset (DECISIONS §29).
    @Test func theShippedBuildsUseTheReleaseToolset() throws {
        let toolset = Self.repository.appendingPathComponent("packaging/release-toolset.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: toolset)) as? [String: Any]
        let swiftCompiler = json?["swiftCompiler"] as? [String: Any]
        let options = swiftCompiler?["extraCLIOptions"] as? [String] ?? []
        #expect(json?["schemaVersion"] as? String == "1.0")
        #expect(options == ["-Xfrontend", "-function-sections"], "\(options)")
        for script in ["scripts/install.sh", "scripts/build-deb.sh"] {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(script), encoding: .utf8)
            let builds = text.split(separator: "\n").filter { $0.contains("swift build") }
            #expect(!builds.isEmpty, "\(script) builds")
            for line in builds {
                #expect(line.contains("-c release") && line.contains("--static-swift-stdlib") && line.contains("--toolset packaging/release-toolset.json"), "\(script): \(line)")
            }
        }
    }

    /// docs/hammock.1 names every command and option `hammock` has (regenerate it with
    /// scripts/generate-man.sh), every exit status and every top-level config key, and groff
    /// reads it without a warning.
    @Test func theManPageKeepsUpWithTheCommands() async throws {
        let page = try String(contentsOf: Self.repository.appendingPathComponent("docs/hammock.1"), encoding: .utf8)
        let dump = try await ProcessRunner.capture([CLITests.binary, "--experimental-dump-help"], timeout: 30)
        let tool = try JSONParser.parse(dump.output)
        for command in tool["command"]?["subcommands"]?.arrayValue ?? [] where command["shouldDisplay"] != false {
            let name = try #require(command["commandName"]?.stringValue)
            #expect(page.contains(".It Em \(name)\n"), "the page has \(name); run scripts/generate-man.sh")
            for argument in command["arguments"]?.arrayValue ?? [] where argument["shouldDisplay"] != false {
                guard let long = argument["names"]?.arrayValue?.first(where: { $0["kind"] == "long" })?["name"]?.stringValue else { continue }
                #expect(page.contains("Fl -\(long)"), "the page has \(name) --\(long); run scripts/generate-man.sh")
            }
        }
        for status in ["0", "1", "2", "64", "70", "128+N"] { #expect(page.contains(".It \(status)\n")) }
        for key in ["title", "service", "services", "configure", "alerts", "panes", "layout", "mouse", "theme", "keys", "panes.tags", "service.auth.bearer"] {
            #expect(page.contains(".It Cm \(key)\n"), "the page describes \(key)")
        }
        let lint = try await ProcessRunner.capture(
            ["/usr/bin/groff", "-K", "utf8", "-mandoc", "-ww", "-z", Self.repository.appendingPathComponent("docs/hammock.1").path], timeout: 30)
        #expect(lint.status == 0 && lint.errors.isEmpty, "\(lint.errors)")
    }
}
