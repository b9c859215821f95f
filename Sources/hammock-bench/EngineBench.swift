import Dashboard
import DashboardConfig
import DashboardTesting
import Foundation
import Monitor
import ResourceEngine
import ResourceEngineTesting
import Synchronization
import TerminalUI

/// Figures for the engine and the screen, measured in process.
@MainActor
enum EngineBench {
    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func resourceLookup() -> Row {
        let service = Service(baseURL: "https://api.bench/", networking: FakeNetworkingProvider())
        let paths = (0..<1000).map { "/items/\($0)" }
        for path in paths { _ = service.resource(path) }
        let count = 100_000
        var sink = 0
        let seconds = time {
            for i in 0..<count { sink &+= service.resource(paths[i % paths.count]).url.absoluteString.utf8.count }
        }
        precondition(sink > 0)
        return Row("engine", "service.resource(path), existing resource, 100k lookups", String(format: "%.0f ns/op", seconds / Double(count) * 1e9), "well under 1 µs")
    }

    static func manyObservers() -> Row {
        let service = Service(baseURL: "https://api.bench/", networking: FakeNetworkingProvider())
        let resource = service.resource("/hot")
        let owners = (0..<10_000).map { _ in NSObject() }
        var calls = 0
        for owner in owners { resource.addObserver(owner: owner) { _, _ in calls += 1 } }
        let batches = 200
        // Owners must outlive the loop: an optimised build may release them after their last use.
        let seconds = withExtendedLifetime(owners) {
            time { for i in 0..<batches { resource.overrideLocalContent(with: i) } }
        }
        precondition(calls == 10_000 * (batches + 1))
        return Row("engine", "one event to 10,000 observers (\(batches) batches)", String(format: "%.0f µs/batch", seconds / Double(batches) * 1e6), "well under 1 ms")
    }

