import Foundation
import ResourceEngine
import ResourceEngineTesting
import Synchronization
import Testing

/// Appends a marker to text content, to make stage order visible.
struct Appender: ResponseTransformer {
    let marker: String
    func process(_ response: Response) -> Response {
        guard case .success(var entity) = response else { return response }
        entity.content = ((entity.content as? String) ?? "") + marker
        return .success(entity)
    }
    var debugDescription: String { "append \(marker)" }
}

/// Counts how often it runs, across threads.
final class CountingTransformer: ResponseTransformer {
    let count = Mutex(0)
    func process(_ response: Response) -> Response {
        count.withLock { $0 += 1 }
        return response
    }
    var runs: Int { count.withLock { $0 } }
    var debugDescription: String { "counter" }
}

/// Counts how often it runs and passes the response on; says whether its answer depends on the
/// content alone (`ResponseTransformer.dependsOnContentAlone`).
final class CountingPassThrough: ResponseTransformer {
    let count = Mutex(0)
    let dependsOnContentAlone: Bool
    init(dependsOnContentAlone: Bool) { self.dependsOnContentAlone = dependsOnContentAlone }
    func process(_ response: Response) -> Response {
        count.withLock { $0 += 1 }
        return response
    }
    var runs: Int { count.withLock { $0 } }
    var debugDescription: String { "counting pass-through" }
}

@MainActor
@Suite struct PipelineTests {
    let h = Harness()

    private func loadText() async throws -> String {
        h.stubText(h.resource, "")
        _ = try await h.resource.load().awaitResult()
        return h.resource.text
    }

    @Test func determinesTransformerOrderByStage() async throws {
        h.service.configure("**") {
            $0.pipeline.clear()
            $0.pipeline[.cleanup].add(Appender(marker: "cle"))
            $0.pipeline[.model].add(Appender(marker: "mod"))
            $0.pipeline[.rawData].add(Appender(marker: "raw"))
            $0.pipeline[.decoding].add(Appender(marker: "dec"))
            $0.pipeline[.parsing].add(Appender(marker: "par"))
        }
        #expect(try await loadText() == "rawdecparmodcle")
    }

