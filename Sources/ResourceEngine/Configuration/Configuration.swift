import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How requests for a resource are made and their responses processed.
///
/// Built fresh per resource and method by applying, in the order they were added, every
/// `Service.configure` block whose pattern and methods match. Cached until the next
/// `configure` or `invalidateConfiguration()`.
public struct Configuration {
    /// How long data stays fresh for `loadIfNeeded()`. Only the GET configuration's value is used.
    public var expirationTime: TimeInterval = 30

    /// How long after a failure `loadIfNeeded()` waits before trying again. GET configuration only.
    public var retryTime: TimeInterval = 1

    /// The total time a request may take before it fails with "The request timed out".
    public var timeout: TimeInterval = 60

    /// Headers added to every request.
    public var headers: [String: String] = [:]

    /// Headers whose values are worked out as each request is built (a token read from a file
    /// that may change, a login session's current token). Set after `headers`, so they win for
    /// the same name; a nil value sends no such header.
    public var computedHeaders: [String: @MainActor () -> String?] = [:]

    /// TLS settings and the redirect limit, handed to the networking provider with each request.
    public var transport = TransportOptions()

    /// How responses are transformed before they reach the resource.
    public var pipeline = Pipeline()

    /// Where successful responses are kept across runs; nil for none. GET configuration only.
    public var cache: (any EntityCache)?

    /// Part of every cache key: set it to something that changes when the pipeline that shapes
    /// the content changes, so a cache never serves data shaped by an older configuration.
    public var cacheNamespace = ""

    /// The mutation closures, in the order added.
    public private(set) var requestMutations: [@MainActor (inout URLRequest) -> Void] = []

    /// The decorators, in the order added.
    public private(set) var requestDecorators: [@MainActor (Resource, Request) -> Request] = []

    public init() {}

    /// Adds a closure that may alter each `URLRequest` before it is sent.
    ///
    /// Runs after the caller's own mutation (so it can override `Content-Type`), in the order added.
    public mutating func mutateRequests(with mutation: @escaping @MainActor (inout URLRequest) -> Void) {
        requestMutations.append(mutation)
    }

    /// Adds a closure that may wrap or replace each request before it starts, e.g. with a chain.
    ///
    /// Decorators run in the order added, each receiving the previous one's result; the last
    /// result is the request that is started, tracked and returned.
    public mutating func decorateRequests(with decorator: @escaping @MainActor (Resource, Request) -> Request) {
        requestDecorators.append(decorator)
    }
}
