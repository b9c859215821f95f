import DashboardConfig
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
}
