import Foundation
import ResourceEngine

/// A service's login (`auth: { login: … }` or `oauth2:`): the token every request of the service
/// carries, obtained by a request that is a resource like any other.
///
/// Built on the engine's request decoration, as Siesta suggests for token refresh: a request
/// made before there is a token waits for the login, then goes with the token; a request answered
/// with a `refreshOn` status (401) renews the token once and is repeated once — never in a loop.
/// Requests that need a login at the same time share one. A failed login fails every request
/// that waits for it with "login failed: 401 invalid credentials", and is not tried again before
/// the service's retry time has passed, so bad credentials never become a storm of logins.
@MainActor
public final class LoginSession {
    /// The login request's own resource (its state is the last login's outcome).
    public let resource: Resource
    public let spec: LoginSpec
    private let tokenPath: JSONPath
    private let expiresInPath: JSONPath?
    private let secrets: LiveSecrets
    private let retryAfterFailure: TimeInterval

    /// The header value requests carry now (`Bearer abc…`); nil before the first login.
    public private(set) var headerValue: String?
    private var expiresAt: TimeInterval?
    private var pending: Request?
    private var failure: (error: RequestError, at: TimeInterval)?
    /// How many login requests were sent, for logs and tests.
    public private(set) var loginCount = 0

    public init(spec: LoginSpec, resource: Resource, secrets: LiveSecrets, retryAfterFailure: TimeInterval) {
        self.spec = spec
        self.resource = resource
        self.secrets = secrets
        self.retryAfterFailure = retryAfterFailure
        // Validated when the config was loaded.
        self.tokenPath = (try? JSONPath(spec.tokenPath)) ?? JSONPath(segments: [])
        self.expiresInPath = spec.expiresInPath.flatMap { try? JSONPath($0) }
    }

    private var now: TimeInterval { resource.service.clock.now }

    /// `request` for `target`, made to carry the session's token (see the type's description).
    public func decorate(_ request: Request, for target: Resource) -> Request {
        guard target !== resource, !(target.loadRequest?.omittedHeaders.contains(spec.header.lowercased()) ?? false) else {
            return request
        }
        if headerValue == nil || (expiresAt.map { now >= $0 } ?? false) {
            return afterLogin { request.repeated() }
        }
        let sentWith = headerValue
        return request.chained { [weak self] info in
            guard let self, case .failure(let error) = info.response, let status = error.httpStatusCode,
                self.spec.refreshOn.contains(status)
            else { return .useThisResponse }
            // Another request may have renewed the token meanwhile: then just go again with it.
            if self.headerValue != sentWith, self.headerValue != nil { return .passTo(request.repeated()) }
            self.headerValue = nil
            return .passTo(self.afterLogin { request.repeated() })
        }
    }

    /// A request that logs in (or waits for the login under way), then starts `next()`; fails
    /// with the login's error when it fails.
    private func afterLogin(_ next: @escaping @MainActor () -> Request) -> Request {
        let login = loginRequest()
        return Resource.prepareRequest(using: WaitForLogin(login: login, next: next, description: "after login \(spec.url.display)"))
    }

    /// The login under way, a new one, or (within the retry time after a failure) that failure.
    private func loginRequest() -> Request {
        if let pending { return pending }
        if let failure, now - failure.at < retryAfterFailure {
            return Resource.failedRequest(returning: failure.error)
        }
        loginCount += 1
        let request = resource.load()
        pending = request
        request.onCompletion { [weak self] info in
            guard let self else { return }
            self.pending = nil
            self.finishLogin(info)
        }
        return request
    }

    private func finishLogin(_ info: ResponseInfo) {
        switch info.response {
        case .success(let entity):
            guard let token = token(in: entity) else {
                record(RequestError(
                    userMessage: "login failed: the answer has no \(spec.tokenPath)", cause: nil, timestamp: now))
                return
            }
            secrets.add(token)
            let value = spec.scheme.isEmpty ? token : "\(spec.scheme) \(token)"
            secrets.add(value)
            headerValue = value
            failure = nil
            if let path = expiresInPath, let json = entity.content as? JSON, let seconds = path.lookup(json)?.doubleValue, seconds > 0 {
                // Renewed a little early, so a request never leaves with a token about to lapse.
                expiresAt = now + max(1, seconds * 0.9)
            } else {
                expiresAt = nil
            }
        case .failure(let error):
            guard !error.isCancellation else { return }
            record(LoginSession.loginFailed(error, now: now))
        }
    }

    private func record(_ error: RequestError) {
        headerValue = nil
        failure = (error, now)
    }

    /// The token in the login's answer: a string (or number) at `token`.
    private func token(in entity: Entity) -> String? {
        var json = entity.content as? JSON
        if json == nil, let data = entity.content as? Data { json = try? JSONParser.parse(data) }
        if json == nil, let text = entity.content as? String { json = try? JSONParser.parse(text) }
        guard let json, let found = tokenPath.lookup(json) else { return nil }
        let token: String? = switch found {
        case .string(let text): text
        case .int(let number): String(number)
        default: nil
        }
        guard let token, !token.isEmpty, !token.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else { return nil }
        return token
    }

    /// "login failed: 401 invalid credentials": the status and the message the server gave.
    static func loginFailed(_ error: RequestError, now: TimeInterval) -> RequestError {
        var detailed = error
        if case .failure(let withMessage) = ErrorMessageTransformer().process(.failure(error)) { detailed = withMessage }
        let status = error.httpStatusCode.map { "\($0) " } ?? ""
        var message = detailed.userMessage
        if let status = error.httpStatusCode, message == HTTPStatus.reasonPhrase(for: status) { message = message.lowercased() }
        return RequestError(
            userMessage: "login failed: \(status)\(message)", cause: LoginFailed(underlying: error), entity: error.entity,
            httpStatusCode: nil, timestamp: now)
    }

    /// The cause of a request that could not be sent because the login failed.
    public struct LoginFailed: Error, Sendable {
        public let underlying: RequestError
    }
}

/// Waits for a login request (which it never cancels: others may wait for it too), then passes
/// to the request it was given, or fails with the login's error.
@MainActor
final class WaitForLogin: RequestDelegate {
    let login: Request
    let next: @MainActor () -> Request
    let requestDescription: String
    private var started: Request?

    init(login: Request, next: @escaping @MainActor () -> Request, description: String) {
        self.login = login
        self.next = next
        self.requestDescription = description
    }

    func startUnderlyingOperation(passingResponseTo handler: any RequestCompletionHandler) {
        login.onCompletion { [self] info in
            guard !handler.willIgnore(info) else { return }
            if case .failure(let error) = info.response {
                let failed = error.cause is LoginSession.LoginFailed ? error : LoginSession.loginFailed(error, now: error.timestamp)
                handler.broadcastResponse(ResponseInfo(response: .failure(failed)))
                return
            }
            let request = next()
            started = request
            request.onCompletion { handler.broadcastResponse($0) }
            request.start()
        }
    }

    func cancelUnderlyingOperation() {
        started?.cancel()
    }

    func repeated() -> any RequestDelegate {
        WaitForLogin(login: login, next: next, description: requestDescription)
    }
}
