/// The specific reasons behind a `RequestError`, as small `Error` values.
extension RequestError {
    /// Namespace for the engine's own failure causes.
    public enum Cause {
        /// The resource's URL could not be formed.
        public struct InvalidURL: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// What the URL was made from (nil: nothing usable).
            public let urlSource: String?
            public var description: String { "Invalid URL: \(urlSource ?? "nil")" }
        }

        /// `request(text:)` could not encode the text in the requested encoding.
        public struct UnencodableText: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// The encoding asked for.
            public let encodingName: String
            /// The text that would not encode.
            public let text: String
            public var description: String { "Text cannot be encoded as \(encodingName)" }
        }

        /// `request(json:)` got a value JSON cannot express (NaN, infinity).
        public struct InvalidJSONObject: Error, Sendable, CauseMessage, CustomStringConvertible {
            public var description: String { "Value cannot be written as JSON" }
        }

        /// `request(urlEncoded:)` got a string that cannot be percent-encoded.
        public struct NotURLEncodable: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// The string that could not be encoded.
            public let offendingString: String
            public var description: String { "Cannot URL-encode \(offendingString.debugDescription)" }
        }

        /// The request was cancelled before it completed.
        public struct RequestCancelled: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// The transport's own error for the cancellation, if it gave one.
            public let networkError: (any Error & Sendable)?
            public var description: String { "Request cancelled" }
        }

        /// The server said 304 Not Modified, but there is no local data to keep.
        public struct NoLocalDataFor304: Error, Sendable, CauseMessage, CustomStringConvertible {
            public var description: String { "Server sent 304 Not Modified but no data is cached" }
        }

        /// The response names a charset the engine does not know.
        public struct InvalidTextEncoding: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// The charset as the response named it.
            public let encodingName: String
            public var description: String { "Unknown text encoding \(encodingName.debugDescription)" }
        }

        /// The body is not valid text in its charset.
        public struct UndecodableText: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// The charset the body claimed.
            public let encodingName: String
            public var description: String { "Response is not valid \(encodingName) text" }
        }

        /// A transformer received content of a type it does not accept.
        public struct WrongInputTypeInTransformerPipeline: Error, Sendable, CauseMessage,
            CustomStringConvertible
        {
            /// The content type the transformer takes.
            public let expectedType: String
            /// The content type it was given.
            public let actualType: String
            /// The transformer, as it describes itself.
            public let transformer: String
            public var description: String {
                "\(transformer) expected \(expectedType) but got \(actualType)"
            }
        }

        /// A transformer produced no value.
        public struct TransformerReturnedNil: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// The transformer, as it describes itself.
            public let transformer: String
            public var description: String { "\(transformer) produced no value" }
        }

        /// A redirect the engine will not follow: from https to plain http, or to a scheme other
        /// than http(s). (Redirects to another origin are followed without the request's headers.)
        public struct RedirectRefused: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// The URL that redirected.
            public let from: String
            /// Where it redirected to.
            public let to: String
            /// Why the redirect is not followed.
            public let reason: String

            /// A refused redirect from `from` to `to`, for `reason`.
            public init(from: String, to: String, reason: String) {
                self.from = from
                self.to = to
                self.reason = reason
            }

            public var description: String { "Redirect refused: \(reason)" }
        }

        /// A transport failure the transport could name precisely: a reply that is not HTTP, an
        /// oversized header, a body cut short, a certificate that expired… `message` is for the
        /// screen; `detail` is the transport's own text.
        public struct TransportFailure: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// What went wrong, for the screen.
            public let message: String
            /// The transport's own text, if any.
            public let detail: String?

            /// A failure that says `message`, with the transport's `detail`.
            public init(_ message: String, detail: String? = nil) {
                self.message = message
                self.detail = detail
            }

            public var description: String { message }
        }

        /// The body was larger than the networking provider accepts.
        public struct ResponseTooLarge: Error, Sendable, CauseMessage, CustomStringConvertible {
            /// The most bytes the provider accepts.
            public let limit: Int

            /// A body over `limit` bytes; networking providers report it.
            public init(limit: Int) {
                self.limit = limit
            }

            public var description: String {
                "Response too large (over \(ByteCountText.format(limit)))"
            }
        }
    }
}

/// Compact byte counts for messages: "512 B", "4 KiB", "10 MiB".
enum ByteCountText {
    static func format(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return "\(bytes / 1024) KiB" }
        return "\(bytes / (1024 * 1024)) MiB"
    }
}
