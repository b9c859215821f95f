import DashboardConfig
import Foundation
import Testing

/// `tags:` on panes: names to choose panes by, checked where they are written.
@Suite struct TagsConfigTests {
    private func load(_ panes: String) throws(ConfigErrors) -> DashboardSpec {
        try ConfigLoader.parse("service: { baseURL: \"https://api.test/\" }\npanes:\n" + panes, file: "h.yaml", environment: [:])
    }

    @Test func tagsAreAListOrOneName() throws {
        let spec = try load("  - { title: A, resource: /a, tags: [payments, edge] }\n  - { title: B, resource: /b, tags: core }\n  - { title: C, resource: /c }\n")
        #expect(spec.panes.map(\.tags) == [["payments", "edge"], ["core"], []])
    }

    @Test func aBadTagIsAProblemAtItsPlace() {
        do {
            _ = try load("  - { title: A, resource: /a, tags: [ok, \"two words\", edge, Edge] }\n  - { title: B, resource: /b, tags: { a: 1 } }\n")
            Issue.record("loaded")
        } catch {
            #expect(error.problems.map(\.description) == [
                "h.yaml:3:42: tag \"two words\" may only use letters, digits, - _ and . (1 to 40 of them)",
                "h.yaml:3:61: tag \"Edge\" is given twice",
                "h.yaml:4:37: tags must be a list of names, e.g. [payments, edge], not a mapping",
            ])
        }
    }

    /// One rule for what a tag is: the loader's, the schema's pattern and an import's cleaning agree.
    @Test func oneRuleForTags() throws {
        for text in ["payments", "edge-1", "v1.2_x", "", "two words", "café", String(repeating: "a", count: 41)] {
            let matchesPattern = text.range(of: "^[A-Za-z0-9._-]{1,40}$", options: .regularExpression) != nil
            #expect(PaneSpec.isTag(text) == matchesPattern, "\(text)")
        }
        let document = try OpenAPIImport.document(#"{"openapi":"3.0.0","servers":[{"url":"http://x.test/"}],"paths":{"/a":{"get":{"tags":["Café Orders"],"responses":{"200":{"description":"ok"}}}}}}"#)
        let yaml = try OpenAPIImport.config(from: document, source: "a.json").yaml
        #expect(yaml.contains(#"tags: ["Caf--Orders"]"#), "\(yaml)")
        _ = try ConfigLoader.parse(yaml, file: "a.yaml", environment: [:])
    }
}
