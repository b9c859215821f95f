import DashboardConfig
import FoundationEssentials
import ResourceEngine

/// The man page's sections the command definitions cannot give (`scripts/generate-man.sh` puts
/// them into ArgumentParser's page, from `hammock schema --man-sections`): exit status,
/// environment, files, and the config's keys from the schema.
enum ManualSections {
    /// The sections, in mdoc.
    static var text: String {
        var lines = [".Sh \"EXIT STATUS\"", "The same for every command:", ".Bl -tag -width 6n"]
        for status in ExitStatus.allCases { lines += [".It \(status.rawValue)", Self.escaped(status.meaning)] }
        lines += [".It 128+N", "ended by signal N (130: Ctrl-C, 143: SIGTERM)", ".El"]
        lines += [
            ".Sh ENVIRONMENT", ".Bl -tag -width 6n",
            ".It Ev HAMMOCK_CONFIG", "The config when none is given on the command line.",
            ".It Ev XDG_CONFIG_HOME", "Where hammock/hammock.yaml and hammock/keys.yaml are looked for (default ~/.config).",
            ".It Ev XDG_CACHE_HOME", "Where data and histories are kept between runs (default ~/.cache).",
            ".It Ev NO_COLOR", "Draw without colour; every state keeps its symbol.",
            ".It Ev PAGER , Ev EDITOR", "What o and E open.",
            ".El",
            ".Sh FILES", ".Bl -tag -width 6n",
            ".It Pa ./hammock.yaml", "The config, when none is named.",
            ".It Pa $XDG_CONFIG_HOME/hammock/hammock.yaml", "The config, when there is none here.",
            ".It Pa $XDG_CONFIG_HOME/hammock/keys.yaml", "Keys for every dashboard (the same mapping as a config's keys:).",
            ".It Pa hammock.schema.json", "The config's JSON Schema, written by hammock init for editors.",
            ".El",
            ".Sh CONFIGURATION",
            "A YAML file. Every key, from the config's JSON Schema (hammock schema); README.md has the reference with examples.",
        ]
        lines += Self.keys(of: ConfigSchema.json, path: "")
        return lines.joined(separator: "\n")
    }

    /// Each key of an object schema as a tag list item, nested objects after their key.
    static func keys(of schema: JSON, path: String) -> [String] {
        guard let properties = schema["properties"]?.objectValue else { return [] }
        var lines = [".Bl -tag -width 6n"]
        for (key, fragment) in properties.members {
            let name = path.isEmpty ? key : path + "." + key
            lines.append(".It Cm \(escaped(name))")
            if let description = fragment["description"]?.stringValue, !description.isEmpty { lines.append(escaped(description)) }
            let inner = objectIn(fragment)
            if let inner, inner["properties"]?.objectValue?.members.isEmpty == false { lines += keys(of: inner, path: name) }
        }
        return lines + [".El"]
    }

    /// The object schema inside a fragment: itself, a list's items, a map's values, or an `anyOf`'s.
    static func objectIn(_ node: JSON) -> JSON? {
        if node["properties"] != nil { return node }
        if let items = node["items"], let object = objectIn(items) { return object }
        if let values = node["additionalProperties"], values.objectValue != nil, let object = objectIn(values) { return object }
        return node["anyOf"]?.arrayValue?.lazy.compactMap(objectIn).first
    }

    /// Text safe on an mdoc line: a leading dot or quote escaped, backslashes doubled.
    static func escaped(_ text: String) -> String {
        let doubled = text.replacing("\\", with: "\\e").replacing("`", with: "")
        return doubled.hasPrefix(".") || doubled.hasPrefix("'") ? "\\&" + doubled : doubled
    }
}
