import Dashboard
import DemoServer
import DashboardConfig
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import ResourceEngine
import HammockHarness
import Testing

/// The built `hammock` binary, run as a user would from a script.
@Suite(.serialized) struct CLITests {
    static let binary = TmuxHarness.binDirectory.appendingPathComponent("hammock").path
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let demoConfig = repository.appendingPathComponent("config/demo.yaml").path

    func hammock(_ arguments: [String], environment extra: [String: String] = [:], in directory: String? = nil) async throws -> ProcessRunner.Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["no_proxy"] = "127.0.0.1,localhost"
        // Never the user's keys.yaml: `check` reads it.
        environment["XDG_CONFIG_HOME"] = ScratchDirectory.path("cli-config")
        for (key, value) in extra { environment[key] = value }
        if let directory {
            return try await ProcessRunner.capture(["/bin/sh", "-c", "cd '\(directory)' && exec '\(Self.binary)' \"$@\"", "hammock"] + arguments, environment: environment, timeout: 60)
        }
        return try await ProcessRunner.capture([Self.binary] + arguments, environment: environment, timeout: 60)
    }

    func temporaryDirectory() throws -> String {
        let url = URL(fileURLWithPath: ScratchDirectory.path("cli"))
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// `check` reads the user's keys.yaml as the dashboard does: a conflict there is a problem at
    /// its line:col, and the config's own `keys:` too.
    @Test func checkReportsKeyConflictsAtTheirPlace() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let home = directory + "/config"
        try FileManager.default.createDirectory(atPath: home + "/hammock", withIntermediateDirectories: true)
        try "# my keys\nretry: [T, k]\n".write(toFile: home + "/hammock/keys.yaml", atomically: true, encoding: .utf8)
        try """
            service: { baseURL: "http://127.0.0.1:9/" }
            panes:
              - { title: Health, resource: /health }
            keys:
              relaod: x
            """.write(toFile: directory + "/hammock.yaml", atomically: true, encoding: .utf8)
        var outcome = try await hammock(["check", "hammock.yaml"], environment: ["XDG_CONFIG_HOME": home], in: directory)
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("\(home)/hammock/keys.yaml:2:12: keys.retry: k is already up in the grid; give retry another key, or up one"), "\(outcome.errors)")
        #expect(outcome.errors.contains("hammock.yaml:5:3: unknown action \"relaod\" under keys (did you mean \"reload\"?)"), "\(outcome.errors)")
        try "retry: T\n".write(toFile: home + "/hammock/keys.yaml", atomically: true, encoding: .utf8)
        outcome = try await hammock(["check", "hammock.yaml"], environment: ["XDG_CONFIG_HOME": home], in: directory)
        #expect(outcome.status == 2 && !outcome.errors.contains("keys.yaml"), "\(outcome.errors)")
        // snapshot reads no keys.yaml, and has no use for the config's keys beyond checking them.
        try "retry: k\n".write(toFile: home + "/hammock/keys.yaml", atomically: true, encoding: .utf8)
        outcome = try await hammock(["snapshot", "hammock.yaml"], environment: ["XDG_CONFIG_HOME": home], in: directory)
        #expect(!outcome.errors.contains("keys.yaml"), "\(outcome.errors)")
    }

    /// Each exit status README's table names, as a script sees it; `check` and `snapshot` agree.
    @Test func exitStatusesSayWhatHappened() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "service: { baseURL: \"http://127.0.0.1:1/\" }\npanes:\n  - { title: Down, resource: /down }\n"
            .write(toFile: directory + "/down.yaml", atomically: true, encoding: .utf8)
        try "service: { baseURL: \"http://127.0.0.1:1/\" }\npanes:\n  - { title: A, resource: /a, every: fast }\n"
            .write(toFile: directory + "/bad.yaml", atomically: true, encoding: .utf8)
        let cases: [([String], Int32)] = [
            (["check", "down.yaml"], 0),
            (["snapshot", "down.yaml"], 1),
            (["check", "bad.yaml"], 2), (["snapshot", "bad.yaml"], 2), (["events", "bad.yaml"], 2), (["serve", "bad.yaml"], 2),
            (["check", "missing.yaml"], 2), (["snapshot", "missing.yaml"], 2),
            (["check"], 2),
            (["snapshto", "down.yaml"], 64), (["snapshot", "--bogus", "down.yaml"], 64), (["snapshot", "--width", "5", "down.yaml"], 64),
            (["down.yaml"], 64),
            (["init", "--output", directory + "/no/such/folder/hammock.yaml"], 70),
        ]
        for (arguments, status) in cases {
            let outcome = try await hammock(arguments, in: directory)
            #expect(outcome.status == status, "hammock \(arguments.joined(separator: " ")): \(outcome.errors)")
        }
        // The help's list and README's table say the same.
        let help = try await hammock(["--help"]).output.replacingOccurrences(of: "\n", with: " ")
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        for status: Int32 in [0, 1, 2, 64, 70] {
            let row = try #require(readme.components(separatedBy: "\n").first { $0.hasPrefix("| \(status) | ") }, "README's row for \(status)")
            let meaning = String(row.dropFirst("| \(status) | ".count).dropLast(2))
            #expect(help.replacingOccurrences(of: "  ", with: " ").contains("\(status) \(meaning)"), "--help says \(status): \(meaning)")
        }
    }

    /// The config is the argument or --config, then HAMMOCK_CONFIG, then ./hammock.yaml, then
    /// $XDG_CONFIG_HOME/hammock/hammock.yaml.
    @Test func theConfigIsFoundInTheOrderTheHelpGives() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let home = directory + "/home"
        try FileManager.default.createDirectory(atPath: home + "/hammock", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/work", withIntermediateDirectories: true)
        func write(_ title: String, _ path: String) throws {
            try "title: \(title)\nservice: { baseURL: \"http://127.0.0.1:1/\" }\npanes:\n  - { title: A, resource: /a }\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
        try write("Personal", home + "/hammock/hammock.yaml")
        try write("Named", directory + "/named.yaml")
        try write("Given", directory + "/given.yaml")
        let work = directory + "/work"
        func title(_ arguments: [String], _ environment: [String: String]) async throws -> String {
            let outcome = try await hammock(["check"] + arguments, environment: ["XDG_CONFIG_HOME": home].merging(environment) { $1 }, in: work)
            return outcome.output.components(separatedBy: "\n").first { $0.hasPrefix("Given") || $0.hasPrefix("Named") || $0.hasPrefix("Personal") || $0.hasPrefix("Here") }?
                .components(separatedBy: " ").first ?? "status \(outcome.status): \(outcome.errors)"
        }
        #expect(try await title([], [:]) == "Personal")
        try write("Here", work + "/hammock.yaml")
        #expect(try await title([], [:]) == "Here")
        #expect(try await title([], ["HAMMOCK_CONFIG": directory + "/named.yaml"]) == "Named")
        #expect(try await title(["--config", directory + "/given.yaml"], ["HAMMOCK_CONFIG": directory + "/named.yaml"]) == "Given")
        #expect(try await title([directory + "/given.yaml"], ["HAMMOCK_CONFIG": directory + "/named.yaml"]) == "Given")
        let twice = try await hammock(["check", directory + "/given.yaml", "--config", directory + "/named.yaml"], in: work)
        #expect(twice.status == 64 && twice.errors.contains("give the config once"), "\(twice.errors)")
        let help = try await hammock(["--help"])
        #expect(help.output.replacingOccurrences(of: "\n", with: " ").contains("$HAMMOCK_CONFIG, then ./hammock.yaml, then $XDG_CONFIG_HOME/hammock/hammock.yaml"))
    }

    /// `snapshot --tag` and `serve --tag` take only the panes tagged so; a tag no pane has is a
    /// wrong command line.
    @Test func tagsChooseThePanesASnapshotTakes() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            service: { baseURL: "http://127.0.0.1:1/" }
            panes:
              - { title: Health, resource: /health, tags: [core] }
              - { title: Payments, resource: /payments, tags: [payments, edge] }
              - { title: Refunds, resource: /refunds, tags: [payments] }
            """.write(toFile: directory + "/hammock.yaml", atomically: true, encoding: .utf8)
        let outcome = try await hammock(["snapshot", "--json", "--tag", "payments"], in: directory)
        let json = try JSONParser.parse(outcome.output)
        #expect(json["panes"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Payments", "Refunds"])
        let two = try await hammock(["snapshot", "--json", "--tag", "core", "--tag", "edge"], in: directory)
        #expect(try JSONParser.parse(two.output)["panes"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Health", "Payments"])
        let unknown = try await hammock(["snapshot", "--tag", "billing"], in: directory)
        #expect(unknown.status == 64 && unknown.errors == "no pane is tagged billing (tags: core, edge, payments)\n", "\(unknown.errors)")
        let serve = try await hammock(["serve", "--tag", "billing", "--listen", "127.0.0.1:0"], in: directory)
        #expect(serve.status == 64)
    }

    @Test func versionAndHelp() async throws {
        #expect(try await hammock(["--version"]).output == "0.1.0\n")
        let help = try await hammock(["--help"])
        #expect(help.status == 0)
        for command in ["demo", "check", "snapshot", "events", "init"] { #expect(help.output.contains(command)) }
    }

    /// A mistyped command is named as one, with what was probably meant, and a usage status (64):
    /// not opened as a config file, nor failing on the argument after it.
    @Test(arguments: [
        (["snapsot", "demo.yaml"], "unknown command 'snapsot'; did you mean 'hammock snapshot'?"),
        (["version"], "unknown command 'version'; did you mean 'hammock --version'?"),
        (["chek"], "did you mean 'hammock check'?"),
        (["evnets", "x.yaml"], "did you mean 'hammock events'?"),
        (["Serve"], "did you mean 'hammock serve'?"),
        (["zzz"], "unknown command 'zzz'\nCommands: open, demo, check, snapshot, events, serve, init, schema, help."),
    ])
    func aMistypedCommandIsToldWhatWasMeant(arguments: [String], message: String) async throws {
        let directory = try temporaryDirectory()
        let outcome = try await hammock(arguments, in: directory)
        #expect(outcome.status == 64)
        #expect(outcome.errors.hasPrefix("hammock: unknown command '\(arguments[0])'") && outcome.errors.contains(message), "\(outcome.errors)")
        #expect(outcome.output.isEmpty)
    }

    /// A word that names a file in the working directory is that file, as it always was.
    @Test func aFileNamedLikeAWordIsStillOpened() async throws {
        let directory = try temporaryDirectory()
        try "panes: []\n".write(toFile: directory + "/prod", atomically: true, encoding: .utf8)
        let outcome = try await hammock(["check", "prod"], in: directory)
        #expect(!outcome.errors.contains("unknown command"))
        let opened = try await hammock(["prod"], in: directory)
        #expect(!opened.errors.contains("unknown command"), "\(opened.errors)")
    }

    /// The binary allocates with jemalloc, one arena for all its threads and the thread caches at
    /// their default reach (docs/performance-journal.md), and a user's MALLOC_CONF still changes that.
    @Test func itAllocatesWithJemallocInOneArena() async throws {
        let stats = try await hammock(["--version"], environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(stats.status == 0)
        #expect(stats.errors.contains("jemalloc statistics"))
        #expect(stats.errors.contains("opt.narenas: 1\n"))
        #expect(stats.errors.contains("opt.tcache_max: 32768\n"))
        let chosen = try await hammock(["--version"], environment: ["MALLOC_CONF": "stats_print:true,narenas:3,tcache_max:4096"])
        #expect(chosen.errors.contains("opt.narenas: 3\n"))
        #expect(chosen.errors.contains("opt.tcache_max: 4096\n"))
    }

    @Test func withoutAConfigItSaysHowToStart() async throws {
        let outcome = try await hammock([], in: try temporaryDirectory())
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("No config found. Looked for ./hammock.yaml and "), "\(outcome.errors)")
        #expect(outcome.errors.contains("hammock demo"))
        #expect(outcome.errors.contains("hammock init"))
    }

    @Test func withoutATerminalItPointsToSnapshotAndEvents() async throws {
        let outcome = try await hammock([Self.demoConfig])
        #expect(outcome.status == 64)
        #expect(outcome.errors == "hammock needs a terminal to draw in. From scripts use `hammock snapshot \(Self.demoConfig)` or `hammock events \(Self.demoConfig)`.\n")
    }

    @Test func checkReportsEveryProblemWithPositions() async throws {
        let directory = try temporaryDirectory()
        let path = directory + "/bad.yaml"
        try "service:\n  baseURL: ftp://x\npanes:\n  - title: A\n    resource: /a\n    show: tabel\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await hammock(["check", path])
        #expect(outcome.status == 2)
        #expect(outcome.errors == """
            \(path):2:12: service.baseURL "ftp://x" is not an http or https URL
            \(path):5:15: resource "/a" is a path, so service.baseURL is needed
            \(path):6:11: unknown show mode "tabel" (one of fields, table, text, json, value) (did you mean "table"?)
            3 problems in \(path)

            """)
    }

    @Test func checkAcceptsAGoodFileAndRedactsSecrets() async throws {
        let directory = try temporaryDirectory()
        let path = directory + "/good.yaml"
        try "service:\n  baseURL: https://api.test/\n  headers:\n    Authorization: Bearer ${TOKEN}\npanes:\n  - title: A\n    resource: /a\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await hammock(["check", path], environment: ["TOKEN": "super-secret-value"])
        #expect(outcome.status == 0)
        #expect(outcome.output.hasPrefix("✓ \(path): 1 pane, 0 configure blocks\n"))
        #expect(outcome.output.contains("header Authorization: Bearer ${TOKEN}"))
        #expect(!outcome.output.contains("super-secret-value"))
    }

    @Test func initWritesAStarterThatChecksAndRefusesToOverwrite() async throws {
        let directory = try temporaryDirectory()
        let first = try await hammock(["init"], in: directory)
        #expect(first.status == 0)
        #expect(first.output == "Wrote hammock.yaml and hammock.schema.json (its schema, for editors). Edit it, then run `hammock check hammock.yaml` and `hammock hammock.yaml`.\n")
        #expect(try await hammock(["check", "hammock.yaml"], in: directory).status == 0)
        // The first line names the schema written beside it, which is `hammock schema`'s.
        let written = try String(contentsOfFile: directory + "/hammock.yaml", encoding: .utf8)
        #expect(written.hasPrefix("# yaml-language-server: $schema=./hammock.schema.json\n"))
        let schema = try String(contentsOfFile: directory + "/hammock.schema.json", encoding: .utf8)
        #expect(schema == (try await hammock(["schema"]).output))
        #expect(schema.contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\""))
        let second = try await hammock(["init"], in: directory)
        #expect(second.status == 64)
        #expect(second.errors == "hammock.yaml already exists; use --force to overwrite it\n")
        #expect(try await hammock(["init", "--force"], in: directory).status == 0)
    }

    @Test func theBuiltInDemoConfigIsConfigDemoYaml() async throws {
        // After editing config/demo.yaml, paste it into Sources/DemoServer/DemoConfig.swift.
        #expect(DemoConfig.yaml == (try String(contentsOfFile: Self.demoConfig, encoding: .utf8)))
    }

    @Test func snapshotPrintsTheFrameAndFailsWhenAPaneFails() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let outcome = try await hammock(["snapshot", Self.demoConfig, "--width", "100", "--height", "24"], environment: ["HAMMOCK_DEMO_URL": api.baseURL])
        #expect(outcome.status == 1, "Payments always fails")
        let lines = outcome.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The ✓/⚠ split depends on latency expectations and so on machine load; the failure does not.
        #expect(lines[0].hasPrefix(" Demo Shop API · demo.yaml · 8 panes  ✓"))
        #expect(lines[0].contains(" ✗1 "))
        #expect(lines.contains { $0.contains("│ status   UP") })
        #expect(lines.contains { $0.contains("│ 503 · Payment gateway unavailable") }, "errorMessage lifted the message from the body")
        #expect(lines.contains { $0.contains("│ name  Ada Lovelace") }, "the bearer token from configure reached /secure")
        #expect(lines.count == 24, "the frame without its footer of keys")
        #expect(!outcome.output.contains("? help") && !outcome.output.contains("r reload"), "no key hints in a log")
    }

    /// JUnit (read back by libxml2 through FoundationXML, every element and attribute the JUnit
    /// schema requires present) and TAP, to standard output or to files beside the frame.
    @Test func snapshotWritesReportsCISystemsRead() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = directory + "/junit.xml"
        let outcome = try await hammock(
            ["snapshot", Self.demoConfig, "--report-junit", report, "--report-tap", directory + "/tap.txt"], environment: ["HAMMOCK_DEMO_URL": api.baseURL])
        #expect(outcome.status == 1)
        #expect(outcome.output.hasPrefix(" Demo Shop API"), "the frame as ever")
        var info = stat()
        #expect(stat(report, &info) == 0 && info.st_mode & 0o777 == 0o600, "a private file")
        let xml = try Data(contentsOf: URL(fileURLWithPath: report))
        let reader = JUnitReader()
        let parser = XMLParser(data: xml)
        parser.delegate = reader
        #expect(parser.parse(), "well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
        #expect(reader.elements.first?.name == "testsuites")
        let suite = try #require(reader.elements.first { $0.name == "testsuite" })
        for attribute in ["name", "tests", "failures", "errors", "skipped", "time", "timestamp", "hostname"] {
            #expect(suite.attributes[attribute] != nil, "testsuite has \(attribute)")
        }
        #expect(suite.attributes["name"] == "Demo Shop API" && suite.attributes["tests"] == "8")
        let cases = reader.elements.filter { $0.name == "testcase" }
        #expect(cases.count == 8 && cases.allSatisfy { $0.attributes["name"] != nil && $0.attributes["classname"] != nil && $0.attributes["time"] != nil })
        let failures = reader.elements.filter { $0.name == "failure" }
        #expect(failures.count == Int(suite.attributes["failures"] ?? "") && failures.allSatisfy { $0.attributes["message"] != nil })
        #expect(failures.contains { $0.attributes["message"] == "Payment gateway unavailable" && $0.text.contains("/payments → 503") })

        let tap = try String(contentsOfFile: directory + "/tap.txt", encoding: .utf8).components(separatedBy: "\n")
        #expect(tap.prefix(2) == ["TAP version 14", "1..8"])
        #expect(tap.contains("ok 1 - Health") && tap.contains("not ok 3 - Payments"), "\(tap)")
        #expect(tap.contains("  message: \"Payment gateway unavailable\""))

        let printed = try await hammock(["snapshot", Self.demoConfig, "--format", "junit"], environment: ["HAMMOCK_DEMO_URL": api.baseURL])
        #expect(printed.output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hammock\""))
        let both = try await hammock(["snapshot", Self.demoConfig, "--json", "--format", "tap"])
        #expect(both.status == 64)
    }

    @Test func snapshotJSONDescribesEachPane() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let outcome = try await hammock(["snapshot", Self.demoConfig, "--json"], environment: ["HAMMOCK_DEMO_URL": api.baseURL])
        #expect(outcome.status == 1)
        let json = try JSONParser.parse(outcome.output)
        #expect(json["ok"] == false)
        #expect(json["schemaVersion"] == 1 && json["hammockVersion"] == "0.1.0" && json["durationMs"]?.intValue != nil)
        #expect(json["generatedAt"]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) } != nil)
        #expect(json["panes"]?[0]?["urlSent"]?.stringValue?.hasSuffix("/health") == true)
        let panes = try #require(json["panes"]?.arrayValue)
        #expect(panes.count == 8)
        #expect(panes[0]["title"] == "Health")
        #expect(panes[0]["status"] == 200)
        #expect(panes[0]["data"]?["status"] == "UP")
        #expect(panes[2]["error"] == "Payment gateway unavailable")
        #expect(panes[2]["status"] == 503)
        #expect(panes[7]["data"] == 17 || panes[7]["data"] == 18 || panes[7]["data"] == 19)
    }

    /// The expectation grammar over real answers (the demo API): each part judged, the failing
    /// part named, through `snapshot --json`.
    @Test func expectationsJudgeRealAnswers() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            service: { baseURL: "\(api.baseURL)" }
            panes:
              - title: Health
                resource: /health
                expect:
                  - status >= 200 && status < 300 && body.status in [UP, OK]
                  - body.version startsWith 1. && body.version =~ ^[0-9]+\\.[0-9]+ && not body.status == DOWN
                  - body.uptime exists && body.missing not exists && body.status isString
                  - "[STATUS] == any(200, 204) && [RESPONSE_TIME] < 5000 && [BODY].status == pat(U*)"
              - title: Payments
                resource: /payments
                expect: ["status == 503 && body.message contains gateway", "[CONNECTED] == true"]
              - title: Health again
                resource: /health
                expect: ["status == 200 && (body.status == DOWN || len(body.version) > 10)"]
            """.write(toFile: directory + "/real.yaml", atomically: true, encoding: .utf8)
        let outcome = try await hammock(["snapshot", "real.yaml", "--json"], in: directory)
        let json = try JSONParser.parse(outcome.output)
        let panes = try #require(json["panes"]?.arrayValue)
        #expect(panes.count == 3, "\(outcome.errors)")
        #expect(panes[0]["ok"] == true && panes[0]["unmet"] == .null, "\(panes[0])")
        #expect(panes[1]["ok"] == true, "an answer the expectations ask for is the pane working: \(panes[1])")
        #expect(panes[2]["ok"] == false)
        #expect(
            panes[2]["unmet"]?.stringValue == #"none held: expected body.status == DOWN, got "UP"; expected len(body.version) > 10, got 5"#,
            "\(panes[2])")
        #expect(outcome.status == 1)
    }

    @Test func theDemoAPITurnsNagleOffSoItsLatenciesAreReal() async throws {
        let api = try await DemoAPI.start()
        defer { Task { await api.stop() } }
        let session = URLSession(configuration: .ephemeral)
        for _ in 0..<2 { _ = try await session.data(from: URL(string: api.baseURL + "health")!) }
        let sockets = SocketInspector.noDelay(localPort: api.port)
        #expect(sockets.count >= 2, "the listening socket and the kept-alive connection")
        #expect(sockets.allSatisfy { $0 }, "every demo API socket has TCP_NODELAY: \(sockets)")
        session.invalidateAndCancel()
    }

    @Test func snapshotSucceedsWhenEveryPaneLoads() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = try temporaryDirectory()
        let path = directory + "/ok.yaml"
        try "service:\n  baseURL: \(api.baseURL)\npanes:\n  - title: Health\n    resource: /health\n    show: value\n    select: status\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await hammock(["snapshot", path, "--width", "40", "--height", "6"])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("UP"))
    }

    @Test func snapshotFailsWhenAnExpectationIsUnmet() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = try temporaryDirectory()
        let path = directory + "/expect.yaml"
        try "service:\n  baseURL: \(api.baseURL)\npanes:\n  - title: Health\n    resource: /health\n    show: value\n    select: status\n    expect: [\"status == 200\", \"body.version == 2.0.0\"]\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await hammock(["snapshot", path, "--json"])
        #expect(outcome.status == 1)
        let json = try JSONParser.parse(outcome.output)
        #expect(json["panes"]?[0]?["unmet"] == #"expected body.version == 2.0.0, got "1.4.2""#)
        #expect(json["panes"]?[0]?["expectations"]?[0]?["ok"] == true)
        #expect(json["panes"]?[0]?["expectations"]?[1]?["ok"] == false)
        let events = try await hammock(["events", path, "--count", "3"])
        #expect(events.output.contains(#""event":"ExpectationFailed""#))
    }

    @Test func eventsRefusesACountBelowOne() async throws {
        for count in ["-5", "0"] {
            let outcome = try await hammock(["events", Self.demoConfig, "--count=\(count)"])
            #expect(outcome.status != 0)
            #expect(outcome.errors.contains("--count must be 1 or more, not \(count)"), "\(outcome.errors)")
        }
    }

    @Test func eventsStreamsJSONLines() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = try temporaryDirectory()
        let path = directory + "/events.yaml"
        try "service:\n  baseURL: \(api.baseURL)\npanes:\n  - title: Health\n    resource: /health\n  - title: Payments\n    resource: /payments\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await hammock(["events", path, "--count", "4"])
        #expect(outcome.status == 0)
        let events = try outcome.output.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(events.count == 4)
        #expect(Set(events.compactMap { $0["event"]?.stringValue }) == ["Requested", "NewData(Network)", "Error"])
        let error = try #require(events.first { $0["event"] == "Error" })
        #expect(error["status"] == 503)
        #expect(error["resource"] == .string(api.baseURL + "payments"))
        #expect(error["message"] == "Payment gateway unavailable", "the error body's own message")
        #expect(error["time"]?.stringValue?.hasSuffix("Z") == true)
    }

    @Test func logsGoToTheLogFile() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = try temporaryDirectory()
        let path = directory + "/log.yaml"
        try "service:\n  baseURL: \(api.baseURL)\npanes:\n  - title: Health\n    resource: /health\n".write(toFile: path, atomically: true, encoding: .utf8)
        let log = directory + "/hammock.log"
        let outcome = try await hammock(["snapshot", path, "--log", "network,stateChanges", "--log-file", log])
        #expect(outcome.status == 0)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains("[network] GET \(api.baseURL)health"))
        #expect(text.contains("[stateChanges]"))
        let bad = try await hammock(["snapshot", path, "--log", "netwrk"])
        #expect(bad.status != 0)
        #expect(bad.errors.contains("unknown log category \"netwrk\""))
    }
}

/// The elements of an XML document, with their attributes and text, as libxml2 reads them.
final class JUnitReader: NSObject, XMLParserDelegate {
    struct Element {
        let name: String
        let attributes: [String: String]
        var text = ""
    }

    var elements: [Element] = []
    private var open: [Int] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        open.append(elements.count)
        elements.append(Element(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let last = open.last { elements[last].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }
}
