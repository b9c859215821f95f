import DashboardConfig
import FoundationEssentials
import Glibc
import Redaction
import ResourceEngine
import TextBasics

/// A service's login (`auth: { login: … }` or `oauth2:`): the token every request of the service
/// carries, obtained by a request that is a resource like any other.
///
/// Built on the engine's request decoration, as Siesta suggests for token refresh: a request
/// made before there is a token waits for the login, then goes with the token; a request answered
/// with a `refreshOn` status (401) renews the token once and is repeated once — never in a loop.
/// Requests that need a login at the same time share one. A failed login fails every request
/// that waits for it with "login failed: 401 invalid credentials", and is not tried again before
/// the service's retry time has passed — twice as long after each failure in a row (up to a
/// minute), and never before a `Retry-After` the server gave — so bad credentials never become a
/// storm of logins.
///
/// A token may come in a response header (`token: header.NAME`), from any answer that carries
/// it: Transmission's RPC answers any request without its session id with 409 and the id in
/// `X-Transmission-Session-Id`; a request answered so (a `refreshOn` status) takes the new id and
/// is repeated once with it, without another login.
@MainActor
public final class LoginSession {
    /// The login request's own resource (its state is the last login's outcome).
    public let resource: Resource
    public let spec: LoginSpec
    private let tokenPath: JSONPath
    private let expiresInPath: JSONPath?
    private let secrets: LiveSecrets
    private let secretSlot: LiveSecrets.Source
    private let retryAfterFailure: TimeInterval

    /// The header value requests carry now (`Bearer abc…`); nil before the first login.
    public private(set) var headerValue: String?
    private var expiresAt: TimeInterval?
    private var pending: Request?
    /// The last login's failure, and when the next may be tried.
    private var failure: (error: RequestError, retryAt: TimeInterval)?
    /// Failed logins in a row (the wait doubles with each).
    private var failuresInARow = 0
    /// The longest a login waits after failures, unless the server asks for longer.
    static let longestBackOff: TimeInterval = 60
    /// The longest `Retry-After` taken from a server.
    static let longestRetryAfter: TimeInterval = 3_600
    /// How many login requests were sent, for logs and tests.
    public private(set) var loginCount = 0

