import Foundation
@testable import ResourceEngineTesting
import Testing

/// The tests' own files: under one root per process, and roots of dead processes swept away.
@Suite struct ScratchDirectoryTests {
    @Test func directoriesLiveUnderThisProcesssRoot() throws {
        let directory = try ScratchDirectory.make("scratch")
        #expect(directory.hasPrefix(ScratchDirectory.root + "/scratch-"))
        #expect(ScratchDirectory.root == FileManager.default.temporaryDirectory.path + "/hammock-tests-\(getpid())")
        let mode = try FileManager.default.attributesOfItem(atPath: ScratchDirectory.root)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(ScratchDirectory.path("x", extension: ".yaml").hasSuffix(".yaml"))
    }

    @Test func rootsOfDeadProcessesAreRemovedAndLiveOnesKept() async throws {
        let temporary = try ScratchDirectory.make("sweep")
        let finished = try await ProcessRunner.capture(["/bin/sh", "-c", "echo $$"], timeout: 30)
        let dead = try #require(pid_t(finished.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        for name in ["hammock-tests-\(dead)", "hammock-tests-\(getpid())", "hammock-tests-1", "hammock-tests-x", "other-\(dead)"] {
            try FileManager.default.createDirectory(atPath: temporary + "/" + name + "/inside", withIntermediateDirectories: true)
        }
        ScratchDirectory.removeRootsOfDeadProcesses(in: temporary)
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary).sorted()
        #expect(left == ["hammock-tests-1", "hammock-tests-\(getpid())", "hammock-tests-x", "other-\(dead)"].sorted())
    }
}
