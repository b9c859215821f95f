import Foundation
import ResourceEngine
import Testing

/// `OutgoingRequest` behaves as the `URLRequest` it replaced where the engine and its callers
/// lean on it: headers by name without regard to case, nil removes, a line break never travels.
@Suite struct OutgoingRequestTests {
    @Test func headersMatchWithoutCaseAndKeepTheirFirstSpelling() {
        var request = OutgoingRequest(url: URL(string: "http://127.0.0.1/x"))
        #expect(request.httpMethod == "GET" && request.allHTTPHeaderFields == nil && request.timeoutInterval == 60)
        request.setValue("a", forHTTPHeaderField: "X-Token")
        request.setValue("b", forHTTPHeaderField: "x-token")
        #expect(request.value(forHTTPHeaderField: "X-TOKEN") == "b")
        #expect(request.headerFields.map(\.name) == ["X-Token"])
        request.addValue("c", forHTTPHeaderField: "x-token")
        #expect(request.value(forHTTPHeaderField: "X-Token") == "b,c")
        request.setValue(nil, forHTTPHeaderField: "X-TOKEN")
        #expect(request.allHTTPHeaderFields == nil)
    }

    @Test func aValueWithALineBreakNeverTravels() {
        var request = OutgoingRequest(url: URL(string: "http://127.0.0.1/x"))
        request.setValue("ok", forHTTPHeaderField: "X-A")
        request.setValue("1\r\nX-Evil: yes", forHTTPHeaderField: "X-A")
        #expect(request.value(forHTTPHeaderField: "X-A") == nil, "refused, and the old value gone with it")
        request.allHTTPHeaderFields = ["X-B": "2", "X-C": "3\n"]
        #expect(request.allHTTPHeaderFields == ["X-B": "2"])
    }
}
