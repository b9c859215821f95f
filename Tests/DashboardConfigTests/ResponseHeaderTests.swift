import DashboardConfig
import Testing

/// Credentials a server hands out in response headers are masked wherever Hammock shows them.
@Suite struct ResponseHeaderTests {
    @Test func sessionCookiesAndTokenHeadersAreMasked() {
        #expect(HeaderSpec.shownResponseValue(name: "Set-Cookie", value: "sid=abc123; Path=/; HttpOnly") == "sid=•••; Path=/; HttpOnly")
        #expect(HeaderSpec.shownResponseValue(
            name: "set-cookie", value: "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Secure, b=two=2; Max-Age=60; SameSite=Lax")
            == "a=•••; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Secure, b=•••; Max-Age=60; SameSite=Lax")
        #expect(HeaderSpec.shownResponseValue(name: "X-Subject-Token", value: "gAAAAABk") == "•••")
        #expect(HeaderSpec.shownResponseValue(name: "WWW-Authenticate", value: #"Bearer realm="api""#) == #"Bearer realm="api""#)
        #expect(HeaderSpec.shownResponseValue(name: "Content-Type", value: "application/json") == "application/json")
    }

    @Test func aHeaderExpectationComparesTheValueButShowsItMasked() throws {
        let expectation = try Expectation("header.set-cookie contains lang=en")
        let observation = Expectation.Observation(statusCode: 200, latency: 0, body: nil, headers: ["set-cookie": "sid=s3cr3t-value; Path=/"])
        #expect(expectation.failure(in: observation) == #"expected header.set-cookie contains lang=en, got "sid=•••; Path=/""#)
        #expect(try Expectation("header.set-cookie contains sid=s3cr3t").failure(in: observation) == nil)
    }
}
