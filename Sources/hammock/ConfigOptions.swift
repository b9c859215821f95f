import ArgumentParser
import FoundationEssentials

/// Which config a command runs, the first of: the argument or `--config`, `HAMMOCK_CONFIG`,
/// `./hammock.yaml`, `$XDG_CONFIG_HOME/hammock/hammock.yaml` (else `~/.config/hammock/hammock.yaml`).
struct ConfigOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The config file (default: see `hammock --help`, Config).", valueName: "config"))
    var file: String?

    @Option(name: .customLong("config"), help: ArgumentHelp("The config file (as the argument).", valueName: "path"))
    var option: String?

    /// The order the help and README give.
    static let order = "the argument or --config, then $HAMMOCK_CONFIG, then ./hammock.yaml, then $XDG_CONFIG_HOME/hammock/hammock.yaml (~/.config/hammock/hammock.yaml)"

    func validate() throws {
        if let file, let option, file != option { throw ValidationError("give the config once: \(file) or --config \(option)") }
    }

    /// The config's path, or why none was found (exit 2, saying where it looked).
    func path(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let given = file ?? option { return given }
        if let named = environment["HAMMOCK_CONFIG"], !named.isEmpty { return named }
        var looked = ["./hammock.yaml"]
        if FileManager.default.fileExists(atPath: "hammock.yaml") { return "hammock.yaml" }
        if let personal = Self.personalPath(environment: environment) {
            if FileManager.default.fileExists(atPath: personal) { return personal }
            looked.append(personal)
        }
        printError("""
            No config found. Looked for \(looked.joined(separator: " and ")); none was given (an argument, --config or HAMMOCK_CONFIG).
              hammock init              write a commented starter hammock.yaml here
              hammock demo              see Hammock working against a built-in demo API
              hammock path/to/file.yaml open a config file elsewhere
            """)
        throw ExitStatus.invalidConfig.exit
    }

    /// `$XDG_CONFIG_HOME/hammock/hammock.yaml`, else `~/.config/hammock/hammock.yaml`.
    static func personalPath(environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/hammock/hammock.yaml" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/hammock/hammock.yaml" }
        return nil
    }
}
