import Foundation
import Glibc
@testable import HammockHarness
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

    /// A run killed outright leaves what it started running (a tmux server and the hammock in it,
    /// a benchmark's nginx); each names a path in the run's root on its command line.
    @MainActor
    @Test func whatADeadRunLeftRunningIsEndedWithItsRoot() async throws {
        let temporary = try ScratchDirectory.make("sweep")
        let finished = try await ProcessRunner.capture(["/bin/sh", "-c", "echo $$"], timeout: 30)
        let dead = try #require(pid_t(finished.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        var followers: [pid_t] = []
        for root in ["hammock-tests-\(dead)", "hammock-tests-1"] {
            // A shell that names a file in the root as its $0 and waits, whatever becomes of the file.
            let file = temporary + "/" + root + "/inside/config.yaml"
            try FileManager.default.createDirectory(atPath: temporary + "/" + root + "/inside", withIntermediateDirectories: true)
            let pid = try ProcessRunner.launch(["/bin/sh", "-c", "while :; do sleep 1; done", file], stdout: "/dev/null", stderr: "/dev/null")
            followers.append(pid)
            try await waitUntil("the shell has started") {
                (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")).map { String(decoding: $0, as: UTF8.self).contains(file) } ?? false
            }
        }
        defer {
            for pid in followers {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, WNOHANG)
            }
        }
        ScratchDirectory.removeRootsOfDeadProcesses(in: temporary)

        var status: Int32 = 0
        try await waitUntil("the dead run's process ends") { waitpid(followers[0], &status, WNOHANG) == followers[0] }
        #expect(status & 0x7f == SIGTERM)
        #expect(waitpid(followers[1], &status, WNOHANG) == 0, "a live run's process is left alone")
        #expect(!FileManager.default.fileExists(atPath: temporary + "/hammock-tests-\(dead)"))
    }
}
