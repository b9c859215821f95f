import Foundation
import HammockHarness
import ResourceEngineTesting
import Testing

/// `alerts: { bell: true }` rings the terminal's bell: a BEL byte reaches the pty when the pane
/// starts failing, and none while it is only degraded or has no bell configured.
@Suite(.serialized) struct BellTests {
    /// What the program wrote, with OSC sequences (which end in BEL too) taken out.
    static func bells(in output: [UInt8]) -> Int {
        var count = 0
        var index = 0
        while index < output.count {
            if output[index] == 0x1B, index + 1 < output.count, output[index + 1] == 0x5D {
                // ESC ] … up to BEL or ESC \
                index += 2
                while index < output.count, output[index] != 0x07, !(output[index] == 0x1B && index + 1 < output.count && output[index + 1] == 0x5C) {
                    index += 1
                }
                index += output.indices.contains(index) && output[index] == 0x1B ? 2 : 1
                continue
            }
            if output[index] == 0x07 { count += 1 }
            index += 1
        }
        return count
    }

    @Test(.enabled(if: TmuxHarness.tmuxAvailable, "needs tmux"))
    func theBellReachesThePtyWhenAPaneStartsFailing() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = ScratchDirectory.path("bell")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/bell.yaml"
        // Payments fails every time; the bell comes on its third failed probe, 2 s in, long after
        // the pane output is being recorded. Health never fails, so never rings.
        try """
            title: Bells
            service: { baseURL: "${HAMMOCK_DEMO_URL}", retry: 1s }
            alerts: { failAfter: 3, bell: true }
            panes:
              - { title: Payments, resource: /payments, every: 1s }
              - { title: Health, resource: /health, every: 1s }
              - { title: Quiet, resource: /payments?quiet=1, every: 1s, alerts: { bell: false } }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let output = directory + "/pty.out"
        let tmux = try TmuxHarness(
            command: "'\(CLITests.binary)' '\(config)' --no-cache", columns: 100, rows: 24, environment: ["HAMMOCK_DEMO_URL": api.baseURL])
        _ = try tmux.tmux(["pipe-pane", "-o", "-t", "e2e", "cat > '\(output)'"])
        _ = try tmux.waitForScreen("a degraded Payments") { $0.first?.contains("◐") == true }
        let whileDegraded = Self.bells(in: Array((FileManager.default.contents(atPath: output) ?? Data())))
        let screen = try tmux.waitForScreen("Payments and Quiet failing") { $0.first?.contains("✓1 ✗2") == true }
        try await waitUntil("the bell in the pty's output") {
            Self.bells(in: Array(FileManager.default.contents(atPath: output) ?? Data())) >= 1
        }
        #expect(whileDegraded == 0, "no bell while only degraded")
        let rung = Self.bells(in: Array(FileManager.default.contents(atPath: output) ?? Data()))
        #expect(rung == 1, "one bell: Payments rings, Quiet says bell: false (\(screen.joined(separator: "\n")))")
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit().hasPrefix("exit 0"))
    }

    @Test func oscSequencesAreNotBells() {
        #expect(Self.bells(in: Array("\u{1B}]52;c;aGk=\u{07}x\u{07}\u{1B}]0;title\u{1B}\\".utf8)) == 1)
    }
}
