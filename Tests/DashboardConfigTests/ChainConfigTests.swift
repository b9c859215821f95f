@testable import DashboardConfig
import Foundation
import ResourceEngine
import Testing

/// `${pane:TITLE:PATH}`: where it may stand, what it names, and how a value goes into a request.
@Suite struct ChainConfigTests {
    private func load(_ text: String, environment: [String: String] = [:]) throws(ConfigErrors) -> DashboardSpec {
        try ConfigLoader.parse("service: { baseURL: \"https://api.test/\" }\npanes:\n" + text, file: "c.yaml", environment: environment)
    }

    private func problems(_ text: String, _ head: String = "service: { baseURL: \"https://api.test/\" }\npanes:\n") -> [String] {
        do {
            _ = try ConfigLoader.parse(head + text, file: "c.yaml", environment: [:])
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func referencesNameATitleAndAPathEvenWhenTheTitleHasAColon() throws {
        let spec = try load("""
              - { title: "API: latest", resource: /latest }
              - { title: Token, resource: /token }
              - title: Order
                resource: "/orders/${pane:API: latest:items.0.id}"
                params: { whole: "${pane:Token}" }
                headers: { Authorization: "Bearer ${pane:Token:token}" }
            """)
        let chain = try #require(spec.panes[2].chain)
        #expect(chain.references.map(\.name) == ["API: latest:items.0.id", "Token", "Token:token"])
        #expect(chain.references.map(\.line) == [6, 7, 8])
        #expect(chain.sources == ["API: latest", "Token"])
        #expect(spec.panes[0].chain == nil && spec.panes[1].chain == nil)
        // Until the sources answer, the request holds the references as written (never loaded).
        #expect(spec.displayURL(for: spec.panes[2]).hasSuffix("orders/${pane:API: latest:items.0.id}?whole=${pane:Token}"))
    }

    @Test func aValueIsTextWhereverItGoes() throws {
        let spec = try load("""
              - { title: Latest, resource: /latest }
              - title: Order
                resource: "/orders/${pane:Latest:id}?v=${API_VERSION}"
                params: { q: "${pane:Latest:q}" }
                headers: { X-Id: "${pane:Latest:id}" }
            """, environment: ["API_VERSION": "3"])
        let pane = spec.panes[1]
        let chain = try #require(pane.chain)
        // A value cannot leave the path segment, read the environment, or start another header.
        let values = ["Latest:id": "../admin?x=${HOME}", "Latest:q": "a b&c=${HOME}"]
        let resolved = try chain.resolved(pane, values: values).get()
        #expect(spec.url(for: resolved) == "https://api.test/orders/..%2Fadmin%3Fx%3D%24%7BHOME%7D?v=3&q=a%20b%26c%3D%24%7BHOME%7D")
        #expect(resolved.headers.first?.value.value == "../admin?x=${HOME}")
        let broken = chain.resolved(pane, values: ["Latest:id": "1\r\nX-Evil: yes", "Latest:q": "q"])
        #expect(broken.failure?.message == "header X-Id has a line break once filled in")
    }

    @Test func credentialsFromAnotherPaneAreSecrets() throws {
        let spec = try load("""
              - { title: Login, resource: /login }
              - title: Me
                resource: /me/${pane:Login:user}
                params: { api_key: "${pane:Login:key}" }
                headers: { Authorization: "Bearer ${pane:Login:token}" }
            """)
        let chain = try #require(spec.panes[1].chain)
        let values = ["Login:user": "ada", "Login:key": "k-123456", "Login:token": "t-654321"]
        #expect(chain.secretValues(values) == ["k-123456", "t-654321"], "the user in the path is not a credential")
    }

    @Test func aReferenceWhereNoneCanStandIsAProblemAtItsPlace() {
        #expect(problems("""
              - { title: A, resource: /a }
              - title: B
                resource: /b
                method: POST
                body: { json: { id: "${pane:A:id}" } }
              - { title: C, resource: "http://${pane:A:host}/x" }
            """, "service:\n  baseURL: https://api.test/\n  headers: { X-Id: \"${pane:A:id}\" }\npanes:\n") == [
                "c.yaml:3:20: service.headers.X-Id: ${pane:A:id} can only stand in a pane's resource, params or headers",
                "c.yaml:9:25: body.json: ${pane:A:id} can only stand in a pane's resource, params or headers",
                "c.yaml:10:27: resource: a ${pane:…} may only stand in the path or query, after the scheme and host",
            ])
    }

    @Test func unknownPanesBadPathsAndCyclesAreProblemsAtTheirPlace() {
        #expect(problems("""
              - { title: Orders, resource: /orders }
              - { title: A, resource: "/a/${pane:Order:id}" }
              - { title: B, resource: "/b/${pane:Orders:items[}" }
              - { title: C, resource: "/c/${pane:C:id}" }
              - { title: D, resource: "/d/${pane:E:id}" }
              - { title: E, resource: /e, params: { f: "${pane:F:id}" } }
              - { title: F, resource: /f, headers: { X-D: "${pane:D:id}" } }
            """) == [
                "c.yaml:4:27: ${pane:Order:id}: no pane is titled \"Order\" (did you mean \"Orders\"?)",
                "c.yaml:5:27: ${pane:Orders:items[}: invalid path \"items[\": missing ']' at position 6",
                "c.yaml:6:27: ${pane:C:id}: a pane cannot take a value from itself",
                "c.yaml:9:47: ${pane:D:id} makes a cycle: D → E → F → D (each would wait for the other)",
            ])
    }

    @Test func aNumberAfterADotIndexesAList() throws {
        let json = try JSONParser.parse(#"{"items":[{"id":7},{"id":8}],"0":"zero"}"#)
        #expect(try JSONPath("items.1.id").evaluate(json) == 8)
        #expect(try JSONPath("0").evaluate(json) == "zero", "an object's member named 0 is still a member")
        #expect(throws: JSONPath.LookupError.self) { try JSONPath("items.2.id").evaluate(json) }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
