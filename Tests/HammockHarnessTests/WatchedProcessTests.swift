import Foundation
import Glibc
import HammockHarness
import Testing

/// The tests' long-running children end when told and are known to have ended, whatever else
/// runs: a hung `stop()` hangs the whole test run.
@Suite struct WatchedProcessTests {
    /// A child that leaves a process of its own behind (holding copies of what the child held)
    /// has still exited. Foundation's `Process`, which the harness used before, learnt of an exit
    /// when a socket the child held closed: the grandchild kept it open, `stop()` spun until the
    /// grandchild went — in the test run, a server another test had started at the same moment.
    @Test(.timeLimit(.minutes(1))) func aChildThatLeftAProcessBehindIsKnownToHaveExited() async throws {
        let (child, grandchild) = try await WatchedProcess.start(["/bin/sh", "-c", #"sleep 600 & echo "left $!"; exit 0"#]) { output -> pid_t? in
            guard let range = output.range(of: #"left [0-9]+\n"#, options: .regularExpression) else { return nil }
            return pid_t(output[range].dropFirst(5).dropLast())
        }
        defer { kill(grandchild, SIGKILL) }
        child.stop()
        #expect(kill(child.pid, 0) == -1, "the child is gone and reaped")
        #expect(kill(grandchild, 0) == 0, "the grandchild still runs, holding the child's output")
    }

    /// A child that ignores SIGTERM is killed after the grace period.
    @Test(.timeLimit(.minutes(1))) func aChildThatIgnoresTermIsKilled() async throws {
        let (child, _) = try await WatchedProcess.start(["/bin/sh", "-c", #"trap "" TERM; echo ready; while :; do sleep 1; done"#]) {
            $0.contains("ready") ? true : nil
        }
        child.stop(grace: 0.5)
        #expect(kill(child.pid, 0) == -1, "killed and reaped")
    }
}
