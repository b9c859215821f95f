import Foundation
import FoundationNetworking
import ResourceEngine
import ResourceEngineTesting
import Testing

@MainActor
@Suite struct ResourceStateTests {
    let h = Harness()

    @Test func startsInABlankState() {
        let resource = h.resource
        #expect(resource.latestData == nil)
        #expect(resource.latestError == nil)
        #expect(!resource.isLoading)
        #expect(!resource.isRequesting)
        #expect(resource.loadRequests.isEmpty)
        #expect(resource.timestamp == 0)
        #expect(!resource.isUpToDate)
    }

    @Test func entityHeaderNamesAreLowerCasedWhateverTheirScript() {
        var entity = Entity(content: "", headers: ["X-Custom": "a", "x-ÜBER": "b", "ä": "c"])
        #expect(entity.headers == ["x-custom": "a", "x-über": "b", "ä": "c"])
        entity.headers = ["ÉTAG": "d"]
        #expect(entity.headers == ["étag": "d"])
        entity.headers = ["plain": "e", "Ü": "f"]
        #expect(entity.headers == ["plain": "e", "ü": "f"], "a name that is not ASCII is lower-cased too")
        #expect(entity.contentType == "application/octet-stream")
        entity.headers = ["Content-Type": "text/csv"]
        #expect(entity.contentType == "text/csv", "the content type follows the headers")
        entity.headers["content-type"] = nil
        #expect(entity.contentType == "application/octet-stream")
        #expect(Entity(content: "", contentType: "a/b", headers: ["Content-Type": "c/d"]).contentType == "a/b")
    }

    /// Entities share their parts until one changes: a change to a copy, of any part, leaves
    /// the original as it was, also when the copy crossed to another thread.
    @Test func anEntityCopyChangesAloneWhicheverPartChanges() async {
        let original = Entity(content: "body", contentType: "text/plain; charset=latin1", headers: ["ETag": "\"1\""], timestamp: 5)
        var copies = Array(repeating: original, count: 5)
        copies[0].content = 42
        copies[1].headers = ["Content-Type": "application/json"]
        copies[2].charset = "utf-8"
        copies[3].touch(9)
        copies[4] = await Task.detached { () -> Entity in
            var moved = original
            moved.headers["etag"] = "\"2\""
            return moved
        }.value
        #expect(original.content as? String == "body")
        #expect(original.contentType == "text/plain; charset=latin1")
        #expect(original.charset == "latin1")
        #expect(original.timestamp == 5)
        #expect(original.etag == "\"1\"")
        #expect(copies.map { $0.content as? Int } == [42, nil, nil, nil, nil])
        #expect(copies.map(\.contentType) == ["text/plain; charset=latin1", "application/json"] + Array(repeating: "text/plain; charset=latin1", count: 3))
        #expect(copies.map(\.charset) == ["latin1", "latin1", "utf-8", "latin1", "latin1"])
        #expect(copies.map(\.timestamp) == [5, 5, 5, 9, 5])
        #expect(copies.map(\.etag) == ["\"1\"", nil, "\"1\"", "\"1\"", "\"2\""])
    }

    @Test func loadStoresDataHeadersAndTimestamp() async throws {
        h.stubText(h.resource, "eep eep", headers: ["X-Custom": "yes", "ETag": "\"v1\""])
        _ = try await h.resource.load().awaitResult()
        let data = try #require(h.resource.latestData)
        #expect(data.bodyText == "eep eep")
        #expect(data.contentType == "text/plain")
        #expect(data.header(forKey: "x-CUSTOM") == "yes")
        #expect(data.etag == "\"v1\"")
        #expect(data.timestamp == h.clock.now)
        #expect(h.resource.timestamp == h.clock.now)
        #expect(h.resource.latestError == nil)
    }

