import Dashboard
import DashboardConfig
import DashboardTesting
import FlyingFox
import Foundation
import HammockHarness
import LoopbackHTTP
import Monitor
import ResourceEngine
import ResourceEngineTesting
import Synchronization
import TerminalUI
import Testing

/// Alert actions for real: a webhook to a receiver on 127.0.0.1 through libcurl, and commands
/// that record what they were started with.
@MainActor
@Suite(.serialized) struct AlertActionsOverHTTPTests {
    final class Hooks: Sendable {
        let received = Mutex<[(authorization: String?, body: String)]>([])
        var count: Int { received.withLock { $0.count } }
    }

    static let token = "api-token-7f3a9c"
    static let hookToken = "hook-token-51be02"

    @MainActor
    final class Run {
        let directory: String
        let server: LocalTestServer
        let hooks: Hooks
        let live: DashboardHarness
        var app: DashboardApp { live.app }
        var backend: TestBackend { live.backend }
        var scheduler: ManualScheduler { live.scheduler }

        init(scripts: [String: String], yaml: String) async throws {
            directory = ScratchDirectory.path("alerts")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (name, text) in scripts {
                try text.replacingOccurrences(of: "DIR", with: directory).write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
                chmod(directory + "/" + name, 0o755)
            }
            let hooks = Hooks()
            self.hooks = hooks
            server = try await LocalTestServer.start { server in
                await server.appendRoute("GET /flaky") { request in
                    let token = request.query.first { $0.name == "token" }?.value ?? ""
                    return HTTPResponse(
                        statusCode: .serviceUnavailable, headers: HTTPHeaders([.contentType: "application/json"]),
                        body: Data(#"{"message":"database down (token \#(token))"}"#.utf8))
                }
                await server.appendRoute("POST /hook") { request in
                    let body = String(decoding: try await request.bodyData, as: UTF8.self)
                    let authorization = request.headers[HTTPHeader("Authorization")]
                    hooks.received.withLock { $0.append((authorization, body)) }
                    return HTTPResponse(statusCode: .ok)
                }
            }
            let environment = [
                "PATH": "/usr/bin:/bin", "API_TOKEN": AlertActionsOverHTTPTests.token, "HOOK_TOKEN": AlertActionsOverHTTPTests.hookToken,
            ]
            let spec = try ConfigLoader.parse(
                yaml.replacingOccurrences(of: "BASE", with: server.baseURL), file: directory + "/alerts.yaml", environment: environment)
            live = DashboardHarness(spec: spec, networking: .curl, columns: 100, rows: 12, environment: environment)
        }

        func settle() async throws {
            try await live.settle()
        }

        func stop() async {
            app.stop()
            await server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test func anExecScriptAndAWebhookHearOfTheAlertWithSecretsRedacted() async throws {
        let run = try await Run(
            scripts: [
                "on-alert.sh": """
                    #!/bin/sh
                    { env | grep '^HAMMOCK_' | sort; echo "ARGS=$*"; grep -E '^(SigBlk|SigIgn)' /proc/self/status
                      awk '{ print "TTY=" $7; print ($6 == $1) ? "SESSION=own" : "SESSION=shared" }' /proc/$$/stat; } > DIR/env.tmp
                    mv DIR/env.tmp DIR/env.txt

                    """
            ],
            yaml: """
                title: Shop
                service: { baseURL: BASE, retry: 1s }
                alerts:
                  failAfter: 2
                  exec: ["./on-alert.sh", "--page", "two words"]
                  webhook:
                    url: BASEhook
                    headers: { Authorization: "Bearer ${HOOK_TOKEN}" }
                    body: { text: "{{pane}} is {{state}}: {{message}}", url: "{{url}}" }
                panes:
                  - { title: Checkout, resource: "/flaky?token=${API_TOKEN}", every: 1s }
                """)
        run.app.start()
        try await run.settle()
        #expect(run.app.panes[0].probe.health == .degraded)
        #expect(!FileManager.default.fileExists(atPath: run.directory + "/env.txt"), "one failed probe of two acts on nothing")
        run.scheduler.advance(by: 1)
        try await run.settle()
        #expect(run.app.panes[0].probe.health == .failing)
        try await waitUntil("the script and the webhook") {
            FileManager.default.fileExists(atPath: run.directory + "/env.txt") && run.hooks.count == 1
        }
        let recorded = try String(contentsOfFile: run.directory + "/env.txt", encoding: .utf8)
        let lines = recorded.split(separator: "\n").map(String.init)
        let url = "\(run.server.baseURL)flaky?token=${API_TOKEN}"
        #expect(lines.contains("HAMMOCK_PANE=Checkout"), "\(recorded)")
        #expect(lines.contains("HAMMOCK_STATE=failing"))
        #expect(lines.contains("HAMMOCK_EVENT=firing"))
        #expect(lines.contains("HAMMOCK_DASHBOARD=Shop"))
        #expect(lines.contains("HAMMOCK_STATUS=503"))
        #expect(lines.contains("HAMMOCK_URL=\(url)"))
        #expect(lines.contains("HAMMOCK_MESSAGE=database down (token •••)"), "the body's own message, its secret masked")
        #expect(lines.contains("HAMMOCK_SINCE=2026-05-09T06:13:20.000Z"))
        #expect(lines.contains("ARGS=--page two words"))
        #expect(lines.contains("TTY=0"), "no controlling terminal: \(recorded)")
        #expect(lines.contains("SESSION=own"), "its own session: \(recorded)")
        #expect(lines.contains { $0.hasPrefix("SigBlk:") && $0.hasSuffix("0000000000000000") }, "nothing blocked: \(recorded)")
        let ignored = lines.first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
        #expect(ignored.map { $0 & 0x7FFF_FFFF } == 0, "no classic signal ignored: \(recorded)")
        #expect(!recorded.contains(Self.token) && !recorded.contains(Self.hookToken))

        let hook = try #require(run.hooks.received.withLock { $0.first })
        #expect(hook.authorization == "Bearer \(Self.hookToken)", "the webhook's own header, from the environment")
        let body = try JSONParser.parse(Data(hook.body.utf8))
        #expect(body["text"]?.stringValue == "Checkout is failing: database down (token •••)")
        #expect(body["url"]?.stringValue == url)
        #expect(!hook.body.contains(Self.token))
        #expect(!run.app.eventLog.entries.contains { $0.event == "AlertActionFailed" })
        await run.stop()
    }

    @Test func aFailingCommandAndOneThatHangsAreReportedNotRetried() async throws {
        let run = try await Run(
            scripts: [
                "fail.sh": "#!/bin/sh\necho 'boom: the pager service said no' >&2\nexit 3\n",
                "hang.sh": "#!/bin/sh\nsleep 30\n",
            ],
            yaml: """
                service: { baseURL: BASE, retry: 1m }
                panes:
                  - { title: Fails, resource: "/flaky?a=1", alerts: { exec: ["./fail.sh"] } }
                  - { title: Hangs, resource: "/flaky?b=2", alerts: { exec: ["./hang.sh"], timeout: 300ms } }
                """)
        run.app.start()
        try await run.settle()
        try await waitUntil("both commands reported") {
            run.app.eventLog.entries.filter { $0.event == "AlertActionFailed" }.count == 2
        }
        let failures = run.app.eventLog.entries.filter { $0.event == "AlertActionFailed" }
        #expect(failures.contains { $0.panes == ["Fails"] && $0.message == "fail.sh: exited with status 3: boom: the pager service said no" }, "\(failures)")
        #expect(failures.contains { $0.panes == ["Hangs"] && $0.message == "hang.sh: stopped after 300ms (its time limit)" }, "\(failures)")
        run.app.drawNow()
        #expect(run.backend.lines.last?.hasPrefix(" alert for ") == true, "\(run.backend.lines)")
        await run.stop()
    }
}
