import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so a reader sees the old content or the new, never half of either.
public enum AtomicFile {
    /// Writes `data` to a temporary file beside `url`, then `rename(2)`s it over `url`.
    ///
    /// `rename` rather than `FileManager.replaceItemAt`, which lost overwrites on Linux.
    public static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
