import Foundation
import HammockHarness
import Testing

/// `Examples/Watcher`, the engine used alone as README shows it: the package built as its user
/// builds it (its own Package.swift, depending on this one by path), then run as a user runs it,
/// against `python3 -m http.server`, watching a file that changes.
@Suite struct ExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theWatcherKeepsAFileFreshAndAsksOnlyIfItChanged() async throws {
        let scratch = ScratchDirectory.path("watcher-build")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let build = try await ProcessRunner.capture(
            ["swift", "build", "--package-path", Self.root.appendingPathComponent("Examples/Watcher").path, "--scratch-path", scratch], timeout: 900)
        try #require(build.status == 0, "\(build.output)\n\(build.errors)")
        let binary = scratch + "/debug/Watcher"

        let server = try StaticFileServer()
        defer { server.stop() }
        let written = Date(timeIntervalSinceNow: -3_600)
        try server.write(#"{"status":"UP"}"#, to: "status.json", modified: written)
        // Refreshed every 0.2 s; once an unchanged answer came back as NotModified, the file
        // changes (a newer time, as a deploy writes it) and the next refresh is new data.
        let (process, output) = try await WatchedProcess.start([binary, server.baseURL, "0.2"], timeout: .seconds(60)) { output in
            if output.contains("/status.json NotModified UP"), !output.contains("DOWN") {
                try? server.write(#"{"status":"DOWN"}"#, to: "status.json", modified: written.addingTimeInterval(60))
            }
            return output.contains("NewData(Network) DOWN") ? output : nil
        }
        process.stop()
        let lines = output.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["/status.json ObserverAdded - ", "/status.json Requested - ", "/status.json NewData(Network) UP "])
        #expect(lines.contains("/status.json NotModified UP "), "If-Modified-Since, answered 304")
        #expect(lines.last == "/status.json NewData(Network) DOWN ")
    }
}
