import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

/// Progress as Siesta reports it: rising with time while nothing has arrived, reported every
/// `progressReportingInterval` on the service's clock (here a manual one), only when it changed,
/// below 1 until the request completes, and 1 before the completion hooks.
@MainActor
@Suite struct ProgressTests {
    let h = Harness()

    @Test func progressRisesWhileWaitingAndEndsAtOneBeforeCompletion() async throws {
        let resource = h.resource
        h.stubText(resource, "v1")
        h.network.holdsResponses = true
        var seen: [String] = []
        let request = resource.load()
            .onProgress { seen.append(String(format: "%.3f", $0)) }
            .onCompletion { _ in seen.append("completed") }
        for _ in 0..<40 { h.clock.advance(by: 0.05) }  // two seconds with no answer
        let values = seen.compactMap(Double.init)
        #expect(values.count == 40, "one report every 0.05 s: \(seen)")
        #expect(values == values.sorted() && Set(values).count == values.count, "rising, never repeated")
        #expect(values.first! > 0 && values.last! < 1)
        // A GET's latency phases are 0.6 of 1.6 of its weight; two seconds in, well on the way.
        #expect(values.last! > 0.2 && values.last! < 0.375, "\(values.last!)")
        h.network.releaseAll()
        _ = try await request.awaitResult()
        try await drainMainQueue(turns: 2)
        #expect(seen.suffix(2) == ["1.000", "completed"])
        let count = seen.count
        h.clock.advance(by: 1)
        #expect(seen.count == count, "no report after completion")
    }

    @Test func aLoadReportsToItsResourcesObservers() async throws {
        final class Progress: ResourceObserver {
            var values: [Double] = []
            func resourceChanged(_ resource: Resource, event: ResourceEvent) {}
            func resourceRequestProgress(for resource: Resource, progress: Double) { values.append(progress) }
        }
        let resource = h.resource
        h.stubText(resource, "v1")
        h.network.holdsResponses = true
        let observer = Progress()
        resource.addObserver(observer)
        let request = resource.load()
        h.clock.advance(by: 0.5)
        #expect(observer.values.count == 10)
        h.network.releaseAll()
        _ = try await request.awaitResult()
        try await drainMainQueue(turns: 2)
        #expect(observer.values.last == 1)
    }

    @Test func withoutAnIntervalOnlyTheEndIsReported() async throws {
        h.service.configure { $0.progressReportingInterval = 0 }
        let resource = h.resource
        h.stubText(resource, "v1")
        h.network.holdsResponses = true
        var seen: [Double] = []
        let request = resource.load().onProgress { seen.append($0) }
        h.clock.advance(by: 5)
        #expect(seen.isEmpty, "nothing with time alone")
        #expect(h.clock.pendingTimerCount == 0, "no timer per load")
        h.network.releaseAll()
        _ = try await request.awaitResult()
        try await drainMainQueue(turns: 2)
        #expect(seen.last == 1, "the bytes the transport counted, then 1: \(seen)")
    }
}
