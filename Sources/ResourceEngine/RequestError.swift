import FoundationEssentials

/// Why a request failed, in one shape for every kind of failure.
///
/// Transport failures, HTTP statuses ≥ 400, body-encoding problems, parse errors and transformer
/// errors all arrive as a `RequestError`, so an observer needs one code path to explain a failure:
/// `userMessage` is always present and fit for the screen; `httpStatusCode`, `entity` (the error
/// body, parsed by the pipeline when a parser accepts it) and `cause` say more for those who ask.
public struct RequestError: Error, Sendable {
    /// A short explanation suitable for showing to the user.
    public var userMessage: String

    /// The HTTP status, when the server answered.
    public var httpStatusCode: Int?

    /// The error response body, raw `Data` until a transformer parses it.
    public var entity: Entity?

    /// The underlying error, often one of `RequestError.Cause`.
    public var cause: (any Error & Sendable)?

    /// When the resource recorded this error, on the service's clock.
    public internal(set) var timestamp: TimeInterval

    /// Creates an error from a server response and/or a transport error.
    ///
    /// The message is the first of: `userMessage`, a screen message derived from `cause`, the
    /// status's reason phrase ("Not Found"), "Request failed".
    public init(
        response: HTTPResponseHead?,
        content: Data?,
        cause: (any Error & Sendable)?,
        userMessage: String? = nil,
        timestamp: TimeInterval = 0
    ) {
        let status = response?.statusCode
        self.httpStatusCode = status
        self.cause = cause
        self.timestamp = timestamp
        // An answer keeps its entity even with an empty body: its headers say things (a
        // session id to send next, `Retry-After`, an `ETag`), as Siesta keeps it.
        if let content, !content.isEmpty || response != nil {
            self.entity = Entity(response: response, content: content, timestamp: timestamp)
        } else if let response {
            self.entity = Entity(response: response, content: Data(), timestamp: timestamp)
        } else {
            self.entity = nil
        }
        self.userMessage =
            userMessage
            ?? cause.map(RequestError.screenMessage(for:))
            ?? status.map(HTTPStatus.reasonPhrase(for:))
            ?? "Request failed"
    }

    /// Creates an error with an explicit message and cause.
    public init(
        userMessage: String,
        cause: (any Error & Sendable)?,
        entity: Entity? = nil,
        httpStatusCode: Int? = nil,
        timestamp: TimeInterval = 0
    ) {
        self.userMessage = userMessage
        self.cause = cause
        self.entity = entity
        self.httpStatusCode = httpStatusCode
        self.timestamp = timestamp
    }

    /// True if this error only says that the request was cancelled.
    public var isCancellation: Bool {
        cause is Cause.RequestCancelled
    }

    /// A message for a transport error that reads well on a terminal.
    static func screenMessage(for error: any Error) -> String {
        if let transport = error as? TransportError { return transport.message }
        if let cause = error as? any CauseMessage {
            return cause.description
        }
        return String(describing: error)
    }
}

extension RequestError: CustomStringConvertible {
    public var description: String {
        var parts = [userMessage]
        if let httpStatusCode { parts.append("status \(httpStatusCode)") }
        if let cause { parts.append("cause: \(cause)") }
        return "RequestError(" + parts.joined(separator: ", ") + ")"
    }
}

/// A cause whose `description` is itself a screen message.
protocol CauseMessage: CustomStringConvertible {}
