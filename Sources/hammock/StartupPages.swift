import Dispatch
import Glibc

/// Hands back the pages of code and constants that only start-up touched.
///
/// Reading the config and the command line, loading the libraries (OpenSSL's set-up above all)
/// and drawing the first frame run code that a running monitor never runs again, and the kernel
/// maps code in runs of pages around each page touched: those pages stay in `hammock`'s resident
/// set for good. Some seconds after start, every mapping of a file that is never written and
/// holds no page of its own (`Anonymous: 0 kB` in /proc/self/smaps: nothing in it differs from
/// the file, so nothing can be lost) is unmapped from the process (`MADV_DONTNEED`); what still
/// runs comes back at once from the page cache, a minor fault a page, packed by the link order.
/// Relocated constants (`RELRO`) and data hold pages of their own and are left alone.
enum StartupPages {
    /// How long after start: the start-up work is done by then, even with thousands of panes.
    static let delay: DispatchTimeInterval = .seconds(10)

    /// Releases the pages `delay` from now, on a background queue; never with
    /// `HAMMOCK_KEEP_STARTUP_PAGES` set (the bench's runs under callgrind, which forgets the
    /// symbols of code a program unmaps).
    static func releaseLater() {
        guard getenv("HAMMOCK_KEEP_STARTUP_PAGES") == nil else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { release() }
    }

    /// Unmaps the mappings `releasable` names now; the bytes they were resident with.
    @discardableResult
    static func release() -> Int {
        guard let smaps = read("/proc/self/smaps") else { return 0 }
        var released = 0
        for mapping in releasable(smaps: String(decoding: smaps, as: UTF8.self))
        where madvise(UnsafeMutableRawPointer(bitPattern: mapping.start), mapping.length, MADV_DONTNEED) == 0 {
            released += mapping.resident
        }
        return released
    }

    /// Private mappings of files, read-only, resident, and with no page that differs from the file.
    static func releasable(smaps: String) -> [(start: UInt, length: Int, resident: Int)] {
        var found: [(UInt, Int, Int)] = []
        var current: (start: UInt, length: Int, eligible: Bool)?
        var resident = 0
        var anonymous = -1
        func close() {
            if let mapping = current, mapping.eligible, anonymous == 0, resident > 0 { found.append((mapping.start, mapping.length, resident)) }
        }
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), fields.count >= 5, let dash = first.firstIndex(of: "-"),
                let start = UInt(first[..<dash], radix: 16), let end = UInt(first[first.index(after: dash)...], radix: 16)
            {
                close()
                // 7f…-7f… r-xp 00000000 fe:00 123  /usr/lib/…: a file's path, never written, private.
                let permissions = fields[1]
                let eligible = fields.count >= 6 && fields[5].hasPrefix("/") && !permissions.contains("w") && permissions.hasSuffix("p") && end > start
                current = (start, Int(end &- start), eligible)
                resident = 0
                anonymous = -1
            } else if first == "Rss:", fields.count >= 2, let value = Int(fields[1]) {
                resident = value * 1024
            } else if first == "Anonymous:", fields.count >= 2, let value = Int(fields[1]) {
                anonymous = value
            }
        }
        close()
        return found
    }

    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < 1 << 24 {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}
