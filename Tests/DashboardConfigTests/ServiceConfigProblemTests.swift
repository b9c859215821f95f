import DashboardConfig
import Foundation
import HammockHarness
import Redaction
import Testing

/// `services:`, auth kinds, bodies and `${file:…}`: each mistake named at its line and column.
@Suite struct ServiceConfigProblemTests {
    private func problems(_ text: String, environment: [String: String] = [:]) -> [String] {
        do {
            _ = try ConfigLoader.parse(text, file: "hammock.yaml", environment: environment)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func anUnknownServiceSuggestsTheNearestName() {
        let text = """
            services:
              shop: { baseURL: https://shop.test/ }
              billing: { baseURL: https://billing.test/ }
            panes:
              - { title: A, service: shpo, resource: /a }
              - { title: B, resource: /b }
              - { title: C, service: billing, resource: /c }
            """
        #expect(problems(text) == [
            #"hammock.yaml:5:26: unknown service "shpo" (services: shop, billing) (did you mean "shop"?)"#,
            #"hammock.yaml:6:27: resource "/b" is a path: name its service (one of shop, billing)"#,
        ])
        #expect(problems("service: { baseURL: https://x.test/ }\npanes:\n  - { title: A, service: shop, resource: /a }\n") == [
            #"hammock.yaml:3:26: unknown service "shop" (the file has no services: section)"#
        ])
    }

    @Test func namedServicesAreCheckedLikeTheServiceSection() {
        let text = """
            services:
              shop:
                headers: { X-Team: ops }
                transformers: [json]
                tls: { clientKey: /nonexistent/key.pem }
              "bad name": { baseURL: https://x.test/ }
              billing: { baseURL: "ftp://x.test/", cookies: maybe }
            panes:
              - { title: A, service: billing, resource: /a }
            """
        #expect(problems(text) == [
            #"hammock.yaml:2:3: services.shop needs a baseURL"#,
            #"hammock.yaml:4:5: unknown key "transformers" in services.shop"#,
            #"hammock.yaml:5:12: services.shop.tls.clientKey needs services.shop.tls.clientCert (the certificate the key belongs to)"#,
            #"hammock.yaml:5:23: services.shop.tls.clientKey: no file at /nonexistent/key.pem"#,
            #"hammock.yaml:6:3: service name "bad name" may only use letters, digits, - and _"#,
            #"hammock.yaml:7:23: services.billing.baseURL "ftp://x.test/" is not an http or https URL"#,
            #"hammock.yaml:7:49: services.billing.cookies must be true or false, not "maybe""#,
        ])
    }

    @Test func authKindsNeedWhatTheyNeedAndOnlyOneKind() {
        let base = "service:\n  baseURL: https://x.test/\n  auth: "
        let pane = "\npanes:\n  - { title: A, resource: /a }\n"
        #expect(problems(base + "{ digest: { user: ops } }" + pane) == ["hammock.yaml:3:19: service.auth.digest needs a password"])
        #expect(problems(base + "{ bearer: abc, login: { resource: /auth } }" + pane) == ["hammock.yaml:3:9: service.auth names bearer and login; use one kind"])
        #expect(problems(base + "{ login: { method: POST } }" + pane) == [
            "hammock.yaml:3:18: service.auth.login needs a resource (the login request's path, e.g. /auth/token)"
        ])
        #expect(problems(base + "{ login: { resource: /auth, token: \"a[\", refreshOn: [200] } }" + pane) == [
            #"hammock.yaml:3:44: service.auth.login.token: "a[" is not a valid path (a path in the answer's JSON, or header.NAME)"#,
            "hammock.yaml:3:62: service.auth.login.refreshOn must be between 400 and 599, not 200",
        ])
        #expect(problems(base + "{ oauth2: { tokenURL: /token, clientId: \"a:b\", clientSecret: s } }" + pane) == [
            #"hammock.yaml:3:49: service.auth.oauth2.clientId must not contain ":""#
        ])
        #expect(problems(base + "{ oauth2: { tokenURL: /token } }" + pane) == [
            "hammock.yaml:3:19: service.auth.oauth2 needs clientId", "hammock.yaml:3:19: service.auth.oauth2 needs clientSecret",
        ])
        #expect(problems(base + "{ bearer: { file: missing-token } }" + pane) == [
            "hammock.yaml:3:27: service.auth.bearer.file: cannot read ${file:missing-token}: no such file"
        ])
    }

    @Test func bodiesNameOneKind() {
        let pane = "service: { baseURL: https://x.test/ }\npanes:\n  - { title: A, resource: /a, method: POST, body: "
        #expect(problems(pane + "{ form: { a: 1 }, text: hi } }\n") == ["hammock.yaml:3:51: body names form and text; use one kind"])
        #expect(problems(pane + "{ contentType: text/plain } }\n") == ["hammock.yaml:3:51: body needs one of json, form, text, file beside contentType"])
        #expect(problems(pane + "{ text: hi, contentType: plain } }\n") == [#"hammock.yaml:3:76: body.contentType "plain" is not a media type like application/xml"#])
        #expect(problems(pane + "{ file: /nonexistent/body.xml } }\n") == ["hammock.yaml:3:59: body.file: no file at /nonexistent/body.xml"])
        #expect(problems(pane + "{ form: { a: [1, 2] } } }\n") == ["hammock.yaml:3:64: body.form.a must be text or a number"])
    }

    @Test func fileInterpolationReadsTheFileTrimmedAndItsValueIsSecret() throws {
        let directory = ScratchDirectory.path("file")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "file-secret-value\n\n".write(toFile: directory + "/key", atomically: true, encoding: .utf8)
        let text = "service:\n  baseURL: https://x.test/\n  headers: { X-Api-Key: \"${file:key}\" }\npanes:\n  - { title: A, resource: /a }\n"
        let spec = try ConfigLoader.parse(text, file: directory + "/hammock.yaml", environment: [:])
        #expect(spec.service.headers[0].value.value == "file-secret-value")
        #expect(spec.service.headers[0].displayValue == "${file:key}")
        #expect(Redactor(spec).redact("key=file-secret-value") == "key=•••")
        #expect(!spec.redactedSummary.contains("file-secret-value"))
    }

    /// A file whose size reads 0 (procfs) is read to its end, not taken as empty; a file that is
    /// empty is a problem, never an empty credential.
    @Test func fileInterpolationReadsToTheEndAndRefusesAnEmptyFile() throws {
        let text = "service:\n  baseURL: https://x.test/\n  headers: { X-Os: \"${file:/proc/sys/kernel/ostype}\" }\npanes:\n  - { title: A, resource: /a }\n"
        let spec = try ConfigLoader.parse(text, file: "/tmp/hammock.yaml", environment: [:])
        #expect(spec.service.headers[0].value.value == "Linux")
        let directory = ScratchDirectory.path("empty-file")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "\n".write(toFile: directory + "/token", atomically: true, encoding: .utf8)
        #expect(throws: ConfigErrors.self) {
            _ = try ConfigLoader.parse(
                "service:\n  baseURL: https://x.test/\n  headers: { X-Key: \"${file:token}\" }\npanes:\n  - { title: A, resource: /a }\n",
                file: directory + "/hammock.yaml", environment: [:])
        }
    }
}
