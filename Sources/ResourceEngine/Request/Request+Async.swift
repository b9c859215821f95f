extension Request {
    /// The outcome, awaited: the async form of `onCompletion`.
    ///
    /// Lets callers write `switch await resource.load().result` instead of nesting hooks.
    public var result: Response {
        get async { await responseInfoAsync.response }
    }

    /// The outcome with its `isNew` flag, awaited.
    public var responseInfoAsync: ResponseInfo {
        get async {
            await withCheckedContinuation { continuation in
                onCompletion { continuation.resume(returning: $0) }
            }
        }
    }
}