    @Test func clearRemovesEveryPreviouslyConfiguredTransformer() async throws {
        h.service.configure("**") {
            $0.pipeline[.model].add(Appender(marker: "mod"))
            $0.pipeline.clear()
        }
        h.stubText(h.resource, "body")
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestData?.content is Data)
    }

    @Test func canReorderStages() async throws {
        h.service.configure("**") {
            $0.pipeline[.model].add(Appender(marker: "mod"))
            $0.pipeline[.cleanup].add(Appender(marker: "cle"))
            $0.pipeline.order = [.rawData, .parsing, .cleanup, .model]
        }
        #expect(try await loadText() == "clemod")
    }

    @Test func skipsUnlistedStages() async throws {
        h.service.configure("**") {
            $0.pipeline[.model].add(Appender(marker: "mod"))
            $0.pipeline[.cleanup].add(Appender(marker: "cle"))
            $0.pipeline.order = [.rawData, .decoding, .parsing, .cleanup]
        }
        #expect(try await loadText() == "cle")
    }

    @Test func supportsCustomStageKeys() async throws {
        let audit = PipelineStageKey(description: "audit")
        h.service.configure("**") {
            $0.pipeline[.model].add(Appender(marker: "mod"))
            $0.pipeline[audit].add(Appender(marker: "aud"))
            $0.pipeline[.cleanup].add(Appender(marker: "cle"))
            $0.pipeline.order.insert(audit, at: 4)
        }
        #expect(try await loadText() == "modaudcle")
    }

    @Test func runsTransformersInTheOrderAdded() async throws {
        h.service.configure("**") {
            $0.pipeline[.model].add(Appender(marker: "1"))
            $0.pipeline[.model].add(Appender(marker: "2"))
        }
        h.service.configure("/a/**") { $0.pipeline[.model].add(Appender(marker: "3")) }
        #expect(try await loadText() == "123")
    }

    @Test func canClearAndReplaceTransformers() async throws {
        h.service.configure("**") {
            $0.pipeline[.model].add(Appender(marker: "old"))
            $0.pipeline[.cleanup].add(Appender(marker: "cle"))
        }
        h.service.configure("/a/**") {
            $0.pipeline[.model].removeTransformers()
            $0.pipeline[.model].add(Appender(marker: "new"))
        }
        #expect(try await loadText() == "newcle")
    }

    @Test func canClearEveryStage() async throws {
        h.service.configure("**") {
            $0.pipeline[.model].add(Appender(marker: "mod"))
            $0.pipeline.removeAllTransformers()
        }
        h.stubText(h.resource, "raw")
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestData?.content is Data, "even the standard parsers are gone")
    }

    @Test func configureTransformerReplacesPreviouslyConfiguredModelTransformersByDefault() async throws {
        h.service.configureTransformer("**") { (text: String, _) in text + "first" }
        h.service.configureTransformer("/a/*") { (text: String, _) in text + "second" }
        #expect(try await loadText() == "second")
    }

    @Test func configureTransformerCanAppend() async throws {
        h.service.configureTransformer("**") { (text: String, _) in text + "first" }
        h.service.configureTransformer("/a/*", action: .appendToExisting) { (text: String, _) in text + "second" }
        #expect(try await loadText() == "firstsecond")
    }

    @Test func configureTransformerCanTargetAStage() async throws {
        h.service.configureTransformer("**", atStage: .cleanup) { (text: String, _) in text + "cle" }
        h.service.configureTransformer("**") { (text: String, _) in text + "mod" }
        #expect(try await loadText() == "modcle")
    }

    @Test func configureTransformerCanBeLimitedToSpecificMethods() async throws {
        h.service.configureTransformer("**", requestMethods: [.post]) { (text: String, _) in text + "posted" }
        h.network.stub(nil, h.resource.url.absoluteString, .text("x"))
        let get = try await h.resource.request(.get).awaitResult()
        let post = try await h.resource.request(.post).awaitResult()
        #expect(get.entity?.content as? String == "x")
        #expect(post.entity?.content as? String == "xposted")
    }

    @Test func configureTransformerSkipsHeadAndOptionsByDefault() {
        h.service.configureTransformer("**") { (text: String, _) in text }
        #expect(h.resource.configuration(for: .head).pipeline[.model].transformers.isEmpty)
        #expect(h.resource.configuration(for: .options).pipeline[.model].transformers.isEmpty)
        #expect(h.resource.configuration(for: .delete).pipeline[.model].transformers.count == 1)
    }

    @Test func eachResponseIsParsedOnceHoweverManyObserversAndHooks() async throws {
        let counter = CountingTransformer()
        h.service.configure("**") { $0.pipeline[.parsing].add(counter) }
        h.network.stub(.get, h.resource.url.absoluteString, .json(#"{"a":1}"#))
        let owners = (0..<5).map { _ in Owner() }
        var notified = 0
        for owner in owners {
            h.resource.addObserver(owner: owner) { _, event in if event == .newData(.network) { notified += 1 } }
        }
        var hooks = 0
        let request = h.resource.load()
        for _ in 0..<5 { request.onSuccess { _ in hooks += 1 }.onCompletion { _ in hooks += 1 } }
        _ = try await request.awaitResult()
        try await drainMainQueue()
        #expect(counter.runs == 1)
        #expect(notified == 5)
        #expect(hooks == 10)
        #expect(h.resource.jsonDict["a"] == 1)
    }

    @Test func doesNotReprocessExistingDataOn304() async throws {
        let counter = CountingTransformer()
        h.service.configure("**") { $0.pipeline[.model].add(counter) }
        h.stubText(h.resource, "x", headers: ["ETag": "1"])
        _ = try await h.resource.load().awaitResult()
        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 304))
        _ = try await h.resource.load().awaitResult()
        #expect(counter.runs == 1)
        #expect(h.resource.text == "x")
    }

    @Test func transformersRunOffTheMainActor() async throws {
        // The transformer waits for the main actor to act; if it ran on the main actor it could never see that.
        let signal = DispatchSemaphore(value: 0)
        let sawSignal = Mutex(false)
        h.service.configure("**") {
            $0.pipeline[.model].add(
                ResponseContentTransformer<String, String> { text, _ in
                    let ok = signal.wait(timeout: .now() + 5) == .success
                    sawSignal.withLock { $0 = ok }
                    return text
                })
        }
        h.stubText(h.resource, "x")
        let request = h.resource.load()
        DispatchQueue.main.async { signal.signal() }
        _ = try await request.awaitResult()
        #expect(sawSignal.withLock { $0 })
    }

    @Test func aTransformerCanTurnSuccessIntoFailureAndBack() async throws {
        struct Flip: ResponseTransformer {
            func process(_ response: Response) -> Response {
                switch response {
                case .success(let entity) where entity.json?["status"] == "DOWN":
                    return .failure(RequestError(userMessage: "Service reports DOWN", cause: nil, entity: entity))
                case .failure(let error) where error.httpStatusCode == 418:
                    return .success(Entity(content: "teapot is fine", timestamp: 0))
                default: return response
                }
            }
            var debugDescription: String { "flip" }
        }
        h.service.configure("**") { $0.pipeline[.cleanup].add(Flip()) }
        h.network.stub(.get, h.resource.url.absoluteString, .json(#"{"status":"DOWN"}"#))
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestError?.userMessage == "Service reports DOWN")
        h.stubText(h.resource, "", status: 418)
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestError == nil)
        #expect(h.resource.text == "teapot is fine")
    }

    /// The pipeline runs each transformer in place (`transform`), through a content-type gate
    /// too; a response of another content type reaches neither of the transformer's methods.
    @Test func runsTransformersInPlaceThroughTheirGates() async throws {
        final class InPlace: ResponseTransformer {
            let calls = Mutex((process: 0, transform: 0))
            func process(_ response: Response) -> Response {
                calls.withLock { $0.process += 1 }
                return response
            }
            func transform(_ response: inout Response) {
                calls.withLock { $0.transform += 1 }
                guard case .success(var entity) = response else { return }
                entity.content = ((entity.content as? String) ?? "") + " in place"
                response = .success(entity)
            }
            var debugDescription: String { "in place" }
        }
        let inPlace = InPlace()
        h.service.configure("**") { $0.pipeline[.model].add(inPlace, contentTypes: ["text/*"]) }
        h.stubText(h.resource, "done")
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.text == "done in place")
        h.network.stub(.get, h.resource.url.absoluteString, .json(#"{"a":1}"#))
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.json == ["a": 1])
        #expect(inPlace.calls.withLock { $0 } == (process: 0, transform: 1))
    }

    // MARK: An unchanged body is not transformed again

    private func load(_ response: FakeNetworkingProvider.FakeResponse, at time: TimeInterval) async throws -> Entity? {
        h.clock.set(time)
        h.network.stub(.get, h.resource.url.absoluteString, response)
        _ = try? await h.resource.load().awaitResult()
        return h.resource.latestData
    }

    /// A body byte for byte the one before, with the same content type, gets the content the
    /// pipeline made of it then when every transformer depends on the content alone: the JSON
    /// parser and a model transformer run once for two answers. Everything else about the
    /// answer is its own: its time, its headers, its newData event.
    @Test func anUnchangedBodyGetsTheContentMadeOfItBefore() async throws {
        let counter = CountingPassThrough(dependsOnContentAlone: true)
        h.service.configure("**") { $0.pipeline[.model].add(counter) }
        var events: [ResourceEvent] = []
        let owner = Owner()
        h.resource.addObserver(owner: owner) { _, event in events.append(event) }
        let first = try #require(try await load(.json(#"{"status":"UP"}"#, headers: ["X-Seen": "1"]), at: 100))
        let second = try #require(try await load(.json(#"{"status":"UP"}"#, headers: ["X-Seen": "2"]), at: 101))
        #expect(counter.runs == 1)
        let (a, b) = (try #require(first.content as? JSON), try #require(second.content as? JSON))
        #expect(a.isIdentical(to: b), "the very value made of the first answer")
        #expect(second.json == ["status": "UP"])
        #expect(second.timestamp == 101)
        #expect(second.header(forKey: "x-seen") == "2")
        #expect(events.filter { $0 == .newData(.network) }.count == 2)
    }

    /// Anything that could make the pipeline answer differently runs it again: other bytes,
    /// another content type, a changed pipeline, a body too large to remember, a failure.
    @Test func anythingButTheSameBodyRunsThePipelineAgain() async throws {
        let counter = CountingPassThrough(dependsOnContentAlone: true)
        h.service.configure("**") { $0.pipeline[.model].add(counter) }
        _ = try await load(.json(#"{"n":1}"#), at: 1)
        let changed = try await load(.json(#"{"n":2}"#), at: 2)
        #expect(counter.runs == 2)
        #expect(changed?.json == ["n": 2])
        let asText = try await load(.text(#"{"n":2}"#), at: 3)
        #expect(counter.runs == 3)
        #expect(asText?.content as? String == #"{"n":2}"#)
        h.service.configure("**") { $0.pipeline[.cleanup].add(Appender(marker: "!")) }
        _ = try await load(.text(#"{"n":2}"#), at: 4)
        _ = try await load(.text(#"{"n":2}"#), at: 5)
        #expect(counter.runs == 5, "a pipeline with a transformer that does not say it depends on the content alone runs every time")
        #expect(h.resource.text == #"{"n":2}!"#)
    }

    @Test func aChangedPipelineOrALargeBodyOrAFailureIsNotRemembered() async throws {
        let counter = CountingPassThrough(dependsOnContentAlone: true)
        h.service.configure("**") { $0.pipeline[.model].add(counter) }
        _ = try await load(.json(#"{"n":1}"#), at: 1)
        h.service.configure("/a/**") { $0.pipeline[.cleanup].add(CountingPassThrough(dependsOnContentAlone: true)) }
        _ = try await load(.json(#"{"n":1}"#), at: 2)
        #expect(counter.runs == 2, "another pipeline")
        _ = try await load(.json(#"{"n":1}"#), at: 3)
        #expect(counter.runs == 2)
        let large = "[" + Array(repeating: "1", count: 3_000).joined(separator: ",") + "]"
        _ = try await load(.json(large), at: 4)
        _ = try await load(.json(large), at: 5)
        #expect(counter.runs == 4)
        #expect(h.resource.latestData?.json?.arrayValue?.count == 3_000)
        _ = try await load(.json("{"), at: 6)
        _ = try await load(.json("{"), at: 7)
        #expect(counter.runs == 6, "a failure goes through the pipeline every time")
        #expect(h.resource.latestError?.userMessage.hasPrefix("Invalid JSON") == true)
    }
}
