import ResourceEngineTesting

/// Whether a program carries its own Swift runtime (`--static-swift-stdlib`), which changes its
/// resident memory by several MiB; the report says which build it measured.
enum Linkage {
    static func isStatic(executable: String) -> Bool {
        guard let outcome = try? ProcessRunner.captureBlocking(["ldd", executable], timeout: 30), outcome.status == 0 else { return false }
        return !outcome.output.contains("libswiftCore.so")
    }
}
