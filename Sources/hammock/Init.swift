import ArgumentParser
import Dashboard
import DashboardConfig
import FoundationEssentials
import Glibc
import PrivateFiles
import ResourceEngine

/// `hammock init`: a commented starter config, and beside it the schema its first line names.
struct Init: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write a commented starter hammock.yaml, and hammock.schema.json for editors.")

    @Option(help: "Where to write it.")
    var output = "hammock.yaml"

    @Flag(help: "Overwrite existing files.")
    var force = false

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Start from what the API says about itself: an OpenAPI 3 or Swagger 2 document (a file or an http(s) URL), or `servicestack URL` (a ServiceStack service's /metadata/app.json).",
            valueName: "document"))
    var from: [String] = []

    @Option(name: .customLong("from-curl"), help: ArgumentHelp("Start from a curl command instead (one pane; credentials become ${VARIABLES}).", valueName: "command"))
    var fromCurl: String?

    func run() async throws {
        var text = StarterConfig.text
        var notes: [String] = []
        if !from.isEmpty, fromCurl != nil {
            printError("--from and --from-curl: choose one")
            throw ExitStatus.usage.exit
        }
        if !from.isEmpty {
            let servicestack = from.first == "servicestack"
            guard from.count == (servicestack ? 2 : 1) else {
                printError("--from takes a document (a file or a URL), or servicestack and the service's URL")
                throw ExitStatus.usage.exit
            }
            let imported = try await Self.importDocument(servicestack ? ServiceStackImport.metadataURL(for: from[1]) : from[0], servicestack: servicestack)
            text = String(imported.yaml.dropLast())
            if !imported.leftOut.isEmpty { notes.append("Left out: " + imported.leftOut.joined(separator: "; ") + ".") }
            if !imported.variables.isEmpty { notes.append("Set \(imported.variables.joined(separator: ", ")) before running it.") }
        }
        if let fromCurl {
            let imported: ImportedConfig
            do { imported = try CurlImport.config(from: fromCurl) } catch {
                printError("--from-curl: \(error.message)")
                throw ExitStatus.usage.exit
            }
            text = String(imported.yaml.dropLast())
            if !imported.leftOut.isEmpty { notes.append("Left out (how curl behaves, not what it asks): \(imported.leftOut.joined(separator: " ")).") }
            if !imported.variables.isEmpty {
                notes.append("The command's credentials are not written; set \(imported.variables.joined(separator: ", ")) before running it.")
            }
        }
        try refuseToReplace(output)
        // Beside the config, named as the user named the config's folder.
        let folder = output.lastIndex(of: "/").map { String(output[...$0]) } ?? ""
        let schemaPath = folder + StarterConfig.schemaFile
        let schema = Data((ConfigSchema.json.prettyPrinted() + "\n").utf8)
        let schemaIsCurrent = FileManager.default.contents(atPath: schemaPath) == schema
        if !schemaIsCurrent { try refuseToReplace(schemaPath) }
        do {
            try PrivateFiles.writeAtomically(Data((text + "\n").utf8), to: URL(fileURLWithPath: output))
            if !schemaIsCurrent { try PrivateFiles.writeAtomically(schema, to: URL(fileURLWithPath: schemaPath)) }
        } catch {
            printError("cannot write \(output): \(error)")
            throw ExitStatus.internalError.exit
        }
        printLine("Wrote \(output) and \(schemaPath) (its schema, for editors). Edit it, then run `hammock check \(output)` and `hammock \(output)`.")
        for note in notes { printLine(note) }
    }

    /// Refuses (exit 64) to replace `path` unless `--force`, and even then anything but a
    /// regular file: never a device (/dev/null as root), a pipe, a directory or a symbolic link
    /// (whose target could be anything).
    private func refuseToReplace(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard force else {
            printError("\(path) already exists; use --force to overwrite it")
            throw ExitStatus.usage.exit
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            printError("\(path) is not a regular file; not replacing it")
            throw ExitStatus.usage.exit
        }
    }

    /// The config `OpenAPIImport` (or `ServiceStackImport`, when asked or when the document is
    /// ServiceStack's metadata) makes of the document at `source` (a file, or a URL fetched
    /// through the engine's libcurl transport).
    @MainActor
    static func importDocument(_ source: String, servicestack: Bool) async throws -> ImportedConfig {
        let text: String
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            let service = Service(standardTransformers: [], networking: Hammock.networking())
            switch await service.resource(absoluteURL: source).load().result {
            case .success(let entity):
                guard let data = entity.content as? Data, let decoded = String(validating: data, as: UTF8.self) else {
                    printError("--from: \(source) did not answer with text")
                    throw ExitStatus.invalidConfig.exit
                }
                text = decoded
            case .failure(let error):
                printError("--from: \(source): \(error.userMessage)")
                throw ExitStatus.invalidConfig.exit
            }
        } else {
            guard let data = FileManager.default.contents(atPath: source), let decoded = String(validating: data, as: UTF8.self) else {
                printError("--from: cannot read \(source)")
                throw ExitStatus.invalidConfig.exit
            }
            text = decoded
        }
        do {
            let document = try OpenAPIImport.document(text)
            if servicestack || ServiceStackImport.isMetadata(document) { return try ServiceStackImport.config(from: document, source: source) }
            return try OpenAPIImport.config(from: document, source: source)
        } catch {
            printError("--from: \(error)")
            throw ExitStatus.invalidConfig.exit
        }
    }
}
