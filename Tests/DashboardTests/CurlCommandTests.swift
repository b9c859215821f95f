@testable import Dashboard
import DashboardConfig
import Foundation
import HammockHarness
import Redaction
import Testing

@Suite struct CurlCommandTests {
    func command(_ yaml: String, pane: Int = 0, environment: [String: String] = [:], file: String = "/tmp/hammock-curl-test.yaml") throws -> String {
        let spec = try ConfigLoader.parse(yaml, file: file, environment: environment)
        return CurlCommand.make(for: spec.panes[pane], in: spec, redactor: Redactor(spec))
    }

    @Test func referencesStayReferencesAndNoSecretIsWritten() throws {
        let text = try command("""
            service:
              baseURL: https://shop.test/api/
              timeout: 4s
              headers:
                Authorization: Bearer ${SHOP_TOKEN}
                X-Team: "payments \\"core\\""
            configure:
              - pattern: /orders/**
                headers: { X-Tenant: "${TENANT:-acme}" }
            panes:
              - title: Orders
                resource: /orders/open
                params: { page: 2 }
                method: POST
                body: { json: { state: open } }
            """, environment: ["SHOP_TOKEN": "tok-SECRET-123", "TENANT": "globex"])
        #expect(text == #"""
            [ -n "${TENANT-}" ] || TENANT='acme'
            curl -sS -g -X POST \
              -H 'Authorization: Bearer '"${SHOP_TOKEN}" \
              -H 'X-Team: payments "core"' \
              -H 'X-Tenant: '"${TENANT}" \
              -H 'Content-Type: application/json' \
              --data-binary '{"state":"open"}' \
              --max-time 4 \
              -L --max-redirs 10 \
              'https://shop.test/api/orders/open?page=2'
            """#)
        #expect(!text.contains("tok-SECRET-123") && !text.contains("globex"))
    }

    @Test func fileValuesBecomeCatAndLiteralSecretsAreMarked() throws {
        let directory = ScratchDirectory.path("curl")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "file-SECRET\n".write(toFile: directory + "/token.txt", atomically: true, encoding: .utf8)
        let text = try command("""
            services:
              shop:
                baseURL: https://shop.test/
                headers: { X-Key: "${file:token.txt}" }
                auth: { basic: { user: ops, password: literal-SECRET } }
                tls: { insecure: true }
            panes:
              - { title: A, resource: /a, service: shop }
              - { title: B, resource: /b, service: shop, auth: none }
            """, file: directory + "/hammock.yaml")
        #expect(text.hasPrefix("# ••• marks secrets written in the config itself: fill them in before running.\n"))
        #expect(text.contains(#"-H 'X-Key: '"$(cat 'token.txt')""#))
        #expect(text.contains(#"-u 'ops:•••'"#), "basic auth as curl's -u, the literal password marked")
        #expect(text.contains("-k \\\n"))
        #expect(!text.contains("literal-SECRET") && !text.contains("file-SECRET"))

        let spec = try ConfigLoader.parse("""
            services:
              shop:
                baseURL: https://shop.test/
                auth: { basic: { user: ops, password: literal-SECRET } }
            panes:
              - { title: B, resource: /b, service: shop, auth: none }
            """, file: directory + "/hammock.yaml", environment: [:])
        let withoutAuth = CurlCommand.make(for: spec.panes[0], in: spec, redactor: Redactor(spec))
        #expect(!withoutAuth.contains("Authorization"), "auth: none sends none")
    }

    @Test func aLoginServiceSaysWhereTheTokenComesFrom() throws {
        let text = try command("""
            services:
              shop:
                baseURL: https://shop.test/
                auth:
                  login:
                    resource: /auth/token
                    body: { json: { user: demo, password: "${SHOP_PASSWORD}" } }
                    token: access_token
            panes:
              - { title: A, resource: /orders, service: shop }
            """, environment: ["SHOP_PASSWORD": "pw-SECRET"])
        #expect(text.hasPrefix("# The service logs in first (login at https://shop.test/auth/token); put its token in TOKEN.\n"))
        #expect(text.contains(#"-H 'Authorization: Bearer '"${TOKEN}""#))
        #expect(!text.contains("pw-SECRET"))

        let own = try command("""
            services:
              devpi:
                baseURL: https://devpi.test/
                auth: { login: { resource: /+login, body: { json: { user: ops, password: "${PW}" } }, token: result.password, header: X-Devpi-Auth, scheme: "" } }
            panes:
              - { title: A, resource: /root/pypi, service: devpi }
            """, environment: ["PW": "pw-SECRET"])
        #expect(own.contains(#"-H 'X-Devpi-Auth: '"${TOKEN}""#), "the login's own header and scheme: \(own)")
        #expect(!own.contains("Authorization"))
    }

    @Test func aBaseURLFromTheEnvironmentKeepsItsSlash() throws {
        let text = try command("""
            service: { baseURL: "${API_URL:-http://127.0.0.1:8731/}" }
            panes:
              - { title: A, resource: /health }
            """, environment: [:])
        #expect(text.hasPrefix(#"[ -n "${API_URL-}" ] || API_URL='http://127.0.0.1:8731/'"#))
        #expect(text.hasSuffix(#""${API_URL}"'health'"#), "not //health: \(text)")
        let spec = try ConfigLoader.parse("service: { baseURL: \"${API_URL:-http://127.0.0.1:8731/}\" }\npanes:\n  - { title: A, resource: /health }\n", file: "t.yaml", environment: [:])
        #expect(spec.displayURL(for: spec.panes[0]) == "${API_URL:-http://127.0.0.1:8731/}health", "the URL as written, without a second slash")
    }

    @Test func shellQuoting() {
        #expect(CurlCommand.singleQuoted("it's") == #"'it'\''s'"#)
    }

    @Test func aLiteralNamedLikeACredentialIsMaskedInTheCommandAndSaidWhy() throws {
        let spec = try ConfigLoader.parse("""
            services:
              shop:
                baseURL: https://shop.test/
                headers: { X-Api-Key: literal-key-1, X-Team: payments }
            panes:
              - { title: post-alpha, service: shop, resource: /kv, method: POST, body: { key: alpha, note: hi } }
            """, file: "t.yaml")
        let curl = CurlCommand.make(for: spec.panes[0], in: spec, redactor: Redactor(spec))
        #expect(curl.contains(#"'{"key":"•••","note":"hi"}'"#))
        #expect(curl.contains("secrets written in the config"), "X-Api-Key's literal value is one")
        #expect(curl.contains("names like key, token or password"))
        let plain = try ConfigLoader.parse(
            "service: { baseURL: https://kv.test/ }\npanes:\n  - { title: post-alpha, resource: /kv, method: POST, body: { key: alpha } }\n", file: "t.yaml")
        let only = CurlCommand.make(for: plain.panes[0], in: plain, redactor: Redactor(plain))
        #expect(!only.contains("secrets written in the config"), "alpha is no secret: \(only)")
        #expect(only.hasPrefix("# ••• also hides values the config writes under names like key"))
    }
}
