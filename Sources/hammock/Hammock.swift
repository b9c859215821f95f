import ArgumentParser
import Dashboard
import DashboardConfig
import DemoServer
import FoundationEssentials
import Glibc
import MetricsServer
import Monitor
import PrivateFiles
import Redaction
import ResourceEngine
import TerminalUI
import TextBasics

/// The `hammock` command line.
@main
struct Hammock: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "hammock",
        abstract: "A full-screen terminal monitor for HTTP APIs.",
        discussion: """
            hammock [CONFIG]          open the dashboard
            hammock demo              serve a demo API on 127.0.0.1 and open it
            hammock check [CONFIG]    validate; exit 2 and print every problem
            hammock snapshot [CONFIG] load each pane once, print the frame (--json)
            hammock events [CONFIG]   stream resource events as JSON lines
            hammock serve [CONFIG]    probe headless; serve /metrics for Prometheus
            hammock init              write a commented starter hammock.yaml (and its schema)
            hammock schema            print the config's JSON Schema, for editors

            Config: \(ConfigOptions.order).
            Exit status: \(ExitStatus.allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ")); 128+N ended by signal N.
            """,
        version: version,
        subcommands: [Open.self, Demo.self, Check.self, SnapshotCommand.self, Events.self, Serve.self, Init.self, Schema.self],
        defaultSubcommand: Open.self)

    static func main() async {
        let commands = configuration.subcommands.map { $0._commandName } + ["help"]
        if let message = CommandGuess.unknownCommand(
            in: Array(CommandLine.arguments.dropFirst()), commands: commands, exists: { FileManager.default.fileExists(atPath: $0) }) {
            printError(message)
            leave(ExitCode.validationFailure.rawValue)
        }
        await main(nil)
    }

    /// The transport every command uses: libcurl directly (see `CurlProvider` for why not URLSession).
    @MainActor
    static func networking() -> any NetworkingProvider {
        raiseOpenFileLimit()
        return CurlProvider(options: .init(userAgent: "hammock/\(version)"))
    }

    /// Every transfer holds a socket: lift the soft open-file limit (often 1,024) to the hard one
    /// (up to 65,536), so a thousand endpoints that hang at once are not refused sockets.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = min(limit.rlim_max, 65_536)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = wanted
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// Ends the process now, the terminal already restored.
///
/// `_exit`, not `exit`: atexit handlers and static destructors would run while the transfer and
/// server threads are still working, and that race occasionally crashed on the way out.
func leave(_ status: Int32) -> Never {
    fflush(nil)
    Glibc._exit(status)
}

/// Writes a line to standard error, through the screen's sanitiser: config text and messages
/// from servers can hold escape sequences (a title with OSC 52 would write the clipboard).
func printError(_ message: String) {
    OutputFile.standardError.write(sanitized(message) + "\n")
}

/// Writes a line to standard output at once (no buffering: scripts read it as it comes), through
/// the screen's sanitiser.
func printLine(_ message: String) {
    OutputFile.standardOutput.write(sanitized(message) + "\n")
}

/// Text safe for a terminal, line by line (`Sanitizer`, as for the screen).
func sanitized(_ text: String) -> String {
    Sanitizer.lines(text).joined(separator: "\n")
}