    static func thousandLoads() async throws -> Row {
        let network = FakeNetworkingProvider()
        let service = Service(baseURL: "https://api.bench/", networking: network)
        let resources = (0..<1000).map { service.resource("/r/\($0)") }
        for resource in resources { network.stub(.get, resource.url.absoluteString, .json(#"{"status":"UP","n":1}"#)) }
        let start = DispatchTime.now().uptimeNanoseconds
        let requests = resources.map { $0.load() }
        for request in requests { _ = try await request.awaitResult(timeout: 60) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        precondition(resources.allSatisfy { $0.latestData != nil })
        return Row("engine", "1,000 resources loaded through the fake provider (parse included)", String(format: "%.1f ms total, %.0f µs/load", seconds * 1000, seconds / 1000 * 1e6), "")
    }

    /// A JSON array of about 1 MiB: orders with ids, names, totals, tags.
    static func megabyteOfJSON() -> Data {
        var items: [String] = []
        var size = 0
        var i = 0
        while size < 1 << 20 {
            let item = #"{"id":\#(i),"customer":"Customer \#(i)","total":"\#(i).50","tags":["a","b"],"open":true,"note":null}"#
            items.append(item)
            size += item.utf8.count + 1
            i += 1
        }
        return Data(("[" + items.joined(separator: ",") + "]").utf8)
    }

    static func pipelineThroughput() -> [Row] {
        let body = megabyteOfJSON()
        var pipeline = Pipeline()
        pipeline[.parsing].add(StandardTransformer.json.transformer, contentTypes: StandardTransformer.json.contentTypes)
        let entity = Entity(content: body, contentType: "application/json", timestamp: 0)
        let rounds = 20
        var parsed = 0
        let seconds = time {
            for _ in 0..<rounds {
                if case .success(let result) = pipeline.process(.success(entity)), result.content is JSON { parsed += 1 }
            }
        }
        precondition(parsed == rounds)
        let mb = Double(body.count) / 1_048_576 * Double(rounds)
        return [Row("engine", "pipeline: standard JSON parse of a \(String(format: "%.2f", Double(body.count) / 1_048_576)) MiB body", String(format: "%.0f MiB/s", mb / seconds), "")]
    }

    static func parsesPerResponse() async throws -> Row {
        final class Counter: ResponseTransformer {
            let count = Mutex(0)
            func process(_ response: Response) -> Response {
                count.withLock { $0 += 1 }
                return response
            }
            var debugDescription: String { "counter" }
        }
        let network = FakeNetworkingProvider()
        let service = Service(baseURL: "https://api.bench/", networking: network)
        let counter = Counter()
        service.configure("**") { $0.pipeline[.parsing].add(counter) }
        let resource = service.resource("/once")
        network.stub(.get, resource.url.absoluteString, .json("[1,2,3]"))
        let owners = (0..<10).map { _ in NSObject() }
        for owner in owners { resource.addObserver(owner: owner) { _, _ in } }
        let request = resource.load()
        for _ in 0..<10 { request.onSuccess { _ in } }
        _ = try await request.awaitResult()
        withExtendedLifetime(owners) {}
        return Row("engine", "parses per response with 10 observers and 10 hooks", "\(counter.count.withLock { $0 })", "exactly 1")
    }

    static func screen() async throws -> [Row] {
        let network = FakeNetworkingProvider()
        var yaml = "service:\n  baseURL: https://api.bench/\npanes:\n"
        for i in 0..<24 {
            let show = ["fields", "table", "value", "json"][i % 4]
            yaml += "  - title: Pane \(i)\n    resource: /p\(i)\n    show: \(show)\n" + (show == "value" ? "    select: n\n" : "")
        }
        yaml += "layout:\n  columns: 4\n"
        let spec = try ConfigLoader.parse(yaml, file: "bench.yaml", environment: [:])
        let clock = ManualClock()
        let backend = TestBackend(columns: 200, rows: 60)
        let scheduler = ManualScheduler(now: { clock.now }, setNow: { clock.set($0) })
        let app = DashboardApp(spec: spec, terminal: Terminal(backend: backend), clock: clock, scheduler: scheduler) {
            $0.makeServices(networking: network, clock: clock)
        }
        for i in 0..<24 {
            let body = i % 4 == 1 ? #"[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}]"# : #"{"status":"UP","version":"1.4.2","n":\#(i)}"#
            network.stub(.get, "https://api.bench/p\(i)", .json(body))
        }
        app.start()
        for pane in app.panes { for request in pane.probe.resource.loadRequests { _ = try await request.awaitResult() } }
        try await drainMainQueue(turns: 2)
        app.drawNow()
        let unchanged = app.drawNow()
        let valuePane = app.panes[2].probe.resource
        valuePane.overrideLocalContent(with: JSON.object(["status": "UP", "version": "1.4.2", "n": 999]))
        let oneValue = app.drawNow()
        let frames = 300
        let seconds = time {
            for i in 0..<frames {
                valuePane.overrideLocalContent(with: JSON.object(["status": "UP", "version": "1.4.2", "n": .int(i)]))
                app.drawNow()
            }
        }
        app.stop()
        let large = try await largeBodies()
        let hostile = try await hostileSizes()
        return [
            Row("screen", "render + diff, 200×60, 24 panes, one value changing", String(format: "%.0f µs/frame", seconds / Double(frames) * 1e6), "under 1 ms"),
            large,
            hostile,
            Row("screen", "cells sent for an unchanged frame", "\(unchanged)", "0"),
            Row("screen", "cells sent when one value changes (2 → 3 digits)", "\(oneValue)", "only its cells"),
        ]
    }
}

extension EngineBench {
    /// Frames while json, table and text panes show 1 MiB bodies and a fourth pane's value changes:
    /// what a frame costs when the data is large but only a screenful is visible.
    static func largeBodies() async throws -> Row {
        let network = FakeNetworkingProvider()
        let yaml = """
            service:
              baseURL: https://api.bench/
            panes:
              - { title: JSON, resource: /big, show: json }
              - { title: Table, resource: /big, show: table, columns: [id, customer, total] }
              - { title: Text, resource: /text, show: text }
              - { title: Value, resource: /n, show: value, select: n }
            layout:
              columns: 2
            """
        let spec = try ConfigLoader.parse(yaml, file: "bench.yaml", environment: [:])
        let clock = ManualClock()
        let scheduler = ManualScheduler(now: { clock.now }, setNow: { clock.set($0) })
        let app = DashboardApp(spec: spec, terminal: Terminal(backend: TestBackend(columns: 200, rows: 60)), clock: clock, scheduler: scheduler) {
            $0.makeServices(networking: network, clock: clock)
        }
        let json = megabyteOfJSON()
        network.stub(.get, "https://api.bench/big", .init(status: 200, headers: ["Content-Type": "application/json"], body: json))
        let text = String(repeating: "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor\n", count: 13_000)
        network.stub(.get, "https://api.bench/text", .init(status: 200, headers: ["Content-Type": "text/plain"], body: Data(text.utf8)))
        network.stub(.get, "https://api.bench/n", .json(#"{"n":0}"#))
        app.start()
        for pane in app.panes { for request in pane.probe.resource.loadRequests { _ = try await request.awaitResult(timeout: 60) } }
        try await drainMainQueue(turns: 2)
        app.drawNow()
        let value = app.panes[3].probe.resource
        let frames = 20
        let seconds = time {
            for i in 0..<frames {
                value.overrideLocalContent(with: JSON.object(["n": .int(i)]))
                app.drawNow()
            }
        }
        app.stop()
        return Row("screen", "render + diff, 1 MiB bodies in json, table and text panes", String(format: "%.2f ms/frame", seconds / Double(frames) * 1e3), "under 1 ms")
    }
}

extension EngineBench {
    /// Frames over what a hostile server sends: a 7 MB single-line body, a 5 MB error message, and
    /// 30 panes of 6 MB JSON collapsed to a line each (200×40: too short for a grid). What a frame
    /// costs must follow what is visible, not the size of the data.
    static func hostileSizes() async throws -> Row {
        let network = FakeNetworkingProvider()
        var yaml = "service:\n  baseURL: https://api.bench/\nconfigure:\n  - pattern: /error\n    pipeline:\n      cleanup: [ { errorMessage: [message] } ]\n"
        yaml += "panes:\n  - { title: Line, resource: /line, show: text }\n  - { title: Error, resource: /error }\n"
        for i in 0..<30 { yaml += "  - { title: Big \(i), resource: /big/\(i), show: json }\n" }
        let spec = try ConfigLoader.parse(yaml, file: "bench.yaml", environment: [:])
        let clock = ManualClock()
        let scheduler = ManualScheduler(now: { clock.now }, setNow: { clock.set($0) })
        let app = DashboardApp(spec: spec, terminal: Terminal(backend: TestBackend(columns: 200, rows: 40)), clock: clock, scheduler: scheduler) {
            $0.makeServices(networking: network, clock: clock)
        }
        network.stub(.get, "https://api.bench/line", .text(String(repeating: "x", count: 7_000_000)))
        network.stub(.get, "https://api.bench/error", .json(#"{"message":"\#(String(repeating: "E", count: 5_000_000))"}"#, status: 500))
        let big = #"{"blob":"\#(String(repeating: "y", count: 6_000_000))"}"#
        for i in 0..<30 { network.stub(.get, "https://api.bench/big/\(i)", .json(big)) }
        app.start()
        for _ in 0..<3 {
            for pane in app.panes { for request in pane.probe.resource.loadRequests { _ = try await request.awaitResult(timeout: 120) } }
            try await drainMainQueue(turns: 2)
        }
        app.drawNow()
        let frames = 50
        let seconds = time {
            for _ in 0..<frames {
                app.send(.key(.down))
                app.drawNow()
            }
        }
        app.stop()
        return Row("screen", "render + diff, 7 MB line, 5 MB error, 30 collapsed 6 MB panes, a key each frame", String(format: "%.2f ms/frame", seconds / Double(frames) * 1e3), "under 1 ms")
    }
}

/// One line of the results table.
struct Row {
    let area: String
    let what: String
    let figure: String
    let target: String

    init(_ area: String, _ what: String, _ figure: String, _ target: String) {
        self.area = area
        self.what = what
        self.figure = figure
        self.target = target
    }
}
