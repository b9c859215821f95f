import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Files and directories only their owner can read: 0600 and 0700 whatever the umask, never
/// through a symbolic link, never anything but a regular file or a directory.
///
/// Everything Hammock writes (cache entries, histories, the log, the demo's config) goes through here.
public enum PrivateFiles {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Creates `path` as a 0700 directory (and missing parents the same way), or tightens an
    /// existing one of ours to 0700. Fails for a symbolic link, a non-directory, or a directory
    /// owned by someone else.
    public static func directory(_ path: String) throws {
        var info = stat()
        if lstat(path, &info) != 0 {
            let parent = parentDirectory(of: path)
            if !parent.isEmpty, parent != path, lstat(parent, &info) != 0 { try directory(parent) }
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
            guard lstat(path, &info) == 0 else { throw Failure(description: "cannot create \(path)") }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw Failure(description: "\(path) is not a directory\((info.st_mode & S_IFMT) == S_IFLNK ? " (a symbolic link)" : "")")
        }
        guard info.st_uid == geteuid() else { throw Failure(description: "\(path) belongs to another user") }
        if info.st_mode & 0o7777 != 0o700 { chmod(path, 0o700) }
    }

    /// Opens `path` for writing as a private regular file (created 0600, or an existing one of
    /// ours tightened to 0600), truncated unless `append`. Refuses symbolic links, devices,
    /// pipes and files owned by someone else.
    public static func openForWriting(_ path: String, append: Bool = false) throws -> OutputFile {
        let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (append ? O_APPEND : O_TRUNC)
        // O_NONBLOCK so a FIFO planted at the path does not hang the open; it is refused below.
        let fd = open(path, flags | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno))
            throw Failure(description: "cannot write \(path): \(reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid() else {
            close(fd)
            throw Failure(description: "cannot write \(path): it is not a regular file of yours")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if info.st_mode & 0o7777 != 0o600 { fchmod(fd, 0o600) }
        if !append { ftruncate(fd, 0) }
        return OutputFile(descriptor: fd, closes: true)
    }

    /// The folder `path` is in ("" for a bare name, "/" for a child of the root).
    static func parentDirectory(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Writes `data` to `url` atomically (a private temporary file beside it, then `rename(2)`):
    /// a reader sees the old content or the new, and the file is 0600.
    public static func writeAtomically(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot write \(url.path): \(String(cString: strerror(errno)))") }
        fchmod(fd, 0o600)
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        close(fd)
        guard written, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            throw Failure(description: "cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}