/// Loads a config or prints every problem and exits 2 (`ExitStatus.invalidConfig`); with `keys`, the user's `keys.yaml` too
/// (for the dashboard and `check`: the headless commands have no keys).
func loadConfig(
    _ path: String, environment: [String: String] = ProcessInfo.processInfo.environment, keys: Bool = false, withoutSecrets: Bool = false
) throws -> DashboardSpec {
    do {
        return try ConfigLoader.load(
            path: path, environment: environment, keysFile: keys ? ConfigLoader.personalKeysPath(environment: environment) : nil,
            withoutSecrets: withoutSecrets)
    } catch {
        for warning in error.warnings { printError("\(warning.file):\(warning.line):\(warning.column): warning: \(warning.message)") }
        for problem in error.problems { printError(problem.description) }
        var files: [String] = []
        for problem in error.problems where !files.contains(problem.file) { files.append(problem.file) }
        printError("\(error.problems.count) problem\(error.problems.count == 1 ? "" : "s") in \((files.isEmpty ? [path] : files).joined(separator: " and "))")
        throw ExitStatus.invalidConfig.exit
    }
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Log engine activity: a comma-separated list of categories, or all.", discussion: "Categories: \(EngineLog.Category.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "categories"))
    var log: String?

    @Option(name: .customLong("log-file"), help: ArgumentHelp("Where logs go (default: standard error; hammock.log while the dashboard is on screen).", valueName: "path"))
    var logFile: String?

    /// Turns logging on as asked; `interactive` keeps logs off the screen the dashboard draws on.
    /// Every line goes through `redactor` (the config's secrets), and a log file is private (0600).
    func apply(interactive: Bool, redactor: SharedRedactor) throws {
        guard let log else { return }
        var categories = Set<EngineLog.Category>()
        for name in log.split(separator: ",").map({ $0.trimmingWhitespace() }) where !name.isEmpty {
            if name == "all" {
                categories.formUnion(EngineLog.Category.allCases)
            } else if let category = EngineLog.Category(rawValue: name) {
                categories.insert(category)
            } else {
                throw ValidationError("unknown log category \"\(name)\"; use \(EngineLog.Category.allCases.map(\.rawValue).joined(separator: ", ")) or all")
            }
        }
        let path = logFile ?? (interactive ? "hammock.log" : nil)
        if let path {
            let handle: OutputFile
            do { handle = try PrivateFiles.openForWriting(path) } catch { throw ValidationError("cannot write the log file: \(error)") }
            EngineLog.handler = { category, message in
                handle.write("\(EventLine.timestamp(Date().timeIntervalSinceReferenceDate)) [\(category.rawValue)] \(redactor.redact(message))\n")
            }
        } else {
            EngineLog.handler = { category, message in
                OutputFile.standardError.write(sanitized("[\(category.rawValue)] \(redactor.redact(message))") + "\n")
            }
        }
        EngineLog.enabled = categories
    }
}

/// Where the dashboard keeps data and histories between runs.
struct CacheOptions: ParsableArguments {
    @Flag(help: "Do not read or write the persistent cache.")
    var noCache = false

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("The cache directory (default: $XDG_CACHE_HOME/hammock or ~/.cache/hammock).", valueName: "path"))
    var cacheDir: String?

    var directory: URL? {
        noCache ? nil : cacheDir.map { URL(fileURLWithPath: $0) } ?? DiskEntityCache.hammockDirectory()
    }
}

// MARK: Commands

