import Foundation
import Glibc
import HammockHarness
import ResourceEngineTesting
import Testing

/// The harness that every terminal test and the benchmark run programs in.
@Suite(.enabled(if: TmuxHarness.tmuxAvailable, "tmux is not installed"))
struct TmuxHarnessTests {
    /// A tmux server is a daemon of its own: when the process that made it is killed before it
    /// can end the server, the program inside must not go on running (a killed benchmark left a
    /// dashboard polling a thousand endpoints).
    @MainActor
    @Test func aSessionEndsWhenTheProcessThatMadeItIsGone() async throws {
        var owner: pid_t = 0
        var arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("600"), nil]
        defer { for pointer in arguments { free(pointer) } }
        try #require(posix_spawn(&owner, "/bin/sleep", nil, nil, &arguments, environ) == 0)
        defer {
            kill(owner, SIGKILL)
            var status: Int32 = 0
            waitpid(owner, &status, 0)
        }
        let tmux = try TmuxHarness(command: "sleep 600", owner: owner)
        let server = try #require(tmux.serverPID)
        #expect(kill(server, 0) == 0, "the server runs while its owner does")

        kill(owner, SIGKILL)
        var status: Int32 = 0
        waitpid(owner, &status, 0)
        // The watchdog looks once a second.
        try await waitUntil("the tmux server ends after its owner") { kill(server, 0) != 0 }
    }
}
