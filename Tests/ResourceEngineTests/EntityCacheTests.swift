import Foundation
import FoundationNetworking
import HammockHarness
@testable import ResourceEngine
import ResourceEngineTesting
import Synchronization
import Testing

private func temporaryDirectory() -> URL {
    URL(fileURLWithPath: ScratchDirectory.path("cache"))
}

/// The entry files in a cache's own directory (not the marker).
private func entries(_ cache: DiskEntityCache) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).filter { !$0.hasPrefix(".") }
}

@Suite struct DiskEntityCacheTests {
    @Test func roundTripsJSONTextAndBytesWithTheirMetadata() throws {
        let cache = DiskEntityCache(directory: temporaryDirectory())
        let json = Entity(content: JSON.object(["b": 1, "a": [true, nil]]), headers: ["Content-Type": "application/json", "ETag": "\"v3\"", "Last-Modified": "Fri, 27 Nov 2026 10:00:00 GMT", "Set-Cookie": "s=1"], timestamp: 1234.5)
        cache.writeEntity(json, forKey: "k1")
        cache.writeEntity(Entity(content: "hé", contentType: "text/plain; charset=utf-8", timestamp: 1), forKey: "k2")
        cache.writeEntity(Entity(content: Data([0, 1, 255]), timestamp: 2), forKey: "k3")
        cache.flush()
        let back = try #require(cache.readEntity(forKey: "k1"))
        #expect(back.content as? JSON == ["b": 1, "a": [true, nil]])
        #expect((back.content as? JSON)?.objectValue?.keys == ["b", "a"])
        #expect(back.etag == "\"v3\"")
        #expect(back.lastModified == "Fri, 27 Nov 2026 10:00:00 GMT", "a restart can still ask If-Modified-Since")
        #expect(back.contentType == "application/json")
        #expect(back.timestamp == 1234.5)
        #expect(back.header(forKey: "set-cookie") == nil, "response headers such as cookies are not stored")
        #expect(cache.readEntity(forKey: "k2")?.content as? String == "hé")
        #expect(cache.readEntity(forKey: "k2")?.charset == "utf-8")
        #expect(cache.readEntity(forKey: "k3")?.content as? Data == Data([0, 1, 255]))
        #expect(cache.readEntity(forKey: "missing") == nil)
    }

    @Test func corruptAndForeignFilesAreIgnoredAndReplaced() throws {
        let directory = temporaryDirectory()
        let cache = DiskEntityCache(directory: directory)
        cache.writeEntity(Entity(content: "good", timestamp: 1), forKey: "k")
        cache.flush()
        let file = try #require(try entries(cache).first)
        for junk in [Data("{not json".utf8), Data([0xFF, 0x00]), Data(#"{"hammockCache":99,"kind":"text","content":"x"}"#.utf8), Data()] {
            try junk.write(to: cache.directory.appendingPathComponent(file))
            // As a later run finds it: a cache lists its directory once.
            let cache = DiskEntityCache(directory: directory)
            #expect(cache.readEntity(forKey: "k") == nil)
            #expect(!FileManager.default.fileExists(atPath: cache.directory.appendingPathComponent(file).path), "the bad file is removed")
        }
        cache.writeEntity(Entity(content: "again", timestamp: 2), forKey: "k")
        cache.flush()
        #expect(cache.readEntity(forKey: "k")?.content as? String == "again")
    }

    @Test func staysWithinItsSizeDroppingTheOldestFirst() throws {
        let directory = temporaryDirectory()
        let cache = DiskEntityCache(directory: directory, maxBytes: 20_000)
        let body = String(repeating: "x", count: 3000)
        for i in 0..<20 {
            cache.writeEntity(Entity(content: body, timestamp: Double(i)), forKey: "k\(i)")
            cache.flush()
        }
        let files = try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: [.fileSizeKey])
            .filter { !$0.lastPathComponent.hasPrefix(".hammock") }
        let total = try files.reduce(0) { $0 + (try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) }
        #expect(total <= 20_000)
        #expect(cache.readEntity(forKey: "k19") != nil, "the newest survives")
        #expect(cache.readEntity(forKey: "k0") == nil, "the oldest went first")
        #expect(!files.contains { $0.lastPathComponent.hasSuffix(".tmp") }, "no temporary files are left")
    }

