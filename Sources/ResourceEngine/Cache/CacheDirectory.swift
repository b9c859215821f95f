import FoundationEssentials
import PrivateFiles
#if canImport(Glibc)
import Glibc
#endif

/// Where a program keeps its files inside a cache location: a directory of its own (its
/// `Owner`'s name), marked as the owner's and private (0700), holding only names it makes.
///
/// The location itself may be anyone's (`--cache-dir ~/somewhere`): the directory's owner creates
/// it (0700) when it is missing but never changes, lists or deletes anything else in it. A
/// directory of the owner's name without the marker is not the owner's and is never used; in its
/// own directory the owner reads, counts and deletes only files named as it names them.
public struct CacheDirectory: Sendable {
    /// Whose directory it is: its name, and the marker file that says so.
    public struct Owner: Sendable {
        /// The directory's name inside the location.
        public let name: String
        /// What the marker file (`.` and the name) says.
        public let markerText: String
        var marker: String { "." + name }

        /// An owner named `name` (its directory's name), whose marker file says `markerText`.
        public init(name: String, markerText: String) {
            self.name = name
            self.markerText = markerText
        }

        /// A program that names no owner of its own.
        public static let resourceEngine = Owner(
            name: "resource-cache", markerText: "This directory belongs to a program caching HTTP resources with ResourceEngine.\n")
    }

    /// The location as given.
    public let location: URL
    /// The owner's own directory inside it.
    public let url: URL

    /// Prepares `location/NAME`: creates it (and a missing location) privately and marks it, or
    /// checks that an existing one is marked, the user's, and tightens it to 0700.
    public init(location: URL, owner: Owner) throws {
        self.location = location
        self.url = location.appendingPathComponent(owner.name)
        var info = stat()
        if lstat(location.path, &info) != 0 { try PrivateFiles.directory(location.path) }
        let markerPath = url.appendingPathComponent(owner.marker).path
        if lstat(url.path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid() else {
                throw PrivateFiles.Failure(description: "\(url.path) is not a directory of yours; not using it as a cache")
            }
            guard lstat(markerPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                throw PrivateFiles.Failure(description: "\(url.path) was not made by this program (it has no \(owner.marker)); not using it as a cache")
            }
            try PrivateFiles.directory(url.path)
        } else {
            try PrivateFiles.directory(url.path)
            try PrivateFiles.writeAtomically(Data(owner.markerText.utf8), to: URL(fileURLWithPath: markerPath))
        }
    }

    /// A cache entry's file name: 64 hex digits and `.json`.
    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 69 && name.hasSuffix(".json") && name.utf8.prefix(64).allSatisfy(isHexDigit)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }
}
