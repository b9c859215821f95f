import Redaction
import ResourceEngine

/// `dependsOn:` on panes and services, `implicitDependencies:` and `connectivity:`: who waits on
/// whom, checked where it is written (a pane that does not exist, a pane that waits on itself,
/// a cycle).
extension ConfigLoader {
    static let implicitDependencyKeys = ["login", "origin"]

    /// `dependsOn: Login` or `dependsOn: [Login, Shop health]`.
    static func readDependsOn(_ node: YAMLNode, _ what: String, reader: inout NodeReader) -> [PaneDependency]? {
        guard let items = reader.items(of: node, or: "\(what) must be a pane's title or a list of them, not \(reader.describe(node))") else { return nil }
        var dependencies: [PaneDependency] = []
        for item in items {
            guard let title = reader.string(item, "a title in \(what)") else { return nil }
            if !dependencies.contains(where: { $0.title == title }) {
                dependencies.append(PaneDependency(title: title, line: item.mark.line, column: item.mark.column))
            }
        }
        return dependencies
    }

    /// `implicitDependencies: { login: false, origin: false }`.
    static func readImplicitDependencies(_ node: YAMLNode, reader: inout NodeReader) -> ImplicitDependencies {
        var implicit = ImplicitDependencies()
        guard let entries = reader.mapping(node, "implicitDependencies") else { return implicit }
        reader.checkKeys(entries, allowed: implicitDependencyKeys, in: "implicitDependencies")
        for entry in entries {
            let value = reader.bool(entry.value, "implicitDependencies.\(entry.key)")
            if entry.key == "login" { implicit.login = value ?? implicit.login }
            if entry.key == "origin" { implicit.origin = value ?? implicit.origin }
        }
        return implicit
    }

    /// `connectivity: [https://1.1.1.1/, …]`: http(s) URLs, each with its variables filled in.
    static func readConnectivity(_ node: YAMLNode, reader: inout NodeReader) -> [ConfigString] {
        guard let items = reader.items(of: node, or: "connectivity must be a list of URLs, not \(reader.describe(node))") else { return [] }
        var urls: [ConfigString] = []
        for item in items {
            guard let url = reader.interpolated(item, "connectivity") else { continue }
            if let problem = WrittenURL.problem(in: url.value) {
                reader.problem(at: item, "connectivity \"\(url.display)\" \(problem)")
            } else if !isHTTPURL(url.value), !reader.holdsPlaceholder(item) {
                reader.problem(at: item, "connectivity \"\(url.display)\" must be an http or https URL")
            } else {
                urls.append(url)
            }
        }
        if items.isEmpty { reader.problem(at: node, "connectivity is empty; give at least one URL, or leave it out") }
        return urls
    }

    /// Gives each pane its service's `dependsOn` as well, and reports a dependency on no pane
    /// (with the nearest title), on itself, and each cycle once.
    static func linkDependencies(_ panes: inout [PaneSpec], services: [ServiceSpec], defaultService: ServiceSpec, titles: [String], reader: inout NodeReader) {
        let known = Set(titles)
        for index in panes.indices {
            let service = panes[index].service.flatMap { name in services.first { $0.name == name } } ?? defaultService
            var all = panes[index].dependsOn
            for inherited in service.dependsOn where inherited.title != panes[index].title && !all.contains(where: { $0.title == inherited.title }) {
                all.append(inherited)
            }
            var kept: [PaneDependency] = []
            for dependency in all {
                if !known.contains(dependency.title) {
                    reader.problem(
                        line: dependency.line, column: dependency.column,
                        "dependsOn: no pane is titled \"\(dependency.title)\"" + Suggestions.hint(for: dependency.title, in: titles))
                } else if dependency.title == panes[index].title {
                    reader.problem(line: dependency.line, column: dependency.column, "dependsOn: a pane cannot depend on itself")
                } else {
                    kept.append(dependency)
                }
            }
            panes[index].dependsOn = kept
        }
        reportDependencyCycles(in: panes, reader: &reader)
    }

    /// Each cycle of `dependsOn` once, at the dependency that closes it.
    private static func reportDependencyCycles(in panes: [PaneSpec], reader: inout NodeReader) {
        for (dependency, cycle) in cycles(in: panes, edges: \.dependsOn, target: \.title) {
            reader.problem(
                line: dependency.line, column: dependency.column,
                "dependsOn makes a cycle: \(cycle.joined(separator: " → ")) (each would be blocked by the other)")
        }
    }
}