    public init(spec: LoginSpec, resource: Resource, secrets: LiveSecrets, retryAfterFailure: TimeInterval) {
        self.spec = spec
        self.resource = resource
        self.secrets = secrets
        self.secretSlot = secrets.source()
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
            // The refusal itself may carry the new token (Transmission's 409 with its session id).
            if let entity = error.entity, let token = self.token(in: entity), self.adopt(token) != sentWith {
                return .passTo(request.repeated())
            }
            self.headerValue = nil
            return .passTo(self.afterLogin { request.repeated() })
        }
    }

    /// A request that logs in (or waits for the login under way), then starts `next()`; fails
    /// with the login's error when it fails.
    private func afterLogin(_ next: @escaping @MainActor () -> Request) -> Request {
        let login = loginRequest()
        return Resource.prepareRequest(
            using: WaitForLogin(
                login: login, next: next, loggedIn: { [weak self] in self?.headerValue != nil },
                failure: { [weak self] in self?.failure?.error }, description: "after login \(spec.url.display)"))
    }

    /// The login under way, a new one, or (within the retry time after a failure) that failure.
    private func loginRequest() -> Request {
        if let pending { return pending }
        if let failure, now < failure.retryAt {
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
                let place = spec.tokenHeader.map { "header \($0)" } ?? spec.tokenPath
                let found = spec.tokenHeader.map { entity.headers[$0.lowercased()] != nil } ?? (tokenJSON(in: entity).flatMap(tokenPath.lookup).map { $0 != .null } ?? false)
                let reason = found ? "its \(place) is not one word (a token has no spaces, line breaks or control characters)" : "the answer has no \(place)"
                let failure = RequestError(userMessage: "login failed: \(reason)", cause: nil, entity: entity, timestamp: now)
                record(RequestError(
                    userMessage: failure.userMessage, cause: LoginFailed(underlying: failure), entity: entity, httpStatusCode: nil, timestamp: now))
                return
            }
            adopt(token)
            if let path = expiresInPath, let json = entity.content as? JSON, let seconds = path.lookup(json)?.doubleValue, seconds > 0 {
                // Renewed a little early, so a request never leaves with a token about to lapse.
                expiresAt = now + max(1, seconds * 0.9)
            } else {
                expiresAt = nil
            }
        case .failure(let error):
            guard !error.isCancellation else { return }
            // A token in a header may come with a refusal (Transmission's 409): that is the login.
            if let entity = error.entity, let token = token(in: entity) {
                adopt(token)
                expiresAt = nil
                return
            }
            record(LoginSession.loginFailed(error, now: now), retryAfter: LoginSession.retryAfter(error, now: now))
        }
    }

    /// Makes `token` the one requests carry (and a secret); returns the header value.
    @discardableResult
    private func adopt(_ token: String) -> String {
        let value = spec.scheme.isEmpty ? token : "\(spec.scheme) \(token)"
        // The session's token replaces the last one (which is still masked until the next).
        secrets.replace([token, value], for: secretSlot)
        headerValue = value
        failure = nil
        failuresInARow = 0
        return value
    }

    /// Records a failed login: no new one before the retry time, doubled for each failure in a
    /// row (up to `longestBackOff`), and not before what the server asked (`retryAfter`).
    private func record(_ error: RequestError, retryAfter: TimeInterval? = nil) {
        headerValue = nil
        failuresInARow += 1
        let backOff = min(retryAfterFailure * pow(2, Double(failuresInARow - 1)), max(retryAfterFailure, LoginSession.longestBackOff))
        let wait = max(backOff, retryAfter ?? 0)
        var told = error
        if let retryAfter, retryAfter > retryAfterFailure {
            told.userMessage += " (the server asks to wait \(DurationText.format(retryAfter)))"
        }
        failure = (told, now + wait)
    }

    /// Seconds a 429 or 503 answer's `Retry-After` asks for (seconds, or an HTTP date), at most
    /// `longestRetryAfter`; nil without one.
    static func retryAfter(_ error: RequestError, now: TimeInterval) -> TimeInterval? {
        guard let status = error.httpStatusCode, status == 429 || status == 503,
            let value = error.entity?.headers["retry-after"]?.trimmingWhitespace(), !value.isEmpty
        else { return nil }
        if let seconds = Double(value), seconds.isFinite, seconds >= 0 { return min(seconds, longestRetryAfter) }
        guard let date = DateText.httpDate(value) else { return nil }
        // The engine clock counts from the reference date, as `Date` does.
        return min(max(0, date - Date.timeIntervalBetween1970AndReferenceDate - now), longestRetryAfter)
    }

    /// The token in an answer: the `token: header.NAME` header, or a string (or number) at the
    /// `token` path of its JSON.
    private func token(in entity: Entity) -> String? {
        if let name = spec.tokenHeader {
            guard let value = entity.headers[name.lowercased()]?.trimmingWhitespace(), LoginSession.usable(value) else { return nil }
            return value
        }
        guard let json = tokenJSON(in: entity), let found = tokenPath.lookup(json) else { return nil }
        let token: String? = switch found {
        case .string(let text): text
        case .int(let number): String(number)
        default: nil
        }
        guard let token, LoginSession.usable(token) else { return nil }
        return token
    }

    /// The answer's JSON, parsed from its bytes or text when the pipeline left them.
    private func tokenJSON(in entity: Entity) -> JSON? {
        if let json = entity.content as? JSON { return json }
        if let data = entity.content as? Data { return try? JSONParser.parse(data) }
        if let text = entity.content as? String { return try? JSONParser.parse(text) }
        return nil
    }

    /// A token that can go in a header: one word, no control characters.
    static func usable(_ token: String) -> Bool {
        !token.isEmpty && !token.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F }
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
/// to the request it was given, or fails with the login's error — unless the session logged in
/// all the same (a refusal that carried the token, as Transmission's 409 does).
@MainActor
final class WaitForLogin: RequestDelegate {
    let login: Request
    let next: @MainActor () -> Request
    let loggedIn: @MainActor () -> Bool
    /// The session's account of the failure (with how long it waits), when it has one.
    let failure: @MainActor () -> RequestError?
    let requestDescription: String
    private var started: Request?

    init(
        login: Request, next: @escaping @MainActor () -> Request, loggedIn: @escaping @MainActor () -> Bool,
        failure: @escaping @MainActor () -> RequestError?, description: String
    ) {
        self.login = login
        self.next = next
        self.loggedIn = loggedIn
        self.failure = failure
        self.requestDescription = description
    }

    func startUnderlyingOperation(passingResponseTo handler: any RequestCompletionHandler) {
        login.onCompletion { [self] info in
            guard !handler.willIgnore(info) else { return }
            // No request of the session goes out without its token: an answer without a usable
            // one (HTML, no access_token, null, a token with spaces) is a failed login too.
            if !loggedIn() {
                let failed: RequestError
                if let recorded = failure() {
                    failed = recorded
                } else if case .failure(let error) = info.response {
                    failed = error.cause is LoginSession.LoginFailed ? error : LoginSession.loginFailed(error, now: error.timestamp)
                } else {
                    let missing = RequestError(userMessage: "login failed: no token", cause: nil)
                    failed = RequestError(userMessage: missing.userMessage, cause: LoginSession.LoginFailed(underlying: missing))
                }
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
        WaitForLogin(login: login, next: next, loggedIn: loggedIn, failure: failure, description: requestDescription)
    }
}
