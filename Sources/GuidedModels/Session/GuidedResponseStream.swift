/// Snapshots of a response as it is generated; the last one carries the final value. Errors (including
/// `incompleteOutput` and cancellation) end the sequence by throwing.
public struct GuidedResponseStream<Content: Sendable>: AsyncSequence, Sendable {
    public typealias Element = GuidedSnapshot<Content>
    let stream: AsyncThrowingStream<GuidedSnapshot<Content>, any Error>

    public func makeAsyncIterator() -> AsyncThrowingStream<GuidedSnapshot<Content>, any Error>.AsyncIterator {
        stream.makeAsyncIterator()
    }

    /// Waits for the end and returns the final response.
    public func collect() async throws -> GuidedResponse<Content> {
        var last: GuidedResponse<Content>?
        for try await snapshot in stream { if let r = snapshot.response { last = r } }
        guard let last else { throw CancellationError() }
        return last
    }
}