    @Test func defaultsContentTypeToRawBinary() async throws {
        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 200, body: Data([1, 2, 3])))
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestData?.contentType == "application/octet-stream")
        #expect(h.resource.latestData?.content as? Data == Data([1, 2, 3]))
    }

    @Test func emptyBodyIsEmptyData() async throws {
        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 204))
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestData?.content as? Data == Data())
    }

    @Test func marksThatTheResourceIsLoadingUntilTheResponseArrives() async throws {
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let request = h.resource.load()
        #expect(h.resource.isLoading)
        #expect(h.resource.isRequesting)
        #expect(h.resource.loadRequests.count == 1)
        h.network.releaseAll()
        _ = try await request.awaitResult()
        #expect(!h.resource.isLoading)
        #expect(!h.resource.isRequesting)
    }

    @Test func requestDoesNotUpdateTheResourceState() async throws {
        h.network.stub(.post, h.resource.url.absoluteString, .text("posted"))
        let request = h.resource.request(.post, text: "hi")
        #expect(h.resource.isRequesting)
        #expect(!h.resource.isLoading)
        _ = try await request.awaitResult()
        #expect(h.resource.latestData == nil)
        #expect(!h.resource.isRequesting)
    }

    @Test func tracksConcurrentRequests() async throws {
        h.stubText(h.resource, "x")
        h.network.stub(.put, h.resource.url.absoluteString, .text("put"))
        h.network.holdsResponses = true
        let load1 = h.resource.load()
        let load2 = h.resource.load()
        let put = h.resource.request(.put)
        #expect(h.resource.loadRequests.count == 2)
        #expect(h.resource.allRequests.count == 3)
        h.network.releaseFirst()
        _ = try await load1.awaitResult()
        #expect(h.resource.isLoading)
        #expect(h.resource.loadRequests.count == 1)
        h.network.releaseAll()
        _ = try await load2.awaitResult()
        _ = try await put.awaitResult()
        #expect(!h.resource.isLoading)
        #expect(!h.resource.isRequesting)
    }

    // MARK: ETag and 304

    @Test func sendsTheEtagWithSubsequentRequests() async throws {
        h.stubText(h.resource, "v1", headers: ["ETag": "\"abc\""])
        _ = try await h.resource.load().awaitResult()
        #expect(h.network.receivedRequests[0].value(forHTTPHeaderField: "If-None-Match") == nil)
        _ = try await h.resource.load().awaitResult()
        #expect(h.network.receivedRequests[1].value(forHTTPHeaderField: "If-None-Match") == "\"abc\"")
    }

    @Test func plainRequestNeverSendsIfNoneMatch() async throws {
        h.stubText(h.resource, "v1", headers: ["ETag": "\"abc\""])
        _ = try await h.resource.load().awaitResult()
        _ = try await h.resource.request(.get).awaitResult()
        #expect(h.network.receivedRequests[1].value(forHTTPHeaderField: "If-None-Match") == nil)
    }

    @Test func handlesSubsequent304ByKeepingExistingData() async throws {
        h.stubText(h.resource, "original", headers: ["ETag": "\"abc\""])
        _ = try await h.resource.load().awaitResult()
        let firstTimestamp = h.resource.timestamp

        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 304))
        h.clock.advance(by: 5)
        let info = try await h.resource.load().awaitResponseInfo()
        #expect(!info.isNew)
        #expect(info.response.entity?.bodyText == "original")
        #expect(h.resource.latestData?.bodyText == "original")
        #expect(h.resource.timestamp == firstTimestamp + 5)
    }

    @Test func a304ClearsThePreviousError() async throws {
        h.stubText(h.resource, "original", headers: ["ETag": "\"abc\""])
        _ = try await h.resource.load().awaitResult()
        h.stubText(h.resource, "boom", status: 500)
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestError != nil)
        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 304))
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestError == nil)
        #expect(h.resource.latestData?.bodyText == "original")
    }

    @Test func a304WithNoLocalDataIsAnError() async throws {
        h.network.stub(.get, h.resource.url.absoluteString, .init(status: 304))
        let response = try await h.resource.load().awaitResult()
        let error = try #require(response.error)
        #expect(error.userMessage == "No data available")
        #expect(error.cause is RequestError.Cause.NoLocalDataFor304)
        #expect(h.resource.latestError?.userMessage == "No data available")
    }

    // MARK: Errors

    @Test(arguments: Array(400...410) + Array(500...505))
    func treatsHTTPStatusAsAnError(statusCode: Int) async throws {
        h.stubText(h.resource, "body of \(statusCode)", status: statusCode)
        let response = try await h.resource.load().awaitResult()
        let error = try #require(response.error)
        #expect(error.httpStatusCode == statusCode)
        #expect(error.userMessage == HTTPStatus.reasonPhrase(for: statusCode))
        #expect(error.entity?.bodyText == "body of \(statusCode)")
        #expect(h.resource.latestError?.httpStatusCode == statusCode)
        #expect(h.resource.latestData == nil)
    }

    @Test func generatesErrorMessagesFromHTTPStatusCodes() async throws {
        h.stubText(h.resource, "", status: 404)
        let error = try #require(try await h.resource.load().awaitResult().error)
        #expect(error.userMessage == "Not Found")
        #expect(error.entity?.bodyText == "", "an empty body, but the answer's headers are kept")
        h.stubText(h.resource, "", status: 503)
        #expect(try await h.resource.load().awaitResult().error?.userMessage == "Service Unavailable")
    }

    @Test func transportErrorsGetScreenMessages() async throws {
        h.network.stub(.get, h.resource.url.absoluteString, .failure(TransportError(.cannotConnectToHost)))
        let error = try #require(try await h.resource.load().awaitResult().error)
        #expect(error.userMessage == "Could not connect to the server")
        #expect(error.httpStatusCode == nil)
        #expect((error.cause as? TransportError)?.code == .cannotConnectToHost)
    }

    @Test func preservesLastValidDataAfterError() async throws {
        h.stubText(h.resource, "good")
        _ = try await h.resource.load().awaitResult()
        h.stubText(h.resource, "bad", status: 500)
        h.clock.advance(by: 3)
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestData?.bodyText == "good")
        #expect(h.resource.latestError?.httpStatusCode == 500)
        #expect(h.resource.latestError?.timestamp == h.clock.now)
        #expect(h.resource.timestamp == h.clock.now)
    }

    @Test func successClearsTheError() async throws {
        h.stubText(h.resource, "bad", status: 500)
        _ = try await h.resource.load().awaitResult()
        h.stubText(h.resource, "good")
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestError == nil)
        #expect(h.resource.latestData?.bodyText == "good")
    }

    @Test func leavesEverythingUnchangedAfterACancelledRequest() async throws {
        h.stubText(h.resource, "first")
        _ = try await h.resource.load().awaitResult()
        let before = h.resource.latestData?.timestamp
        h.stubText(h.resource, "second")
        h.network.holdsResponses = true
        let request = h.resource.load()
        request.cancel()
        let response = try await request.awaitResult()
        #expect(response.isCancellation)
        h.network.releaseAll()
        try await drainMainQueue(turns: 3)
        #expect(h.resource.latestData?.bodyText == "first")
        #expect(h.resource.latestData?.timestamp == before)
        #expect(h.resource.latestError == nil)
        #expect(!h.resource.isLoading)
    }

    @Test func recordsTransferMetricsOfTheLatestLoad() async throws {
        h.stubText(h.resource, "12345")
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestMetrics?.statusCode == 200)
        #expect(h.resource.latestMetrics?.bodyBytes == 5)
        h.stubText(h.resource, "nope", status: 503)
        _ = try await h.resource.load().awaitResult()
        #expect(h.resource.latestMetrics?.statusCode == 503)
    }

    @Test func latencyIsTheTransportsOwnMeasureNotTheTimeSinceTheRequestWasMade() async throws {
        var response = FakeNetworkingProvider.FakeResponse.text("ok")
        response.timing = TransferTiming(connect: 0.001, firstByte: 0.040, total: 0.042)
        h.network.stub(.get, h.resource.url.absoluteString, response)
        h.network.holdsResponses = true
        let load = h.resource.load()
        h.clock.advance(by: 18)  // queued behind other transfers, say
        h.network.releaseAll()
        _ = try await load.awaitResult()
        #expect(h.resource.latestMetrics?.latency == 0.042)
        #expect(h.resource.latestMetrics?.timing?.firstByte == 0.040)
        // Without a transport measure, the engine's clock decides.
        h.network.stub(.get, h.resource.url.absoluteString, .text("ok"))
        let again = h.resource.load()
        h.clock.advance(by: 3)
        h.network.releaseAll()
        _ = try await again.awaitResult()
        #expect(h.resource.latestMetrics?.latency == 3)
    }

    // MARK: loadIfNeeded

    @Test func loadIfNeededLoadsWhenThereIsNoData() async throws {
        h.stubText(h.resource, "x")
        let request = try #require(h.resource.loadIfNeeded())
        _ = try await request.awaitResult()
        #expect(h.network.receivedRequests.count == 1)
    }

    @Test func loadIfNeededReturnsTheExistingRequestIfOneIsInProgress() {
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let first = h.resource.load()
        #expect(h.resource.loadIfNeeded() === first)
        h.resource.invalidate()
        #expect(h.resource.loadIfNeeded() === first)
        #expect(h.network.receivedRequests.count == 1)
    }

    @Test func loadIfNeededInitiatesANewRequestIfANonLoadRequestIsInProgress() {
        h.stubText(h.resource, "x")
        h.network.holdsResponses = true
        let put = h.resource.request(.put)
        let load = h.resource.loadIfNeeded()
        #expect(load != nil)
        #expect(load !== put)
        #expect(h.network.receivedRequests.count == 2)
    }

    @Test func doesNotLoadAgainSoonButLoadsAgainLater() async throws {
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.clock.advance(by: 10)
        #expect(h.resource.loadIfNeeded() == nil)
        h.clock.advance(by: 20)
        #expect(h.resource.loadIfNeeded() == nil, "exactly at expirationTime is still fresh")
        h.clock.advance(by: 0.001)
        let request = try #require(h.resource.loadIfNeeded())
        _ = try await request.awaitResult()
        #expect(h.network.receivedRequests.count == 2)
    }

    @Test func respectsCustomExpirationTime() async throws {
        h.service.configure("**") { $0.expirationTime = 1 }
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.clock.advance(by: 2)
        #expect(h.resource.loadIfNeeded() != nil)
    }

    @Test func doesNotRetrySoonButRetriesLater() async throws {
        h.stubText(h.resource, "x", status: 500)
        _ = try await h.resource.load().awaitResult()
        h.clock.advance(by: 0.5)
        #expect(h.resource.loadIfNeeded() == nil)
        h.clock.advance(by: 1)
        #expect(h.resource.loadIfNeeded() != nil)
    }

    @Test func respectsCustomRetryTime() async throws {
        h.service.configure("**") { $0.retryTime = 10 }
        h.stubText(h.resource, "x", status: 500)
        _ = try await h.resource.load().awaitResult()
        h.clock.advance(by: 5)
        #expect(h.resource.loadIfNeeded() == nil)
        h.clock.advance(by: 6)
        #expect(h.resource.loadIfNeeded() != nil)
    }

    @Test func retryWindowAppliesWhenDataIsOlderThanTheError() async throws {
        h.stubText(h.resource, "good")
        _ = try await h.resource.load().awaitResult()
        h.clock.advance(by: 40)
        h.stubText(h.resource, "bad", status: 500)
        _ = try await h.resource.load().awaitResult()
        h.clock.advance(by: 0.5)
        #expect(h.resource.loadIfNeeded() == nil, "error is within retryTime")
        h.clock.advance(by: 1)
        #expect(h.resource.loadIfNeeded() != nil)
    }

    @Test func expirationAndRetryComeOnlyFromGETConfiguration() async throws {
        h.service.configure("**", requestMethods: [.post]) { $0.expirationTime = 0 }
        h.stubText(h.resource, "x")
        _ = try await h.resource.load().awaitResult()
        h.clock.advance(by: 1)
        #expect(h.resource.loadIfNeeded() == nil)
    }
}
