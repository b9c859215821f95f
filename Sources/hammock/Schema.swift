import ArgumentParser
import DashboardConfig
import ResourceEngine

/// `hammock schema`: the config's JSON Schema, for editors (yaml-language-server, VS Code, Neovim).
struct Schema: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the config's JSON Schema (draft 2020-12), for editors that complete and check YAML.",
        discussion: """
            Save it beside the config and name it in the config's first line:
              hammock schema > hammock.schema.json
              # yaml-language-server: $schema=./hammock.schema.json
            hammock init writes both.
            """)

    @Flag(name: .customLong("man-sections"), help: ArgumentHelp("Print the man page's own sections instead (mdoc).", visibility: .hidden))
    var manSections = false

    func run() async throws {
        printLine(manSections ? ManualSections.text : ConfigSchema.json.prettyPrinted())
    }
}
