import DemoServer
import FlyingSocks
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTP
import Testing

/// `hammock demo` prefers one port; when another demo holds it, it must move on at once.
@Suite struct DemoPortTests {
    @Test func aTakenPortFailsAtOnceWithTheReasonNotAfterATimeout() async throws {
        let holder = try await DemoAPI.start()
        defer { Task { await holder.stop() } }
        let start = ContinuousClock.now
        await #expect {
            _ = try await DemoAPI.start(port: holder.port)
        } throws: { error in
            String(describing: error) == "the demo API cannot listen on 127.0.0.1:\(holder.port): the port is taken"
        }
        // FlyingFox's own wait would have thrown a timeout after 10 s; the bind error comes first.
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func aTakenPreferredPortFallsBackToAFreeOne() async throws {
        let holder = try await DemoAPI.start()
        defer { Task { await holder.stop() } }
        let second = try await DemoAPI.start(preferredPort: holder.port)
        defer { Task { await second.stop() } }
        #expect(second.port != holder.port)
        let (data, _) = try await URLSession.shared.data(from: URL(string: second.baseURL + "health")!)
        #expect(String(decoding: data, as: UTF8.self).contains(#""status":"UP""#))
    }
}
