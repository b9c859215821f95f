import DashboardConfig
import DemoServer
import Foundation
import HammockHarness
import ResourceEngine
import Testing

/// `hammock init --from` and `--from-curl`: what an API says about itself, or a pasted curl
/// command, becomes a config that checks and runs.
extension CLITests {
    /// `init --from-curl`: a pasted curl command becomes a pane that checks and runs, its
    /// credentials turned into variables and never written.
    @Test func initFromCurlMakesAPaneThatRuns() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let command = "curl -sS -H 'Authorization: Bearer \(DemoAPI.token)' -H 'Accept: application/json' '\(api.baseURL)secure/profile'"
        let made = try await hammock(["init", "--from-curl", command], in: directory)
        #expect(made.status == 0, "\(made.errors)")
        #expect(made.output.contains("set API_TOKEN before running it"), "\(made.output)")
        let yaml = try String(contentsOfFile: directory + "/hammock.yaml", encoding: .utf8)
        #expect(!yaml.contains(DemoAPI.token) && yaml.contains(#""Authorization": "Bearer ${API_TOKEN}""#), "\(yaml)")
        #expect(try await hammock(["check"], in: directory).status == 0)
        var outcome = try await hammock(["snapshot", "--json"], environment: ["API_TOKEN": DemoAPI.token], in: directory)
        var json = try JSONParser.parse(outcome.output)
        #expect(outcome.status == 0 && json["panes"]?[0]?["status"] == 200, "\(outcome.output)\(outcome.errors)")

        let post = "curl -X POST \(api.baseURL)search --json '{\"query\": \"status:failed\"}'"
        #expect(try await hammock(["init", "--force", "--from-curl", post], in: directory).status == 0)
        outcome = try await hammock(["snapshot", "--json"], in: directory)
        json = try JSONParser.parse(outcome.output)
        #expect(outcome.status == 0 && json["panes"]?[0]?["method"] == "POST" && json["panes"]?[0]?["data"]?["count"]?.intValue != nil, "\(outcome.output)")

        let none = try await hammock(["init", "--force", "--from-curl", "curl -sS"], in: directory)
        #expect(none.status == 64 && none.errors == "--from-curl: no URL in the command\n")
    }

    /// `init --from` on the demo API's own OpenAPI document and on a FastAPI app's generated one:
    /// each result checks and takes a snapshot in which every pane answers.
    @Test func initFromOpenAPIMakesAConfigThatRuns() async throws {
        let api = try await DemoProcess.start()
        defer { api.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var made = try await hammock(["init", "--from", api.baseURL + "openapi.json"], in: directory)
        #expect(made.status == 0, "\(made.errors)")
        #expect(made.output.contains("Left out: GET /orders/{id}: needs path parameter id."), "\(made.output)")
        var yaml = try String(contentsOfFile: directory + "/hammock.yaml", encoding: .utf8)
        #expect(yaml.contains("bearer: \"${API_TOKEN}\"") && yaml.contains("select: items") && yaml.contains("\"state\": \"open\""), "\(yaml)")
        #expect(try await hammock(["check"], in: directory).status == 0)
        var snapshot = try await hammock(["snapshot", "--json"], environment: ["API_TOKEN": DemoAPI.token], in: directory)
        var json = try JSONParser.parse(snapshot.output)
        #expect(json["panes"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Health", "Open orders", "Flaky", "Metrics", "Profile"])
        #expect(json["panes"]?.arrayValue?.filter { $0["title"] != "Flaky" }.allSatisfy { $0["ok"] == true } == true, "\(snapshot.output)")

        // A ServiceStack service's own metadata (the demo's billing API serves /metadata/app.json).
        made = try await hammock(["init", "--force", "--from", "servicestack", api.baseURL + "billing/api"], in: directory)
        #expect(made.status == 0, "\(made.errors)")
        #expect(made.output.contains("Left out: GetInvoice: invoices/{Id} needs a value in its path; CreateInvoice: no GET route."), "\(made.output)")
        #expect(made.output.contains("Set API_KEY before running it."), "\(made.output)")
        yaml = try String(contentsOfFile: directory + "/hammock.yaml", encoding: .utf8)
        #expect(yaml.contains("baseURL: \"\(api.baseURL)billing/api/\"") && yaml.contains("bearer: \"${API_KEY}\""), "\(yaml)")
        #expect(yaml.contains("columns: [invoiceId, customer, amount, dueDate]") && yaml.contains("fields: [balance, period]"), "\(yaml)")
        #expect(try await hammock(["check"], environment: ["API_KEY": "k-1"], in: directory).status == 0)
        snapshot = try await hammock(["snapshot", "--json"], environment: ["API_KEY": "k-1"], in: directory)
        json = try JSONParser.parse(snapshot.output)
        #expect(json["panes"]?[0]?["title"] == "Get due invoices" && json["panes"]?[0]?["ok"] == true, "\(snapshot.output)")
        #expect(json["panes"]?[0]?["data"]?[0]?["invoiceId"] == "INV-2041", "the key went as ServiceStack takes one: \(snapshot.output)")
        #expect(json["panes"]?[1]?["error"] == "Validation failed (Period: must be a closed period)", "its ResponseStatus lifted: \(snapshot.output)")
        // The metadata document named directly, and found by its shape without the word.
        made = try await hammock(["init", "--force", "--from", api.baseURL + "billing/api/metadata/app.json"], in: directory)
        #expect(made.status == 0 && made.output.contains("CreateInvoice: no GET route"), "\(made.output) \(made.errors)")
        let wrong = try await hammock(["init", "--force", "--from", "servicestack"], in: directory)
        #expect(wrong.status == 64 && wrong.errors.contains("servicestack and the service's URL"), "\(wrong.errors)")

        try #require(FastAPIServer.available, "python3-fastapi and python3-uvicorn (.ci/run installs them)")
        let fastAPI = try FastAPIServer()
        defer { fastAPI.stop() }
        made = try await hammock(["init", "--force", "--from", fastAPI.baseURL + "openapi.json"], in: directory)
        #expect(made.status == 0, "\(made.errors)")
        #expect(made.output.contains("GET /search: needs query parameter q and gives no example"), "\(made.output)")
        yaml = try String(contentsOfFile: directory + "/hammock.yaml", encoding: .utf8)
        #expect(yaml.contains("show: table") && yaml.contains("columns: [id, name, price, in_stock]") && yaml.contains("tags: [\"ops\"]"), "\(yaml)")
        #expect(try await hammock(["check", "--strict"], in: directory).status == 0)
        snapshot = try await hammock(["snapshot", "--json"], in: directory)
        json = try JSONParser.parse(snapshot.output)
        #expect(snapshot.status == 0, "\(snapshot.output)")
        #expect(json["panes"]?.arrayValue?.count == 3 && json["panes"]?[0]?["data"]?[0]?["name"] == "hammock", "\(snapshot.output)")
    }
}
