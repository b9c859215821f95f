import DashboardConfig
import Foundation
import HammockHarness
import Monitor
import Redaction
import Testing

/// A reloaded config's redactor keeps masking the credential it replaced, for one reload.
@Suite struct ReloadRedactionTests {
    @MainActor @Test func aReloadKeepsMaskingTheCredentialItReplacedForOneGeneration() throws {
        let path = ScratchDirectory.path("reload-secrets") + "/hammock.yaml"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        func write(_ token: String) throws {
            try "service: { baseURL: https://x.test/, headers: { Authorization: \"Bearer \(token)\" } }\npanes:\n  - { title: A, resource: /a }\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
        try write("old-token-1")
        let reloader = ConfigReloader(path: path, current: try ConfigLoader.load(path: path, environment: [:]), environment: [:])
        try write("new-token-2")
        guard case .reloaded(let second) = reloader.reload() else { Issue.record("not reloaded"); return }
        #expect(Redactor(second).redact("Bearer old-token-1 / Bearer new-token-2") == "••• / •••")
        try write("newer-token-3")
        guard case .reloaded(let third) = reloader.reload() else { Issue.record("not reloaded"); return }
        #expect(Redactor(third).redact("Bearer old-token-1 / Bearer new-token-2 / Bearer newer-token-3") == "Bearer old-token-1 / ••• / •••")
    }
}
