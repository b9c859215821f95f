import FlyingFox
import FlyingSocks
import Foundation

/// A response body that a test server sends step by step: bytes, pauses, then an end or a
/// dropped connection. For hostile-server tests (slow drip, close mid-body).
public struct ScriptedBody: AsyncBufferedSequence, Sendable {
    public typealias Element = UInt8

    /// One step of the script.
    public enum Step: Sendable {
        /// Send these bytes.
        case bytes(Data)
        /// Wait before the next step (server-side behaviour, not a test waiting).
        case pause(Duration)
        /// Drop the connection here.
        case fail
    }

    let steps: [Step]

    public init(_ steps: [Step]) {
        self.steps = steps
    }

    /// A response whose headers declare `declaredLength` bytes while the script sends what it sends.
    public func response(declaredLength: Int? = nil, contentType: String = "application/octet-stream") -> HTTPResponse {
        // Buffers as large as the largest step, so a big body is not written byte by byte.
        let bufferSize = steps.map { if case .bytes(let data) = $0 { data.count } else { 1 } }.max() ?? 1
        let body: HTTPBodySequence
        if let declaredLength {
            body = HTTPBodySequence(from: self, count: declaredLength, suggestedBufferSize: bufferSize)
        } else {
            body = HTTPBodySequence(from: self, suggestedBufferSize: bufferSize)
        }
        return HTTPResponse(statusCode: .ok, headers: [.contentType: contentType], body: body)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(steps: steps[...])
    }

    public struct Iterator: AsyncBufferedIteratorProtocol {
        var steps: ArraySlice<Step>
        var current: [UInt8] = []

        public mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        public mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            while current.isEmpty {
                guard let step = steps.popFirst() else { return nil }
                switch step {
                case .bytes(let data): current = Array(data)
                case .pause(let duration): try await Task.sleep(for: duration)
                case .fail: throw ScriptedFailure()
                }
            }
            let chunk = Array(current.prefix(Swift.max(1, count)))
            current.removeFirst(chunk.count)
            return chunk
        }
    }

    struct ScriptedFailure: Error {}
}
