import DashboardConfig
import ResourceEngine
import Testing

/// A pasted curl command read as a shell reads it, and what each option becomes.
@Suite struct CurlImportTests {
    @Test func aFormPostWithAUserAndQueriesBecomesAPane() throws {
        let result = try CurlImport.config(from: #"""
            curl -k -u alice:s3cret \
              --data 'name=Ada&session_id=xyz' -G --url-query "q=a b" "http://127.0.0.1:8080/find?x=1" -o /dev/null
            """#)
        #expect(result.variables == ["API_PASSWORD", "API_SESSION_ID"])
        #expect(result.leftOut == ["-o"])
        #expect(!result.yaml.contains("s3cret") && !result.yaml.contains("xyz"))
        let spec = try ConfigLoader.parse(result.yaml, file: "c.yaml", environment: ["API_PASSWORD": "p", "API_SESSION_ID": "s"])
        let pane = try #require(spec.panes.first)
        #expect(pane.method.httpName == "GET", "-G sends the data as the query")
        #expect(pane.params.map(\.name) == ["x", "q", "name", "session_id"])
        #expect(spec.service.tls?.insecure == true)
    }

    @Test func wordsAreSplitAsAShellSplitsThem() throws {
        let result = try CurlImport.config(from: #"curl -H "X-Note: say \"hi\" \$HOME" -H 'X-Path: ${HOME}' http://h.test/a"#)
        #expect(result.yaml.contains(#""X-Note": "say \"hi\" $HOME""#), "\(result.yaml)")
        #expect(result.yaml.contains(#""X-Path": "$${HOME}""#), "a ${ from the command stays text: \(result.yaml)")
        for broken in ["curl 'http://h.test", "curl -H", "curl ftp://h.test/", "curl http://a.test http://b.test"] {
            #expect(throws: ImportProblem.self, "\(broken)") { try CurlImport.config(from: broken) }
        }
    }
}
