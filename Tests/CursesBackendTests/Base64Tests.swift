@testable import CursesBackend
import Foundation
import Testing

@Suite struct Base64Tests {
    @Test func matchesFoundationsEncodingForEveryLengthAndByte() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + length * 11 + 200) }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString(), "length \(length)")
        }
        #expect(Base64.encode(Array("curl -sS \"https://x.test/\"".utf8)) == "Y3VybCAtc1MgImh0dHBzOi8veC50ZXN0LyI=")
    }
}
