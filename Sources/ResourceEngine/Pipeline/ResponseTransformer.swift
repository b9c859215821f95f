/// One step of the response pipeline: a response in, a response out.
///
/// May turn a success into a failure (a body that says "error") or a failure into a success, and
/// may improve an error's `userMessage`. Runs off the main actor, so it must be `Sendable`.
public protocol ResponseTransformer: Sendable, CustomDebugStringConvertible {
    /// The response after this step: the same, changed, or turned from success to failure or back.
    func process(_ response: Response) -> Response

    /// Transforms `response` in place: what the pipeline calls. The default is
    /// `response = process(response)`; a transformer that often leaves a response as it is (a
    /// content-type gate) implements it to leave it without copying it.
    func transform(_ response: inout Response)

    /// True when the transformer changes a success only by replacing its content with a value
    /// made from that content, the content type and the charset, the same value every time.
    /// When every transformer of a pipeline says so, a body that is byte for byte the one the
    /// resource got last is not transformed again: it gets the content made of it then. False
    /// unless a transformer says otherwise (one that reads other headers, the time or a counter
    /// must not say so).
    var dependsOnContentAlone: Bool { get }
}

extension ResponseTransformer {
    public func transform(_ response: inout Response) {
        response = process(response)
    }

    public var dependsOnContentAlone: Bool { false }
}
