import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where Hammock keeps its files inside a cache location: a directory of its own, `hammock-cache`,
/// marked as Hammock's and private (0700), holding only names Hammock makes.
///
/// The location itself may be anyone's (`--cache-dir ~/somewhere`): Hammock creates it (0700)
/// when it is missing but never changes, lists or deletes anything else in it. A `hammock-cache`
/// directory without the marker is not Hammock's and is never used; in its own directory Hammock
/// reads, counts and deletes only files named as it names them.
public struct CacheDirectory: Sendable {
    /// The location as given.
    public let location: URL
    /// Hammock's own directory inside it.
    public let url: URL

    static let name = "hammock-cache"
    static let marker = ".hammock-cache"
    static let markerText = "This directory belongs to Hammock (a terminal monitor for HTTP APIs): its cache and probe histories.\n"

    /// Prepares `location/hammock-cache`: creates it (and a missing location) privately and marks
    /// it, or checks that an existing one is marked, ours, and tightens it to 0700.
    public init(location: URL) throws {
        self.location = location
        self.url = location.appendingPathComponent(CacheDirectory.name)
        var info = stat()
        if lstat(location.path, &info) != 0 { try PrivateFiles.directory(location.path) }
        let markerPath = url.appendingPathComponent(CacheDirectory.marker).path
        if lstat(url.path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid() else {
                throw PrivateFiles.Failure(description: "\(url.path) is not a directory of yours; not using it as a cache")
            }
            guard lstat(markerPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                throw PrivateFiles.Failure(description: "\(url.path) was not made by Hammock (it has no \(CacheDirectory.marker)); not using it as a cache")
            }
            try PrivateFiles.directory(url.path)
        } else {
            try PrivateFiles.directory(url.path)
            try PrivateFiles.writeAtomically(Data(CacheDirectory.markerText.utf8), to: URL(fileURLWithPath: markerPath))
        }
    }

    /// A cache entry's file name: 64 hex digits and `.json`.
    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 69 && name.hasSuffix(".json") && name.utf8.prefix(64).allSatisfy(isHexDigit)
    }

    /// A probe-history file's name: `history-`, 32 hex digits, `.json`.
    static func isHistoryName(_ name: String) -> Bool {
        name.utf8.count == 45 && name.hasPrefix("history-") && name.hasSuffix(".json")
            && name.utf8.dropFirst(8).prefix(32).allSatisfy(isHexDigit)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }
}
