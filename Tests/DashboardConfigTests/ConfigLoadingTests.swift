import DashboardConfig
import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

let configDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config")

@Suite struct SampleConfigTests {
    static let samples = (try? FileManager.default.contentsOfDirectory(atPath: configDirectory.path))?
        .filter { $0.hasSuffix(".yaml") }.sorted() ?? []

    let environment = ["USERS_API_TOKEN": "u-token", "BILLING_API_KEY": "b-key"]

    @Test func thereAreSamples() {
        #expect(Self.samples.count >= 6)
        #expect(Self.samples.contains("demo.yaml"))
    }

    @Test(arguments: samples)
    func everySampleLoadsAndValidates(name: String) throws {
        let spec = try ConfigLoader.load(path: configDirectory.appendingPathComponent(name).path, environment: environment)
        #expect(!spec.panes.isEmpty)
        #expect(!spec.title.isEmpty)
    }

    @Test func demoConfigDescribesTheDemoAPI() throws {
        let spec = try ConfigLoader.load(path: configDirectory.appendingPathComponent("demo.yaml").path, environment: ["HAMMOCK_DEMO_URL": "http://127.0.0.1:5555/"])
        #expect(spec.service.baseURL?.value == "http://127.0.0.1:5555/")
        #expect(spec.panes.map(\.title) == ["Health", "Open orders", "Payments", "Flaky", "Slow report", "Metrics", "Profile (needs a token)", "Failed searches"])
        let search = try #require(spec.panes.last)
        #expect(search.method == .post)
        #expect(search.body?.json == ["query": "status:failed"])
        #expect(search.select == "count")
    }

    @Test func aSampleWithAnUnsetSecretSaysWhich() {
        do {
            _ = try ConfigLoader.load(path: configDirectory.appendingPathComponent("paginated.yaml").path, environment: [:])
            Issue.record("expected an error")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.problems[0].message == "service.headers.Authorization: environment variable USERS_API_TOKEN is not set (use ${USERS_API_TOKEN:-default} for a fallback)")
            #expect(error.problems[0].line == 9)
        }
    }
}

@Suite struct InterpolationTests {
    let interpolator = EnvironmentInterpolator(environment: ["TOKEN": "s3cret", "EMPTY": "", "HOST": "api.test"])

    @Test func fillsVariablesAndDefaults() throws {
        #expect(try interpolator.interpolate("Bearer ${TOKEN}").get().value == "Bearer s3cret")
        #expect(try interpolator.interpolate("https://${HOST}/${MISSING:-v1}/").get().value == "https://api.test/v1/")
        #expect(try interpolator.interpolate("${EMPTY:-fallback}").get().value == "fallback")
        #expect(try interpolator.interpolate("${EMPTY}").get().value == "")
        #expect(try interpolator.interpolate("cost: $5 and $${LITERAL}").get().value == "cost: $5 and ${LITERAL}")
        #expect(try interpolator.interpolate("plain").get().fromEnvironment == false)
        #expect(try interpolator.interpolate("${TOKEN}").get().fromEnvironment)
    }

    @Test func reportsUnsetUnterminatedAndBadNames() {
        #expect(interpolator.interpolate("${NOPE}") == .failure(.unset("NOPE")))
        #expect(interpolator.interpolate("${TOKEN") == .failure(.unterminated))
        #expect(interpolator.interpolate("${1BAD}") == .failure(.badName("1BAD")))
        #expect(interpolator.interpolate("${A-B}") == .failure(.badName("A-B")))
    }

    @Test func durations() {
        #expect(DurationText.parse("250ms") == 0.25)
        #expect(DurationText.parse("5s") == 5)
        #expect(DurationText.parse("1.5s") == 1.5)
        #expect(DurationText.parse("2m") == 120)
        #expect(DurationText.parse("1h") == 3600)
        #expect(DurationText.parse("7") == 7)
        for bad in ["", "s", "-5s", "5x", "five", "1e400s", "5 s s", "5\u{0600}s", "5s\u{301}", "\u{0663}s"] {
            #expect(DurationText.parse(bad) == nil, "\(bad.debugDescription)")
        }
        #expect(DurationText.parse(" \t30 s\u{00A0}") == 30, "spaces and tabs around the number and the unit")
        #expect(DurationText.parse("1.5 ms") == 0.0015)
        #expect(DurationText.parse("14d") == 1_209_600)
        #expect(DurationText.format(0.25) == "250ms")
        #expect(DurationText.format(90) == "1m30s")
        #expect(DurationText.format(7200) == "2h")
    }
}

@Suite struct RedactionTests {
    let text = """
        title: Shop
        service:
          baseURL: https://${HOST}/v2/
          headers:
            Authorization: "Bearer ${SHOP_TOKEN}"
            X-Api-Key: literal-key-123
            Cookie: session=abc
            Accept: application/json
        configure:
          - pattern: /admin/**
            headers:
              X-Admin-Secret: ${ADMIN_SECRET:-dev}
        panes:
          - title: Health
            resource: /health
        """

    @Test func secretsNeverAppearInTheSummary() throws {
        let spec = try ConfigLoader.parse(text, file: "shop.yaml", environment: ["HOST": "api.example.com", "SHOP_TOKEN": "tok-9f8e7d"])
        let summary = spec.redactedSummary
        #expect(summary == """
            Shop (shop.yaml)
              baseURL: https://${HOST}/v2/
              header Authorization: Bearer ${SHOP_TOKEN}
              header X-Api-Key: ‹redacted›
              header Cookie: ‹redacted›
              header Accept: application/json
              configure /admin/** X-Admin-Secret: ${ADMIN_SECRET:-dev}
              pane "Health": GET https://${HOST}/v2/health every 5s as json
            """)
        for secret in ["tok-9f8e7d", "literal-key-123", "session=abc", "api.example.com"] {
            #expect(!summary.contains(secret))
        }
        #expect(spec.service.headers.first?.value.value == "Bearer tok-9f8e7d", "the real value is still what gets sent")
    }

    @Test func sensitiveHeaderNames() {
        for name in ["Authorization", "proxy-authorization", "X-Auth-Token", "X-API-KEY", "Client-Secret", "Cookie", "X-Session-Id"] {
            #expect(HeaderSpec.looksSensitive(name), "\(name)")
        }
        for name in ["Accept", "Content-Type", "User-Agent", "X-Request-Id"] {
            #expect(!HeaderSpec.looksSensitive(name), "\(name)")
        }
    }
}
