@testable import DashboardConfig
import Foundation
import FoundationNetworking
import Glibc
import HammockHarness
@testable import Monitor
import ResourceEngine
import ResourceEngineTesting
import Testing

@MainActor
@Suite struct ApplyTests {
    let text = """
        service:
          baseURL: https://api.example.test/v2/
          headers:
            Authorization: Bearer ${TOKEN}
          expiration: 20s
          retry: 3s
          timeout: 4s
        configure:
          - pattern: /orders/**
            methods: [GET]
            expiration: 10s
            pipeline:
              model: [ { select: items } ]
          - pattern: /orders/urgent
            headers:
              X-Priority: high
            timeout: 1s
          - pattern: /legacy/**
            pipeline:
              parsing: []
              cleanup: [ { errorMessage: [responseStatus.message] } ]
        panes:
          - title: Orders
            resource: /orders/open
            params: { state: open, limit: "5" }
            show: table
            columns: [id, total]
          - title: Elsewhere
            resource: https://status.other.test/health
        """

    private func makeService() throws -> (Service, FakeNetworkingProvider, DashboardSpec) {
        let spec = try ConfigLoader.parse(text, file: "t.yaml", environment: ["TOKEN": "abc"])
        let network = FakeNetworkingProvider()
        return (spec.makeServices(networking: network, clock: ManualClock()).main, network, spec)
    }

    @Test func servicesWithoutATransportShareOneLibcurlProvider() throws {
        let spec = try ConfigLoader.parse(
            text + "\nservices:\n  other:\n    baseURL: https://other.example.test/\n", file: "t.yaml", environment: ["TOKEN": "abc"])
        let group = spec.makeServices()
        let other = try #require(group.named.first?.1)
        #expect(group.main.networking is CurlProvider)
        #expect(other.networking === group.main.networking, "one transfer thread for every service")
    }

    @Test func serviceDefaultsApplyEverywhereHeadersOnlyUnderTheBase() throws {
        let (service, _, _) = try makeService()
        let health = service.resource("/health").configuration
        #expect(health.expirationTime == 20)
        #expect(health.retryTime == 3)
        #expect(health.timeout == 4)
        #expect(health.headers == ["Authorization": "Bearer abc"])
        let elsewhere = service.resource(absoluteURL: "https://status.other.test/health").configuration
        #expect(elsewhere.expirationTime == 20)
        #expect(elsewhere.headers.isEmpty, "credentials never go to another host")
    }

    @Test func blocksApplyInFileOrderWithMethodFilters() throws {
        let (service, _, _) = try makeService()
        let urgent = service.resource("/orders/urgent")
        #expect(urgent.configuration(for: .get).expirationTime == 10)
        #expect(urgent.configuration(for: .get).timeout == 1)
        #expect(urgent.configuration(for: .get).headers == ["Authorization": "Bearer abc", "X-Priority": "high"])
        #expect(urgent.configuration(for: .post).expirationTime == 20, "the GET-only block does not apply to POST")
        #expect(urgent.configuration(for: .post).pipeline[.model].transformers.isEmpty)
        #expect(urgent.configuration(for: .get).pipeline[.model].transformers.count == 1)
        #expect(service.resource("/orders").configuration.expirationTime == 20, "/orders/** does not match /orders itself")
    }

