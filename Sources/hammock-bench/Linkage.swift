import Foundation
import ResourceEngineTesting

/// How the measured program was linked, which changes its resident memory by several MiB; the
/// report says which build it measured.
enum Linkage {
    /// Whether a program carries its own Swift runtime (`--static-swift-stdlib`).
    static func isStatic(executable: String) -> Bool {
        guard let outcome = try? ProcessRunner.captureBlocking(["ldd", executable], timeout: 30), outcome.status == 0 else { return false }
        return !outcome.output.contains("libswiftCore.so")
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
