import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The one way the engine (and its host) reads a file it is given (a config, a token file, a
/// body file, a TLS certificate or key): a regular file only, opened without blocking (a FIFO planted at the path
/// cannot hang the reader), read to its end and never past `limit` bytes (a size of 0 from
/// procfs does not mean empty; a size that grows while being read does not get past the limit).
public enum RegularFile {
    /// Why a file cannot be read, in the system's words ("no such file", "too many levels of
    /// symbolic links", "is a directory", "permission denied").
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, in the system's words.
        public let message: String

        /// A failure saying `message`.
        public init(_ message: String) {
            self.message = message
        }

        public var description: String { message }
    }

    /// The bytes of the regular file at `path`, at most `limit`; `what` names it in messages.
    public static func read(_ path: String, limit: Int, what: String = "file") -> Result<Data, Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            return .failure(Failure(code == ENOENT ? "no such file" : String(cString: strerror(code)).lowercased()))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Failure(String(cString: strerror(errno)).lowercased())) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(Failure((info.st_mode & S_IFMT) == S_IFDIR ? "is a directory, not a \(what)" : "is not a regular file"))
        }
        let tooLarge = Failure("the file is over \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB")")
        guard info.st_size <= limit else { return .failure(tooLarge) }
        var data = Data(count: min(limit + 1, max(Int(info.st_size) + 1, 4096)))
        var offset = 0
        while true {
            if offset == data.count {
                guard data.count <= limit else { return .failure(tooLarge) }
                data.count = min(limit + 1, data.count * 2)
            }
            let count = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            offset += count
            if offset > limit { return .failure(tooLarge) }
        }
        return .success(data.prefix(offset))
    }
}
