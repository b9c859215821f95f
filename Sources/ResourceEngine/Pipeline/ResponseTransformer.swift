/// One step of the response pipeline: a response in, a response out.
///
/// May turn a success into a failure (a body that says "error") or a failure into a success, and
/// may improve an error's `userMessage`. Runs off the main actor, so it must be `Sendable`.
public protocol ResponseTransformer: Sendable, CustomDebugStringConvertible {
    func process(_ response: Response) -> Response
}
