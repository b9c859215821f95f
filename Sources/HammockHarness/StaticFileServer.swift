import Foundation
import Glibc

/// Python's own `http.server` serving a folder on 127.0.0.1, as a user starts it
/// (`python3 -m http.server`): `Last-Modified` from each file's time, no ETag, and 304 for an
/// `If-Modified-Since` no older than the file.
///
/// Runs as a child process, stopped with SIGKILL.
public final class StaticFileServer: @unchecked Sendable {
    /// The port it listens on.
    public var port: UInt16 { process.port }
    /// The folder it serves; files written there are served at once.
    public let folder: String
    private let process: PortPrintingProcess
    private let logs: String

    /// `http://127.0.0.1:PORT/`
    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// Serves a new scratch folder.
    public init() throws {
        let directory = ScratchDirectory.path("static")
        folder = directory + "/files"
        logs = directory
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // "Serving HTTP on 127.0.0.1 port 43117 (http://127.0.0.1:43117/) ..."
        process = try PortPrintingProcess(
            [PythonTestServer.python, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder], in: directory,
            what: "python3 -m http.server"
        ) { output in
            output.components(separatedBy: " port ").dropFirst().first?.split(separator: " ").first.flatMap { UInt16($0) }
        }
    }

    deinit { stop() }

    /// Writes `text` to `name` in the folder, its modification time `modified`.
    public func write(_ text: String, to name: String, modified: Date) throws {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    }

    /// Ends the server.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: logs)
    }
}