    @Test func pipelinesShapeResponses() async throws {
        let (service, network, spec) = try makeService()
        let orders = spec.resource(for: spec.panes[0], in: ServiceGroup(main: service))
        #expect(orders.url.absoluteString == "https://api.example.test/v2/orders/open?state=open&limit=5", "params in file order, as written")
        network.stub(.get, orders.url.absoluteString, .json(#"{"items":[{"id":1,"total":5}],"page":1}"#))
        _ = try await orders.load().awaitResult()
        #expect(orders.json == [["id": 1, "total": 5]])
        #expect(network.receivedRequests[0].value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        #expect(network.receivedRequests[0].timeoutInterval == 4)
    }

    @Test func emptyStageListsClearTheStandardParsers() async throws {
        let (service, network, _) = try makeService()
        let legacy = service.resource("/legacy/balance")
        network.stub(.get, legacy.url.absoluteString, .json(#"{"responseStatus":{"message":"Ledger locked"}}"#, status: 423))
        _ = try await legacy.load().awaitResult()
        #expect(legacy.latestError?.userMessage == "Ledger locked")
        #expect(legacy.latestError?.entity?.content is Data, "parsing was cleared; errorMessage parsed the bytes itself")
    }

    @Test func absolutePaneResourcesIgnoreTheBase() throws {
        let (service, _, spec) = try makeService()
        #expect(spec.resource(for: spec.panes[1], in: ServiceGroup(main: service)).url.absoluteString == "https://status.other.test/health")
    }

    @Test func standardTransformersCanBeChosen() async throws {
        let spec = try ConfigLoader.parse("service:\n  baseURL: https://x.test/\n  transformers: [text]\npanes:\n  - title: A\n    resource: /a\n", file: "t.yaml")
        let network = FakeNetworkingProvider()
        let service = spec.makeServices(networking: network, clock: ManualClock()).main
        let resource = service.resource("/a")
        network.stub(.get, resource.url.absoluteString, .json("[1]"))
        _ = try await resource.load().awaitResult()
        #expect(resource.latestData?.content is Data)
    }
}

@MainActor
@Suite(.serialized) struct ReloadTests {
    let good = "service:\n  baseURL: https://x.test/\npanes:\n  - title: One\n    resource: /one\n"
    let better = "service:\n  baseURL: https://x.test/\npanes:\n  - title: One\n    resource: /one\n  - title: Two\n    resource: /two\n"
    let broken = "service:\n  baseURL: https://x.test/\npanes:\n  - title: One\n    resourc: /one\n"

    private func tempFile(_ text: String) throws -> String {
        let directory = URL(fileURLWithPath: ScratchDirectory.path("reload"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("hammock.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aBrokenFileKeepsTheRunningConfig() throws {
        let path = try tempFile(good)
        let reloader = ConfigReloader(path: path, current: try ConfigLoader.load(path: path))
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        guard case .rejected(let errors) = reloader.reload() else {
            Issue.record("expected a rejection")
            return
        }
        #expect(errors.problems.map(\.message) == [
            #"pane "One" needs a resource (a path like /health or a URL)"#,
            #"unknown key "resourc" in a pane (did you mean "resource"?)"#,
        ])
        #expect(errors.problems.map(\.line) == [4, 5])
        #expect(reloader.current.panes.map(\.title) == ["One"])
        try better.write(toFile: path, atomically: true, encoding: .utf8)
        guard case .reloaded(let spec) = reloader.reload() else {
            Issue.record("expected a reload")
            return
        }
        #expect(spec.panes.map(\.title) == ["One", "Two"])
        #expect(reloader.current.panes.count == 2)
        if case .unchanged = reloader.reload() {} else { Issue.record("an unchanged file is not reloaded") }
    }

    @Test func watchingNoticesAnEditorStyleSave() async throws {
        let path = try tempFile(good)
        let reloader = ConfigReloader(path: path, current: try ConfigLoader.load(path: path))
        defer { reloader.stop() }
        let titles: [String] = try await awaitCallback("the reload") { done in
            reloader.watch(debounce: 0.05) { outcome in
                if case .reloaded(let spec) = outcome { done(spec.panes.map(\.title)) }
            }
            // Editors write a new file and rename it over the old one.
            try? better.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(titles == ["One", "Two"])
    }

    /// A config that is a symbolic link reloads when the file it points to is saved, in another
    /// directory too.
    @Test func aSymlinkedConfigReloadsWhenItsTargetChanges() async throws {
        let base = URL(fileURLWithPath: ScratchDirectory.path("reload-link"))
        try FileManager.default.createDirectory(at: base.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: base.appendingPathComponent("links"), withIntermediateDirectories: true)
        let target = base.appendingPathComponent("real/real.yaml").path
        let link = base.appendingPathComponent("links/hammock.yaml").path
        try good.write(toFile: target, atomically: true, encoding: .utf8)
        #expect(symlink(target, link) == 0)
        let reloader = ConfigReloader(path: link, current: try ConfigLoader.load(path: link))
        defer { reloader.stop() }
        let titles: [String] = try await awaitCallback("the reload") { done in
            #expect(reloader.watch(debounce: 0.05) { outcome in
                if case .reloaded(let spec) = outcome { done(spec.panes.map(\.title)) }
            } == nil)
            try? better.write(toFile: target, atomically: false, encoding: .utf8)
        }
        #expect(titles == ["One", "Two"])
    }

    @Test func aLogWrittenBesideTheConfigDoesNotPutTheReloadOff() async throws {
        let path = try tempFile(good)
        let log = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("hammock.log").path
        let reloader = ConfigReloader(path: path, current: try ConfigLoader.load(path: path))
        defer { reloader.stop() }
        // A log line every 20 ms, as `--log all` writes next to the config: each one used to
        // restart the debounce, so the reload never came.
        let writer = DispatchSource.makeTimerSource(queue: .global())
        writer.schedule(deadline: .now(), repeating: .milliseconds(20))
        writer.setEventHandler { try? (UUID().uuidString + "\n").write(toFile: log, atomically: false, encoding: .utf8) }
        writer.resume()
        defer { writer.cancel() }
        let titles: [String] = try await awaitCallback("the reload while the log is being written") { done in
            reloader.watch(debounce: 0.2) { outcome in
                if case .reloaded(let spec) = outcome { done(spec.panes.map(\.title)) }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { try? better.write(toFile: path, atomically: true, encoding: .utf8) }
        }
        #expect(titles == ["One", "Two"])
    }

    /// A log kept open beside the config (`--log`, any program's) wakes nothing: for what the
    /// watcher asks inotify, a log's writes queue no event, only its closing. Read from an
    /// inotify descriptor of the test's own, watching the directory as the reloader does.
    @Test func writesToALogBesideTheConfigQueueNoEvents() throws {
        let path = try tempFile(good)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(inotify_add_watch(fd, directory, ConfigReloader.savesMask) >= 0)
        var queued = [UInt8](repeating: 0, count: 4096)
        func readQueued() -> Int { queued.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
        // An event that must come is waited for: a process another test spawns at that moment
        // holds the log open until its exec (close-on-exec), and the close's event comes then.
        func awaitQueued() -> Int {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 10_000)
            return readQueued()
        }
        let log = open(directory + "/hammock.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        try #require(log >= 0)
        _ = readQueued()  // the creation
        for line in 0..<100 { _ = "line \(line)\n".withCString { write(log, $0, strlen($0)) } }
        // No write is an event. A close may be: a process another test forks in this moment holds
        // the log until its exec, and its closing it is one (a `swift build` or a tmux test).
        let afterWrites = readQueued()
        var masks: [UInt32] = []
        var offset = 0
        while afterWrites > 0, offset + 16 <= afterWrites {
            let mask = queued[(offset + 4)..<(offset + 8)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let nameLength = queued[(offset + 12)..<(offset + 16)].reversed().reduce(0) { $0 << 8 | Int($1) }
            masks.append(mask)
            offset += 16 + nameLength
        }
        #expect(afterWrites < 0 && errno == EAGAIN || masks.allSatisfy { $0 & UInt32(IN_CLOSE_WRITE) != 0 },
            "100 writes to the log queued events other than a close: \(masks)")
        close(log)
        // A close is an event (one, for the whole log), and the config's own save is one too.
        let afterClose = awaitQueued()
        #expect(afterClose > 0 && ConfigReloader.events(queued[0..<max(0, afterClose)], name: Array("hammock.log".utf8)))
        try better.write(toFile: path, atomically: false, encoding: .utf8)
        let afterSave = awaitQueued()
        let name = Array(URL(fileURLWithPath: path).lastPathComponent.utf8)
        #expect(afterSave > 0 && ConfigReloader.events(queued[0..<max(0, afterSave)], name: name), "an in-place save is seen")
    }

    @Test func aConfigOthersCanChangeIsNotWatched() throws {
        let path = try tempFile(good)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        #expect(ConfigReloader.watchProblem(path: path) == nil)
        chmod(path, 0o666)
        #expect(ConfigReloader.watchProblem(path: path) == "anyone can write \(path)")
        chmod(path, 0o644)
        chmod(directory, 0o777)
        #expect(ConfigReloader.watchProblem(path: path) == "anyone can replace files in \(directory)")
        chmod(directory, 0o1777)
        #expect(ConfigReloader.watchProblem(path: path) == nil, "a sticky directory like /tmp lets no one else replace the file")
        if geteuid() == 0 {
            chown(path, 65534, 65534)
            #expect(ConfigReloader.watchProblem(path: path) == "\(path) belongs to another user")
        }
        let reloader = ConfigReloader(path: path, current: try ConfigLoader.load(path: path))
        if geteuid() == 0 { #expect(reloader.watch { _ in } == "\(path) belongs to another user", "and watch says why it does not") }
    }
}
