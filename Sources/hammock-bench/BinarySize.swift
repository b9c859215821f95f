import Foundation
import HammockHarness

/// What the shipped binary weighs and what it carries (issue 50's goals): its size as built and
/// stripped, whether ICU's data table is in it, how many Foundation bridging symbols
/// (`NSString`, `NSURL`, `CFString`) it defines, and which Foundation modules it links, by the
/// count of each module's symbols.
struct BinarySize {
    let bytes: Int
    let strippedBytes: Int
    let hasICUData: Bool
    let bridgingSymbols: Int
    /// Module name and how many of its symbols the binary defines, largest first.
    let foundationModules: [(name: String, symbols: Int)]

    static let modules = ["Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML"]

    /// Measures `executable` (strips a copy under the temporary directory).
    static func measure(_ executable: String) throws -> BinarySize {
        let attributes = try FileManager.default.attributesOfItem(atPath: executable)
        let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
        let stripped = FileManager.default.temporaryDirectory.appendingPathComponent("hammock-stripped-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: stripped) }
        let strip = try ProcessRunner.captureBlocking(["strip", "-o", stripped, executable], timeout: 120)
        let strippedBytes = strip.status == 0 ? ((try? FileManager.default.attributesOfItem(atPath: stripped)[.size] as? NSNumber)?.intValue ?? 0) : 0
        let nm = try ProcessRunner.captureBlocking(["nm", executable], timeout: 120)
        var counts: [String: Int] = [:]
        var icu = false
        var bridging = 0
        for line in nm.output.split(separator: "\n") {
            guard let symbol = line.split(separator: " ").last else { continue }
            if symbol.hasPrefix("icudt") { icu = true }
            // The standard library's own `__SwiftNativeNSString` is in every Swift binary, the floor's too.
            if symbol.contains("NSString") && !symbol.contains("SwiftNativeNSString") || symbol.contains("NSURL") || symbol.contains("CFString") {
                bridging += 1
            }
            guard symbol.hasPrefix("$s") else { continue }
            for module in modules {
                let mangled = "$s\(module.utf8.count)\(module)"
                if symbol.hasPrefix(mangled) {
                    counts[module, default: 0] += 1
                    break
                }
            }
        }
        return BinarySize(
            bytes: bytes, strippedBytes: strippedBytes, hasICUData: icu, bridgingSymbols: bridging,
            foundationModules: counts.sorted { $0.value > $1.value }.map { ($0.key, $0.value) })
    }

    /// One line per binary, for the terminal and docs/benchmarks.md.
    var summary: String {
        let modules = foundationModules.isEmpty ? "none" : foundationModules.map { "\($0.name) (\($0.symbols) symbols)" }.joined(separator: ", ")
        return String(format: "%.1f MB, %.1f MB stripped; ICU data: %@; NSString/NSURL/CFString symbols: %d; Foundation modules linked: %@",
            Double(bytes) / 1e6, Double(strippedBytes) / 1e6, hasICUData ? "yes" : "no", bridgingSymbols, modules)
    }

    /// `hammock-bench size [--baseline HAMMOCK]`: the candidate beside the hammock next to the bench.
    static func run(baseline: String?) throws {
        let candidate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hammock").path
        if let baseline { print("baseline  \(baseline)\n  " + (try measure(baseline)).summary) }
        print("candidate \(candidate)\n  " + (try measure(candidate)).summary)
    }
}
