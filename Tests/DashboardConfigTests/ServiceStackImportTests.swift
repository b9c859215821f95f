import DashboardConfig
import Foundation
import ResourceEngine
import Testing

/// `init --from servicestack`: what a ServiceStack service's `/metadata/app.json` becomes, and
/// that what the document says never becomes a variable the config reads.
@Suite struct ServiceStackImportTests {
    @Test func autoQueryResultsBecomeATableAndRoutelessGetsAnswerUnderApi() throws {
        let document = try OpenAPIImport.document(#"""
            {"app":{"serviceName":"Jobs ${HOME}"},
             "api":{"operations":[
               {"request":{"name":"QueryJobs","description":"Jobs ${SECRET}","properties":[{"name":"Skip","type":"Nullable`1","genericArgs":["Int32"]}]},
                "response":{"name":"QueryResponse`1","genericArgs":["T"],"properties":[{"name":"Total","type":"Int32"},
                  {"name":"Results","type":"List`1","genericArgs":["T"]},{"name":"ResponseStatus","type":"ResponseStatus"}]},
                "returnType":{"name":"QueryResponse`1","genericArgs":["Job"]},"method":"GET","requiresAuth":true,"tags":["jobs"]},
               {"request":{"name":"Hello","properties":[]},"response":{"name":"HelloResponse","properties":[{"name":"Result","type":"String"}]},
                "routes":[{"path":"/hello","verbs":"POST,PUT"},{"path":"/hi","verbs":"ANY"}]}],
              "types":[{"name":"Job","properties":[{"name":"Id","type":"Int64"},{"name":"State","type":"JobState","isEnum":true},
                {"name":"Started","type":"Nullable`1","genericArgs":["DateTime"]},{"name":"Args","type":"Dictionary`2"}]}]}}
            """#)
        #expect(ServiceStackImport.isMetadata(document))
        let imported = try ServiceStackImport.config(from: document, source: "app.json")
        #expect(imported.variables == ["API_URL", "API_TOKEN"], "no base in a file without app.baseUrl; requiresAuth is a bearer token")
        let yaml = imported.yaml
        #expect(yaml.contains(#"title: "Jobs ${HOME}""#) && yaml.contains(#"- title: "Jobs ${SECRET}""#), "titles are never read for variables: \(yaml)")
        #expect(yaml.contains("resource: \"api/QueryJobs\"\n    show: table\n    select: results\n    columns: [id, state, started]"), "\(yaml)")
        #expect(yaml.contains("- title: \"Hello\"\n    resource: \"hi\"\n    show: fields\n    fields: [result]"), "the route a GET reaches: \(yaml)")
        let spec = try ConfigLoader.parse(yaml, file: "s.yaml", environment: ["API_URL": "http://127.0.0.1:1/", "API_TOKEN": "t"])
        #expect(spec.panes.map(\.title) == ["Jobs ${SECRET}", "Hello"])
        #expect(spec.title == "Jobs ${HOME}")
    }

    @Test func aDocumentWithNothingToCallSaysWhy() {
        #expect(throws: ImportProblem.self) {
            try ServiceStackImport.config(from: try OpenAPIImport.document(#"{"api":{"operations":[{"request":{"name":"Save"},"method":"POST"}]}}"#), source: "a.json")
        }
        #expect(ServiceStackImport.metadataURL(for: "http://h.test/api") == "http://h.test/api/metadata/app.json")
        #expect(ServiceStackImport.metadataURL(for: "http://h.test/x/app.json?v=1") == "http://h.test/x/app.json?v=1")
    }
}
