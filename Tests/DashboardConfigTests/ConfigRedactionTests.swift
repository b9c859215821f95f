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
}
