import HammockHarness
import Testing

/// The binary links FoundationEssentials only: no module of it may bring full Foundation back,
/// and with it ICU's data table (34 MB), FoundationNetworking and the NSString bridge. A debug
/// build links Swift's libraries dynamically, so what each module imports shows in its needs.
@Suite struct LeanBinaryTests {
    @Test func theBinaryLinksNoFullFoundation() async throws {
        let elf = try await ProcessRunner.capture(["readelf", "-d", CLITests.binary], timeout: 60)
        #expect(elf.status == 0, "\(elf.errors)")
        let needed = elf.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line -> String? in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(needed.contains("libFoundationEssentials.so"), "\(needed)")
        let full = needed.filter { name in
            ["libFoundation.so", "libFoundationNetworking.so", "libFoundationInternationalization.so", "libFoundationXML.so", "lib_FoundationICU.so"]
                .contains(name)
        }
        #expect(full.isEmpty, "a module of hammock imports full Foundation: \(full)")
    }
}
