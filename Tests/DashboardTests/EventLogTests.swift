@testable import Dashboard
import Foundation
import Testing

@Suite struct EventLogTests {
    private func entry(_ n: Int) -> EventLog.Entry {
        EventLog.Entry(time: TimeInterval(n), url: "http://127.0.0.1/e/\(n)", method: "GET", panes: ["E\(n)"], event: "NewData", statusCode: 200, latency: 0.01, message: nil)
    }

    @Test func keepsTheNewestEntriesInOrderAcrossManyAppends() {
        var log = EventLog(capacity: 5)
        for n in 0..<3 { log.append(entry(n)) }
        #expect(log.entries.map(\.time) == [0, 1, 2])
        for n in 3..<1_003 {
            log.append(entry(n))
            #expect(log.entries.count == min(n + 1, 5))
            #expect(log.entries.last?.time == TimeInterval(n))
        }
        #expect(log.entries.map(\.time) == [998, 999, 1000, 1001, 1002])
    }

    @Test func aCapacityOfOneKeepsTheLatest() {
        var log = EventLog(capacity: 1)
        for n in 0..<10 { log.append(entry(n)) }
        #expect(log.entries.map(\.time) == [9])
    }
}
