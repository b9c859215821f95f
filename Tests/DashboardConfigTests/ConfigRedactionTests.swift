@testable import DashboardConfig
import Foundation
import HammockHarness
import Redaction
import ResourceEngine
import Testing

/// A config's secrets reach its redactor: literals named like credentials only in their own
/// place, a replaced credential for one reload.
@Suite struct ConfigRedactionTests {
    @Test func aLiteralNamedLikeACredentialIsMaskedOnlyInItsOwnPlace() throws {
        let spec = try ConfigLoader.parse("""
            services:
              shop:
                baseURL: https://shop.test/
                headers: { X-Api-Key: literal-key-1, X-Team: payments }
                auth: { login: { resource: /login, body: { json: { user: ops, password: login-literal } } } }
            panes:
              - { title: post-alpha, service: shop, resource: /kv, method: POST, body: { key: alpha, note: hi } }
              - { title: Form, service: shop, resource: /f, method: POST, body: { form: { password: form-literal, q: x } } }
              - { title: Env, service: shop, resource: /e, method: POST, body: { note: "${NOTE}" }, params: { session: abc-1, page: "2" } }
            """, file: "t.yaml", environment: ["NOTE": "env-note-1"])
        let redactor = Redactor(spec)
        for ordinary in ["post-alpha", "alpha", "form-literal", "abc-1", "payments", "ops"] {
            #expect(redactor.redact("x \(ordinary) y") == "x \(ordinary) y", "\(ordinary) is not a secret")
        }
        for secret in ["literal-key-1", "login-literal", "env-note-1"] {
            #expect(redactor.redact("x \(secret) y") == "x ••• y", "\(secret) is a secret")
        }
        #expect(spec.panes[0].body?.shown == #"{"key":"•••","note":"hi"}"#)
        #expect(spec.panes[1].body?.shown == "password=•••&q=x")
        #expect(redactor.redactURL("https://shop.test/e?session=abc-1&page=2") == "https://shop.test/e?session=•••&page=2", "in the URL as sent, its own place")
    }

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