    @Test func filesLeftByAnEarlierRunCountTowardsTheBound() throws {
        let directory = temporaryDirectory()
        let body = String(repeating: "y", count: 3000)
        let earlier = DiskEntityCache(directory: directory)
        for i in 0..<5 { earlier.writeEntity(Entity(content: body, timestamp: Double(i)), forKey: "old\(i)") }
        earlier.flush()
        let past = Date(timeIntervalSinceNow: -3600)
        for name in try entries(earlier) {
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: earlier.directory.appendingPathComponent(name).path)
        }
        let later = DiskEntityCache(directory: directory, maxBytes: 10_000)
        later.writeEntity(Entity(content: body, timestamp: 9), forKey: "new")
        later.flush()
        let names = try entries(later)
        #expect(names.count == 3, "the bound is kept counting what the earlier run left: \(names.count) files")
        #expect(later.readEntity(forKey: "new") != nil)
        #expect(later.stats.filesRemoved == 3)
    }

    @Test func changesAreCoalescedPerEntryAndReadBackBeforeTheyAreWritten() throws {
        let directory = temporaryDirectory()
        let cache = DiskEntityCache(directory: directory, writeDelay: 3600)
        for i in 0..<100 {
            cache.writeEntity(Entity(content: "v\(i)", timestamp: Double(i)), forKey: "k")
            cache.updateTimestamp(Double(i) + 0.5, forKey: "k")
        }
        cache.writeEntity(Entity(content: "other", timestamp: 1), forKey: "gone")
        cache.removeEntity(forKey: "gone")
        #expect(cache.readEntity(forKey: "k")?.content as? String == "v99", "a pending write is what a read sees")
        #expect(cache.readEntity(forKey: "k")?.timestamp == 99.5)
        #expect(cache.readEntity(forKey: "gone") == nil, "a pending removal hides the entry")
        #expect(try entries(cache).isEmpty, "nothing is written before the delay")
        cache.flush()
        #expect(cache.stats.filesWritten == 1 && cache.stats.filesRemoved == 0, "two hundred changes to one entry, one file write")
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.timestamp == 99.5)

        cache.updateTimestamp(200, forKey: "k")
        cache.flush()
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.timestamp == 200, "a 304's timestamp reaches the file")
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.content as? String == "v99")
    }

    @Test func unchangedContentIsConfirmedOncePerRefreshWithoutRewritingItsFile() throws {
        let directory = temporaryDirectory()
        let cache = DiskEntityCache(directory: directory, writeDelay: 3600, timestampRefresh: 60)
        cache.writeEntity(Entity(content: "same", timestamp: 0), forKey: "k")
        cache.writeDue()
        #expect(cache.stats.filesWritten == 1)
        for t in 1...50 {
            cache.writeEntity(Entity(content: "same", timestamp: Double(t)), forKey: "k")
            cache.updateTimestamp(Double(t) + 0.5, forKey: "k")
            cache.writeDue()
        }
        #expect(cache.stats == .init(filesWritten: 1, filesRemoved: 0, confirmationsWritten: 0), "fifty unchanged responses and 304s, no writes")
        #expect(cache.readEntity(forKey: "k")?.timestamp == 50.5, "reads see the held-back timestamp")
        cache.writeEntity(Entity(content: "same", timestamp: 61), forKey: "k")
        cache.writeDue()
        #expect(cache.stats == .init(filesWritten: 1, filesRemoved: 0, confirmationsWritten: 1), "a minute on, the confirmation is written, the entry is not")
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.timestamp == 61, "a restart reads the confirmed time")
        cache.writeEntity(Entity(content: "changed", timestamp: 62), forKey: "k")
        cache.writeDue()
        #expect(cache.stats.filesWritten == 2, "new content is written at once")
        cache.updateTimestamp(70, forKey: "k")
        cache.writeDue()
        #expect(cache.stats.confirmationsWritten == 1, "eight seconds past the file's time: not due")
        cache.flush()
        #expect(cache.stats == .init(filesWritten: 2, filesRemoved: 0, confirmationsWritten: 2), "a flush writes what was held back")
        let restarted = DiskEntityCache(directory: directory, writeDelay: 3600)
        #expect(restarted.readEntity(forKey: "k")?.timestamp == 70)
        #expect(restarted.readEntity(forKey: "k")?.content as? String == "changed")
        restarted.writeEntity(Entity(content: "changed", timestamp: 80), forKey: "k")
        restarted.writeDue()
        #expect(restarted.stats.filesWritten == 0, "after a restart the file's content is known from reading it")
    }

    @Test func aThousandUnchangedEntriesCostOneSmallWriteAMinuteNotAThousand() throws {
        let directory = temporaryDirectory()
        let cache = DiskEntityCache(directory: directory, writeDelay: 3600, timestampRefresh: 60)
        let start = 786_000_000.123456  // a time with a fraction, as a real clock gives
        for second in stride(from: 0, through: 180, by: 5) {
            for i in 0..<1000 {
                cache.writeEntity(Entity(content: JSON.object(["status": "ok", "n": .int(i)]), timestamp: start + Double(second) + Double(i) / 1000), forKey: "k\(i)")
            }
            cache.writeDue()
        }
        #expect(cache.stats.filesWritten == 1000, "each entry's file written once, when its content came")
        #expect(cache.stats.confirmationsWritten == 3, "three minutes of confirmations, one table write a minute")
        let restarted = DiskEntityCache(directory: directory)
        for i in [0, 1, 499, 999] {
            let entry = try #require(restarted.readEntity(forKey: "k\(i)"))
            #expect(entry.timestamp >= start + 120 + Double(i) / 1000, "k\(i) shows when it was last confirmed, at most a minute behind")
            #expect((entry.content as? JSON)?["n"]?.intValue == i)
        }
    }

    @Test func aConfirmationNeverAppliesToContentWrittenAfterIt() throws {
        let directory = temporaryDirectory()
        let first = DiskEntityCache(directory: directory, writeDelay: 3600, timestampRefresh: 60)
        first.writeEntity(Entity(content: "old", timestamp: 100), forKey: "k")
        first.writeEntity(Entity(content: "theirs", timestamp: 100), forKey: "other")
        first.writeDue()
        first.updateTimestamp(500, forKey: "k")
        first.flush()
        // A second process sharing the directory writes new content for "k", seen at 300.
        let second = DiskEntityCache(directory: directory, writeDelay: 3600, timestampRefresh: 60)
        second.writeEntity(Entity(content: "new", timestamp: 300), forKey: "k")
        second.updateTimestamp(400, forKey: "other")
        second.flush()
        let restarted = DiskEntityCache(directory: directory)
        #expect(restarted.readEntity(forKey: "k")?.content as? String == "new")
        #expect(restarted.readEntity(forKey: "k")?.timestamp == 300, "the confirmation at 500 was of the old content")
        #expect(restarted.readEntity(forKey: "other")?.timestamp == 400)
        // The first process writes its table again: the second's confirmation of "other" stays.
        first.updateTimestamp(600, forKey: "k")
        first.flush()
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "other")?.timestamp == 400, "a table written by one process keeps another's")
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.timestamp == 300, "nor does a later confirmation of the replaced content apply")
    }

    @Test func aDamagedTableOfConfirmationsIsIgnoredAndReplaced() throws {
        let directory = temporaryDirectory()
        let cache = DiskEntityCache(directory: directory, writeDelay: 3600)
        cache.writeEntity(Entity(content: "x", timestamp: 100), forKey: "k")
        cache.flush()
        cache.updateTimestamp(200, forKey: "k")
        cache.flush()
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.timestamp == 200)
        let table = cache.directory.appendingPathComponent("confirmations.json")
        let name = try #require(try entries(cache).first { $0 != "confirmations.json" })
        let junk = [
            Data("{not json".utf8), Data([0xFF]), Data(),
            Data(#"{"hammockConfirmations":1,"entries":{"\#(name)":[100,1e300]}}"#.utf8),
            Data(#"{"hammockConfirmations":1,"entries":{"\#(name)":[100,50]}}"#.utf8),
            Data(#"{"hammockConfirmations":1,"entries":{"../\#(name)":[100,900]}}"#.utf8),
            Data(#"{"hammockConfirmations":2,"entries":{"\#(name)":[100,900]}}"#.utf8),
        ]
        for data in junk {
            try data.write(to: table)
            let later = DiskEntityCache(directory: directory)
            #expect(later.readEntity(forKey: "k")?.timestamp == 100, "\(String(decoding: data, as: UTF8.self)): the file's own time")
            #expect(later.readEntity(forKey: "k")?.content as? String == "x", "the entry is kept")
        }
        let later = DiskEntityCache(directory: directory)
        later.updateTimestamp(300, forKey: "k")
        later.flush()
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.timestamp == 300, "a good table replaces the damaged one")
    }

    @MainActor
    @Test func pendingChangesAreWrittenAfterTheDelayWithoutAFlush() async throws {
        let directory = temporaryDirectory()
        let cache = DiskEntityCache(directory: directory, writeDelay: 0.05)
        // inotify tells when the file is renamed into place: an event, not a timed wait.
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        #expect(inotify_add_watch(fd, cache.directory.path, UInt32(IN_MOVED_TO)) >= 0)
        let watch = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        // Closed only once dispatch has let go of it: closed at `cancel()`, the number could be
        // reused by another test's descriptor while the source was still registered, and
        // dispatch's event loop crashed on the stale registration (seen once in CI).
        watch.setCancelHandler { close(fd) }
        defer { watch.cancel() }
        _ = try await awaitCallback("the cache file to appear") { (done: @escaping @MainActor (Bool) -> Void) in
            watch.setEventHandler {
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = read(fd, &buffer, buffer.count)
                MainActor.assumeIsolated { done(true) }
            }
            watch.resume()
            cache.writeEntity(Entity(content: "soon", timestamp: 1), forKey: "k")
        }
        #expect(cache.stats.filesWritten == 1)
    }

    @Test func secretsNeverReachFileNamesOrContents() throws {
        let directory = temporaryDirectory()
        let cache = DiskEntityCache(directory: directory)
        let key = "ns\nhttps://api.test/orders?token=SECRET-123"
        cache.writeEntity(Entity(content: JSON.object(["n": 1]), headers: ["Authorization": "Bearer SECRET-123"], timestamp: 1), forKey: key)
        cache.flush()
        for name in try entries(cache) {
            #expect(!name.contains("SECRET") && !name.contains("api.test"))
            #expect(name.count == 64 + 5, "a SHA-256 hex name")
            let text = try String(contentsOf: cache.directory.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("SECRET") && !text.contains("api.test"))
        }
    }

    @Test func prepareRunsOnlyForWhatReachesTheDisk() throws {
        let directory = temporaryDirectory()
        let cache = DiskEntityCache(directory: directory, writeDelay: 3600, timestampRefresh: 60)
        let prepared = Mutex(0)
        let shout: @Sendable (Entity) -> Entity = { entity in
            prepared.withLock { $0 += 1 }
            var copy = entity
            copy.content = (entity.content as? String ?? "").uppercased()
            return copy
        }
        for t in 0..<50 {
            cache.writeEntity(Entity(content: "same", timestamp: Double(t)), forKey: "k", preparedBy: shout)
            if t % 10 == 9 { cache.writeDue() }
        }
        #expect(prepared.withLock { $0 } == 1, "fifty responses with the same content, prepared once: for the one file written")
        #expect(cache.stats.filesWritten == 1)
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.content as? String == "SAME", "the file holds the prepared form")
        cache.writeEntity(Entity(content: "new", timestamp: 50), forKey: "k", preparedBy: shout)
        #expect(cache.readEntity(forKey: "k")?.content as? String == "NEW", "a pending write reads back prepared")
        cache.flush()
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.content as? String == "NEW")
    }

    @Test func theUsersOwnFilesInTheCacheLocationAreNeverReadCountedOrDeleted() throws {
        let location = temporaryDirectory()
        try FileManager.default.createDirectory(at: location, withIntermediateDirectories: true)
        // The user's own JSON files, bigger than the whole bound, some named like entries.
        let mine = ["notes.json", String(repeating: "a", count: 64) + ".json", "history-" + String(repeating: "b", count: 32) + ".json"]
        for name in mine { try Data(repeating: 0x7B, count: 30_000).write(to: location.appendingPathComponent(name)) }
        let cache = DiskEntityCache(directory: location, maxBytes: 10_000)
        for i in 0..<10 {
            cache.writeEntity(Entity(content: String(repeating: "x", count: 2000), timestamp: Double(i)), forKey: "k\(i)")
            cache.flush()
        }
        for name in mine {
            #expect(try Data(contentsOf: location.appendingPathComponent(name)) == Data(repeating: 0x7B, count: 30_000), "\(name) untouched")
        }
        #expect(cache.directory.path == location.appendingPathComponent(CacheDirectory.Owner.resourceEngine.name).path)
        #expect(cache.readEntity(forKey: "k9") != nil, "the bound counts only the cache's own entries")
        #expect(try entries(cache).count <= 5)
    }

    @Test func aDirectoryItsOwnerDidNotMakeIsNeverUsed() throws {
        let location = temporaryDirectory()
        let foreign = location.appendingPathComponent(CacheDirectory.Owner.resourceEngine.name)
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        let theirs = foreign.appendingPathComponent(String(repeating: "c", count: 64) + ".json")
        try Data("{\"theirs\":true}".utf8).write(to: theirs)
        let cache = DiskEntityCache(directory: location, maxBytes: 1)
        #expect(cache.problem?.contains("was not made by this program") == true)
        cache.writeEntity(Entity(content: "x", timestamp: 1), forKey: "k")
        cache.flush()
        #expect(cache.readEntity(forKey: "k") == nil, "the cache is off")
        #expect(try FileManager.default.contentsOfDirectory(atPath: foreign.path) == [theirs.lastPathComponent], "nothing written, nothing removed")
    }

    @Test func directoriesAre0700AndFiles0600WhateverTheUmask() throws {
        let previous = umask(0)
        defer { umask(previous) }
        let location = temporaryDirectory()
        let cache = DiskEntityCache(directory: location)
        cache.writeEntity(Entity(content: "private", timestamp: 1), forKey: "k")
        cache.flush()
        cache.updateTimestamp(2, forKey: "k")
        cache.flush()
        #expect(FileManager.default.fileExists(atPath: cache.directory.appendingPathComponent("confirmations.json").path))
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        #expect(try mode(location.path) == 0o700, "a location Hammock creates is private too")
        #expect(try mode(cache.directory.path) == 0o700)
        for name in try FileManager.default.contentsOfDirectory(atPath: cache.directory.path) {
            #expect(try mode(cache.directory.appendingPathComponent(name).path) == 0o600, "\(name)")
        }
        // An existing directory of ours that is too open is tightened.
        chmod(cache.directory.path, 0o755)
        _ = DiskEntityCache(directory: location)
        #expect(try mode(cache.directory.path) == 0o700)
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(DiskEntityCache.defaultDirectory(for: "hammock", environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]).path == "/x/cache/hammock")
        #expect(DiskEntityCache.defaultDirectory(for: "hammock", environment: ["HOME": "/home/u"]).path == "/home/u/.cache/hammock")
        #expect(DiskEntityCache.defaultDirectory(for: "hammock", environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path == "/home/u/.cache/hammock")
    }
}

