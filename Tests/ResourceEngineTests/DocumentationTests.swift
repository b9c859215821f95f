import Foundation
import HammockHarness
import Testing

/// The engine's DocC catalog (`Sources/ResourceEngine/ResourceEngine.docc`) builds against the
/// module as built, with warnings as errors: a symbol an article names that is gone or ambiguous
/// fails here, as `swift package generate-documentation` would fail.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theCatalogBuildsWithoutWarnings() async throws {
        let bin = TmuxHarness.binDirectory
        // .build/<triple>/debug
        let triple = bin.deletingLastPathComponent().lastPathComponent
        let scratch = ScratchDirectory.path("docc")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/symbols", withIntermediateDirectories: true)
        let extract = try await ProcessRunner.capture(
            [
                "swift-symbolgraph-extract", "-module-name", "ResourceEngine", "-I", bin.appendingPathComponent("Modules").path,
                // The engine's libcurl transport imports CCurl, a module map of the package's own.
                "-I", Self.root.appendingPathComponent("Modules/CCurl").path,
                "-target", triple, "-minimum-access-level", "public", "-output-dir", scratch + "/symbols",
            ], timeout: 300)
        #expect(extract.status == 0, "\(extract.errors)")
        #expect(try Self.undocumentedSymbols(in: scratch + "/symbols") == [], "every public symbol of the engine has a doc comment")
        let convert = try await ProcessRunner.capture(
            [
                "docc", "convert", Self.root.appendingPathComponent("Sources/ResourceEngine/ResourceEngine.docc").path,
                "--additional-symbol-graph-dir", scratch + "/symbols", "--output-path", scratch + "/out",
                "--fallback-display-name", "ResourceEngine", "--fallback-bundle-identifier", "org.hammock.ResourceEngine",
                "--warnings-as-errors",
            ], timeout: 300)
        #expect(convert.status == 0, "\(convert.output)\n\(convert.errors)")
        #expect(FileManager.default.fileExists(atPath: scratch + "/out/data/documentation/resourceengine/gettingstarted.json"))
    }

    /// Public symbols declared in the engine's sources (those with a source location: not the
    /// members a conformance inherits from another module) that have no doc comment, as
    /// `File.swift:line Type.member`.
    static func undocumentedSymbols(in directory: String) throws -> [String] {
        struct Graph: Decodable {
            struct Symbol: Decodable {
                struct Location: Decodable {
                    struct Position: Decodable { let line: Int }
                    let uri: String
                    let position: Position
                }
                struct DocComment: Decodable {}
                let accessLevel: String
                let pathComponents: [String]
                let location: Location?
                let docComment: DocComment?
            }
            let symbols: [Symbol]
        }
        var missing: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".symbols.json") {
            let graph = try JSONDecoder().decode(Graph.self, from: Data(contentsOf: URL(fileURLWithPath: directory + "/" + file)))
            for symbol in graph.symbols where symbol.accessLevel == "public" && symbol.docComment == nil {
                guard let location = symbol.location else { continue }
                missing.append("\(location.uri.split(separator: "/").last ?? ""):\(location.position.line + 1) \(symbol.pathComponents.joined(separator: "."))")
            }
        }
        return missing.sorted()
    }
}
