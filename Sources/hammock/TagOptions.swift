import ArgumentParser
import DashboardConfig

/// `--tag NAME` (repeatable): only the panes with one of these tags.
struct TagOptions: ParsableArguments {
    @Option(name: .customLong("tag"), help: ArgumentHelp("Only the panes tagged so (repeat for any of several).", valueName: "name"))
    var tags: [String] = []

    /// `spec` with only the chosen panes; a tag no pane has is a wrong command line (exit 64).
    func apply(to spec: inout DashboardSpec) throws {
        guard !tags.isEmpty else { return }
        let known = Set(spec.panes.flatMap(\.tags).map { $0.lowercased() })
        for tag in tags where !known.contains(tag.lowercased()) {
            let list = known.isEmpty ? "no pane has tags" : "tags: " + known.sorted().joined(separator: ", ")
            printError("no pane is tagged \(tag) (\(list))")
            throw ExitStatus.usage.exit
        }
        spec = filtered(spec)
    }

    /// `spec` with only the chosen panes (after a reload, whatever tags it has now).
    func filtered(_ spec: DashboardSpec) -> DashboardSpec {
        guard !tags.isEmpty else { return spec }
        let wanted = Set(tags.map { $0.lowercased() })
        var chosen = spec
        chosen.panes = spec.panes.filter { pane in pane.tags.contains { wanted.contains($0.lowercased()) } }
        return chosen
    }
}