@MainActor
@Suite struct ResourceCacheTests {
    let directory = temporaryDirectory()
    let network = FakeNetworkingProvider()
    let clock = ManualClock()

    /// A fresh service over the same cache directory: what a restart looks like.
    private func makeService(namespace: String = "v1") -> (Service, DiskEntityCache) {
        let cache = DiskEntityCache(directory: directory)
        let service = Service(baseURL: "https://api.test/", networking: network, clock: clock)
        service.configure("**") {
            $0.cache = cache
            $0.cacheNamespace = namespace
        }
        return (service, cache)
    }

    private func firstRun() async throws {
        let (service, cache) = makeService()
        let resource = service.resource("/orders")
        network.stub(.get, resource.url.absoluteString, .json(#"{"items":[1,2]}"#, headers: ["ETag": "\"o1\""]))
        _ = try await resource.load().awaitResult()
        cache.flush()
    }

    @Test func aRestartShowsCachedDataFirstThenRefreshes() async throws {
        try await firstRun()
        clock.advance(by: 300)
        let (service, _) = makeService()
        let resource = service.resource("/orders")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        #expect(observer.events == ["observerAdded", "newData(cache)"], "cached data arrives before any request")
        #expect(resource.json == ["items": [1, 2]])
        #expect(clock.now - resource.timestamp == 300, "the data keeps the age it had")
        network.stub(.get, resource.url.absoluteString, .json(#"{"items":[1,2,3]}"#))
        _ = try await #require(resource.loadIfNeeded()).awaitResult()
        #expect(observer.events == ["observerAdded", "newData(cache)", "requested", "newData(network)"])
        #expect(network.receivedRequests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"o1\"", "the cached ETag is used")
    }

    @Test func freshCachedDataNeedsNoRequest() async throws {
        try await firstRun()
        clock.advance(by: 5)
        let (service, _) = makeService()
        let resource = service.resource("/orders")
        let before = network.receivedRequests.count
        #expect(resource.loadIfNeeded() == nil, "within expirationTime the cache is enough")
        #expect(network.receivedRequests.count == before)
        #expect(resource.json == ["items": [1, 2]])
    }

    @Test func a304AfterRestartKeepsTheCachedDataAndRefreshesItsTimestamp() async throws {
        try await firstRun()
        clock.advance(by: 100)
        let (service, cache) = makeService()
        let resource = service.resource("/orders")
        network.stub(.get, resource.url.absoluteString, .init(status: 304))
        _ = try await #require(resource.loadIfNeeded()).awaitResult()
        #expect(resource.json == ["items": [1, 2]])
        cache.flush()
        #expect(cache.readEntity(forKey: "v1\nhttps://api.test/orders")?.timestamp == clock.now)
        let (again, _) = makeService()
        #expect(again.resource("/orders").loadIfNeeded() == nil, "the stored timestamp moved with the 304")
    }

    @Test func errorsAreNotCachedAndOverridesForgetTheEntry() async throws {
        try await firstRun()
        let (service, cache) = makeService()
        let resource = service.resource("/orders")
        clock.advance(by: 100)
        network.stub(.get, resource.url.absoluteString, .json("{}", status: 500))
        _ = try await #require(resource.loadIfNeeded()).awaitResult()
        cache.flush()
        #expect(cache.readEntity(forKey: "v1\nhttps://api.test/orders")?.content as? JSON == ["items": [1, 2]])
        resource.overrideLocalContent(with: "local")
        cache.flush()
        #expect(cache.readEntity(forKey: "v1\nhttps://api.test/orders") == nil)
    }

    @Test func eachLoadRequestHasItsOwnEntryAndForeignLoadsAreNotCached() async throws {
        let (service, cache) = makeService()
        let orders = service.resource("/orders")
        let search = orders.withLoadRequest(try .json(.post, ["q": "open"]))
        network.stub(.get, orders.url.absoluteString, .json(#"{"via":"GET"}"#))
        network.stub(.post, orders.url.absoluteString, .json(#"{"via":"POST"}"#))
        _ = try await orders.load().awaitResult()
        _ = try await search.load().awaitResult()
        cache.flush()
        #expect(cache.readEntity(forKey: "v1\n" + orders.identity)?.content as? JSON == ["via": "GET"])
        #expect(cache.readEntity(forKey: "v1\n" + search.identity)?.content as? JSON == ["via": "POST"])
        // A POST's answer loaded into the GET resource is its state, but not what a GET returns.
        _ = try await orders.load(using: orders.request(.post)).awaitResult()
        #expect(orders.json == ["via": "POST"])
        cache.flush()
        #expect(cache.readEntity(forKey: "v1\n" + orders.identity)?.content as? JSON == ["via": "GET"])
    }

    @Test func aDifferentNamespaceIsADifferentCache() async throws {
        try await firstRun()
        let (service, _) = makeService(namespace: "v2")
        let observer = RecordingObserver()
        service.resource("/orders").addObserver(observer)
        #expect(observer.events == ["observerAdded"])
    }
}
