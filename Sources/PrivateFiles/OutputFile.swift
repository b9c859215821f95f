#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor written whole: standard output and error, or a file `PrivateFiles` opened.
/// Writes go straight to the descriptor (no buffer to lose), each retried until all is written.
public final class OutputFile: Sendable {
    public let descriptor: Int32
    private let closes: Bool

    /// Standard output, never closed.
    public static let standardOutput = OutputFile(descriptor: STDOUT_FILENO, closes: false)
    /// Standard error, never closed.
    public static let standardError = OutputFile(descriptor: STDERR_FILENO, closes: false)

    /// Writes to `descriptor`, closing it when this is released if `closes`.
    public init(descriptor: Int32, closes: Bool) {
        self.descriptor = descriptor
        self.closes = closes
    }

    deinit {
        if closes { close(descriptor) }
    }

    /// Writes every byte of `bytes`; false when the descriptor refuses them (closed, full disk).
    @discardableResult
    public func write(_ bytes: some Sequence<UInt8>) -> Bool {
        let all = Array(bytes)
        return all.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// Writes `text` as UTF-8.
    @discardableResult
    public func write(_ text: String) -> Bool {
        write(text.utf8)
    }
}
