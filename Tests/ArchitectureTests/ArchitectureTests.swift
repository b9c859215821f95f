import Foundation
import HammockHarness
import Testing

/// ARCHITECTURE.md's table of targets is the law: `Package.swift` declares only arrows it allows,
/// and every target imports exactly what it declares (an import that points up fails here).
@Suite struct ArchitectureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Modules every target may import: the platform's and the test framework.
    static let system: Set<String> = ["Foundation", "FoundationNetworking", "FoundationXML", "FoundationEssentials", "Dispatch", "Glibc", "Synchronization", "Testing"]
    /// C targets linked for what they do when loaded, never imported.
    static let linkedOnly: Set<String> = ["CMallocConf"]

    struct Target {
        let name: String
        let kind: String
        let path: String
        let dependencies: Set<String>
    }

    /// The targets and their declared dependencies, as SwiftPM reads `Package.swift`.
    static func targets() async throws -> [Target] {
        let scratch = ScratchDirectory.path("dump-package")
        let outcome = try await ProcessRunner.capture(
            ["swift", "package", "--package-path", root.path, "--scratch-path", scratch, "dump-package"], timeout: 300)
        try #require(outcome.status == 0, "swift package dump-package: \(outcome.errors)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let list = try #require(manifest["targets"] as? [[String: Any]])
        return list.compactMap { target in
            guard let name = target["name"] as? String, let kind = target["type"] as? String else { return nil }
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                (dependency.values.first as? [Any])?.first as? String
            }
            let path = target["path"] as? String ?? (kind == "test" ? "Tests/\(name)" : "Sources/\(name)")
            return Target(name: name, kind: kind, path: path, dependencies: Set(dependencies))
        }
    }

    /// ARCHITECTURE.md's rows: each target and what it may import.
    static func allowed() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        var rows: [String: Set<String>] = [:]
        for line in text.components(separatedBy: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5, let name = Self.names(in: cells[1]).first else { continue }
            rows[name] = Set(Self.names(in: cells[cells.count - 2]))
        }
        return rows
    }

    static func names(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The modules a target's Swift files import (the import lines at the top of each file).
    static func imports(of target: Target) throws -> Set<String> {
        let directory = root.appendingPathComponent(target.path)
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var found = Set<String>()
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.components(separatedBy: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed.hasPrefix("#") { continue }
                let words = trimmed.split(separator: " ").filter { !$0.hasPrefix("@") }
                guard words.first == "import", words.count >= 2 else { break }
                found.insert(String(words.last!))
            }
        }
        return found.subtracting(system)
    }

    @Test func everyTargetDeclaresOnlyWhatArchitectureMdAllowsAndImportsWhatItDeclares() async throws {
        let targets = try await Self.targets()
        let allowed = try Self.allowed()
        #expect(targets.count > 20, "the package's targets were read")
        for target in targets {
            guard let may = allowed[target.name] else {
                Issue.record("\(target.name) has no row in ARCHITECTURE.md")
                continue
            }
            let forbidden = target.dependencies.subtracting(may)
            #expect(forbidden.isEmpty, "\(target.name) depends on \(forbidden.sorted()), which ARCHITECTURE.md does not allow")
            guard target.kind != "system", FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(target.path).path) else { continue }
            let imported = try Self.imports(of: target)
            guard !imported.isEmpty || target.path.hasPrefix("Sources/") else { continue }
            let undeclared = imported.subtracting(target.dependencies)
            #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without declaring it")
            let unused = target.dependencies.subtracting(imported).subtracting(Self.linkedOnly).filter { name in
                // C targets are imported by the module name of their headers; a target with no Swift imports them none.
                targets.first { $0.name == name }?.kind != "system" || !imported.isEmpty
            }
            #expect(unused.isEmpty, "\(target.name) declares \(unused.sorted()) but imports none of it")
        }
        for name in allowed.keys where !targets.contains(where: { $0.name == name }) {
            Issue.record("ARCHITECTURE.md names \(name), which Package.swift does not have")
        }
    }

    @Test func theEngineAndTheTerminalLayerKnowNothingAboveThem() throws {
        let allowed = try Self.allowed()
        #expect(allowed["ResourceEngine"] == ["PrivateFiles", "TextBasics", "CCurl"], "files, text and libcurl: no YAML, no terminal, no application")
        #expect(allowed["TextBasics"] == [])
        #expect(allowed["TerminalUI"] == [])
        #expect(allowed["MetricsServer"].map { !$0.contains("Dashboard") && !$0.contains("TerminalUI") } == true)
        let curses = allowed.filter { $0.value.contains("CNCursesW") }.map(\.key)
        #expect(curses == ["CursesBackend"], "only CursesBackend touches ncurses")
    }
}
