/// One step of the response pipeline: a response in, a response out.
///
/// May turn a success into a failure (a body that says "error") or a failure into a success, and
/// may improve an error's `userMessage`. Runs off the main actor, so it must be `Sendable`.
public protocol ResponseTransformer: Sendable, CustomDebugStringConvertible {
    func process(_ response: Response) -> Response

    /// Transforms `response` in place: what the pipeline calls. The default is
    /// `response = process(response)`; a transformer that often leaves a response as it is (a
    /// content-type gate) implements it to leave it without copying it.
    func transform(_ response: inout Response)
}

extension ResponseTransformer {
    public func transform(_ response: inout Response) {
        response = process(response)
    }
}
