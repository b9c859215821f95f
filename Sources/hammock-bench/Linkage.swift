import Foundation
import HammockHarness

/// How the measured program was linked, which changes its resident memory by several MiB; the
/// report says which build it measured.
enum Linkage {
    /// Whether a program carries its own Swift runtime (`--static-swift-stdlib`).
    static func isStatic(executable: String) -> Bool {
        guard let outcome = try? ProcessRunner.captureBlocking(["ldd", executable], timeout: 30), outcome.status == 0 else { return false }
        return !outcome.output.contains("libswiftCore.so")
    }

    /// The names the binary exports in its dynamic symbol table, the linker's markers of the data
    /// segment's ends left out: only `malloc_conf` (which jemalloc looks up) is meant to be there.
    /// The static toolchain links with `-export-dynamic`, which put ~7,600 of ours there, and the
    /// pages the loader reads them from stayed resident (~0.6 MiB, docs/performance-journal.md).
    static func exportedSymbols(executable: String) -> [String]? {
        guard let outcome = try? ProcessRunner.captureBlocking(["nm", "-D", "--defined-only", executable], timeout: 60), outcome.status == 0
        else { return nil }
        let markers: Set = ["__bss_start", "_edata", "_end"]
        return outcome.output.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }.filter { !markers.contains($0) }
    }

    /// How many of the functions `Sources/hammock/hammock.order` lists the binary defines: a
    /// stale order file (functions renamed since it was written) packs less, and costs memory.
    static func orderCoverage(executable: String, orderFile: String = "Sources/hammock/hammock.order") -> (found: Int, listed: Int)? {
        guard let text = try? String(contentsOfFile: orderFile, encoding: .utf8),
              let defined = try? LinkOrder.functionSymbols(in: executable) else { return nil }
        let listed = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        return (listed.filter { defined.contains(String($0)) }.count, listed.count)
    }
}
