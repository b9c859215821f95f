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
}