struct Open: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: "Open the dashboard (the default command).")

    @OptionGroup var config: ConfigOptions

    @Option(
        name: .customLong("metrics-listen"),
        help: ArgumentHelp("Also serve /metrics, /healthz and /api/panes on this address (as hammock serve).", valueName: "host:port"))
    var metricsListen: String?

    @OptionGroup var global: GlobalOptions
    @OptionGroup var cache: CacheOptions
    @OptionGroup var screen: ScreenOptions

    func validate() throws {
        if let metricsListen {
            do { _ = try ListenAddress(parsing: metricsListen) } catch { throw ValidationError("--metrics-listen \(error.message)") }
        }
    }

    func run() async throws {
        let path = try config.path()
        let spec = try loadConfig(path, keys: true)
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            printError("hammock needs a terminal to draw in. From scripts use `hammock snapshot \(path)` or `hammock events \(path)`.")
            throw ExitStatus.usage.exit
        }
        let redactor = SharedRedactor(Redactor(spec))
        try global.apply(interactive: true, redactor: redactor)
        let status = await DashboardRunner.run(
            spec: spec, environment: ProcessInfo.processInfo.environment, cacheDirectory: cache.directory, redactor: redactor,
            metricsListen: try metricsListen.map { try ListenAddress(parsing: $0) }, mouse: screen.mouse(configured: spec.mouse))
        leave(status)
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Start the built-in demo API on 127.0.0.1 and open config/demo.yaml over it.")

    @Option(help: "Port for the demo API on 127.0.0.1 (default: 8731 if free, so a restart finds its cache; 0 picks any).")
    var port: UInt16?

    @Flag(help: "Only serve the demo API and print its address (to try snapshot or events against it).")
    var serveOnly = false

    @Option(name: .customLong("slow-delay-ms"), help: ArgumentHelp("How long /slow takes, in ms (for tests).", visibility: .hidden))
    var slowDelayMilliseconds: Int = 1500

    @OptionGroup var global: GlobalOptions
    @OptionGroup var cache: CacheOptions
    @OptionGroup var screen: ScreenOptions

    static let preferredPort: UInt16 = 8731

    private var slowDelay: Duration { .milliseconds(min(max(slowDelayMilliseconds, 0), 60_000)) }

    func run() async throws {
        if !serveOnly, isatty(STDIN_FILENO) != 1 || isatty(STDOUT_FILENO) != 1 {
            printError("hammock demo needs a terminal to draw in. Try `hammock demo --serve-only` and `hammock snapshot config/demo.yaml`.")
            throw ExitStatus.usage.exit
        }
        let api: DemoAPI
        if let port {
            api = try await DemoAPI.start(port: port, slowDelay: slowDelay)
        } else {
            api = try await DemoAPI.start(preferredPort: Self.preferredPort, slowDelay: slowDelay)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["HAMMOCK_DEMO_URL"] = api.baseURL
        if serveOnly {
            printLine("Demo API on \(api.baseURL) — Ctrl-C stops it. In another terminal:")
            printLine("  HAMMOCK_DEMO_URL=\(api.baseURL) hammock snapshot config/demo.yaml")
            await waitForInterrupt()
            leave(0)
        }
        let path = try Self.demoConfigPath()
        let spec: DashboardSpec
        do {
            spec = try loadConfig(path, environment: environment, keys: true)
        } catch {
            await api.stop()
            throw error
        }
        let redactor = SharedRedactor(Redactor(spec))
        try global.apply(interactive: true, redactor: redactor)
        // The terminal is restored when this returns; the server goes with the process.
        // Its failing panes are there to show how failures look, not a broken install.
        let status = await DashboardRunner.run(
            spec: spec, environment: environment, cacheDirectory: cache.directory, redactor: redactor, mouse: screen.mouse(configured: spec.mouse),
            greeting: "Demo: Payments, Flaky and Slow report fail on purpose")
        if path != "config/demo.yaml" { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        leave(status)
    }

    /// `config/demo.yaml` when run from the project, else the built-in copy written to a private
    /// directory made for this run (see `DemoConfig.writePrivateCopy`).
    static func demoConfigPath() throws -> String {
        let local = "config/demo.yaml"
        if FileManager.default.fileExists(atPath: local) { return local }
        return try DemoConfig.writePrivateCopy()
    }
}

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a config file; exit 2 and print every problem.",
        discussion: """
            Variables that are not set and ${file:…} files that cannot be read are warnings (exit 0): a config \
            checks in CI without its secrets. With --strict they are problems, as for the dashboard, snapshot, \
            events and serve, which refuse to start without them.
            """)

    @OptionGroup var config: ConfigOptions

    @Flag(help: "Unset variables and unreadable files are problems (exit 2), not warnings.")
    var strict = false

    func run() async throws {
        let path = try config.path()
        let spec = try loadConfig(path, keys: true, withoutSecrets: !strict)
        for warning in spec.warnings { printError("\(warning.file):\(warning.line):\(warning.column): warning: \(warning.message)") }
        let warnings = spec.warnings.isEmpty ? "" : ", \(spec.warnings.count) warning\(spec.warnings.count == 1 ? "" : "s") (secrets not at hand)"
        printLine("✓ \(path): \(spec.panes.count) pane\(spec.panes.count == 1 ? "" : "s"), \(spec.configure.count) configure block\(spec.configure.count == 1 ? "" : "s")" + warnings)
        printLine(spec.redactedSummary)
    }
}

struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Load every pane once and print the frame as plain text; exit 1 if any pane failed, 2 if the config has problems.")

    @OptionGroup var config: ConfigOptions

    /// What `snapshot` prints.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit, tap
    }

    @Option(help: ArgumentHelp("What to print: text (the frame, for logs), json, junit or tap.", valueName: "format"))
    var format: Format = .text

    @Flag(help: "Print each pane's state as JSON (as --format json).")
    var json = false

    @Option(name: .customLong("report-junit"), help: ArgumentHelp("Also write a JUnit XML report here.", valueName: "file"))
    var reportJUnit: String?

    @Option(name: .customLong("report-tap"), help: ArgumentHelp("Also write a TAP report here.", valueName: "file"))
    var reportTAP: String?

    @Option(help: "Frame width in columns.")
    var width = 100

    @Option(help: "Frame height in rows.")
    var height = 30

    @OptionGroup var tag: TagOptions
    @OptionGroup var cache: CacheOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (10...1000).contains(width), (3...1000).contains(height) else {
            throw ValidationError("--width must be 10…1000 and --height 3…1000")
        }
        if json, format != .text, format != .json { throw ValidationError("--json and --format \(format.rawValue): choose one") }
    }

    func run() async throws {
        var spec = try loadConfig(try config.path())
        try tag.apply(to: &spec)
        try global.apply(interactive: false, redactor: SharedRedactor(Redactor(spec)))
        let started = Date()
        let result = await Snapshot.take(spec: spec, columns: width, rows: height, historyStore: cache.directory.map(HistoryStore.init)) {
            $0.makeServices(networking: Hammock.networking())
        }
        let seconds = Date().timeIntervalSince(started)
        let timestamp = DateText.utcTimestamp(started.timeIntervalSince1970, milliseconds: false)
        var state = result.json
        if case .object(var object) = state {
            // What a script needs to trust the rest: the shape's version, when, and by what.
            var meta = JSONObject([("schemaVersion", .int(1)), ("generatedAt", .string(timestamp)), ("hammockVersion", .string(Hammock.version))])
            for (key, value) in object.members { meta[key] = value }
            meta["durationMs"] = .int(Int((seconds * 1000).rounded()))
            object = meta
            state = .object(object)
        }
        let junit = { SnapshotReport.junit(state, seconds: seconds, timestamp: timestamp, hostname: ProcessInfo.processInfo.hostName, version: Hammock.version) }
        switch json ? .json : format {
        case .text: printLine(result.lines.joined(separator: "\n"))
        case .json: printLine(state.prettyPrinted())
        // Through the sanitiser, as every line for a terminal: a title may hold escape sequences.
        case .junit: printLine(String(junit().dropLast()))
        case .tap: printLine(String(SnapshotReport.tap(state).dropLast()))
        }
        for (path, report) in [(reportJUnit, junit), (reportTAP, { SnapshotReport.tap(state) })] {
            guard let path else { continue }
            do {
                try PrivateFiles.writeAtomically(Data(report().utf8), to: URL(fileURLWithPath: path))
            } catch {
                printError("cannot write the report \(path): \(error)")
                throw ExitStatus.internalError.exit
            }
        }
        throw (result.ok ? ExitStatus.ok : .failed).exit
    }
}

struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Stream resource events as JSON lines until interrupted.")

    @OptionGroup var config: ConfigOptions

    @Option(help: "Stop after this many events.")
    var count: Int?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be 1 or more, not \(count)") }
    }

    func run() async throws {
        let spec = try loadConfig(try config.path())
        try global.apply(interactive: false, redactor: SharedRedactor(Redactor(spec)))
        await EventsRunner.run(spec: spec, limit: count)
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Probe the config's panes without a screen and serve their state to Prometheus.",
        discussion: """
            GET /metrics     every pane in Prometheus's text format (hammock_probe_success, …)
            GET /healthz     ok, while it runs
            GET /api/panes   the panes as snapshot --json gives them, live
            The same engine and config as the dashboard, alerts included; the config reloads when edited.
            """)

    @OptionGroup var config: ConfigOptions

    @Option(help: ArgumentHelp("Where to listen: an IPv4 address and a port. Loopback unless you name another address.", valueName: "host:port"))
    var listen = "127.0.0.1:9464"

    @Option(help: ArgumentHelp("A location label for every series (the place this prober watches from).", valueName: "name"))
    var location: String?

    @OptionGroup var tag: TagOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        do { _ = try ListenAddress(parsing: listen) } catch { throw ValidationError("--listen \(error.message)") }
        if let location {
            guard !location.isEmpty, location.count <= 100, location.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw ValidationError("--location must be 1 to 100 printable characters")
            }
        }
    }

    func run() async throws {
        var spec = try loadConfig(try config.path())
        try tag.apply(to: &spec)
        let redactor = SharedRedactor(Redactor(spec))
        try global.apply(interactive: false, redactor: redactor)
        let status = await ServeRunner.run(
            spec: spec, environment: ProcessInfo.processInfo.environment, listen: try ListenAddress(parsing: listen), location: location,
            redactor: redactor, choose: { [tag] in tag.filtered($0) })
        leave(status)
    }
}
