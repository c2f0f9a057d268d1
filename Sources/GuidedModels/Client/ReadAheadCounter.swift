import Synchronization

/// Bytes handed to the stream that its reader has not taken yet, and the failure once they were too many.
final class ReadAheadCounter: Sendable {
    private let state = Mutex((bytes: 0, failure: ChatClientError?.none))

    /// Adds `n` delivered bytes; past `limit` records the failure and returns false.
    func deliver(_ n: Int, limit: Int) -> Bool {
        state.withLock { s in
            s.bytes += n
            if s.bytes > limit, s.failure == nil { s.failure = .readAheadExceeded(limit: limit) }
            return s.failure == nil
        }
    }

    /// Takes `n` bytes off the count; throws the recorded failure, so that the reader stops at once
    /// instead of first working through everything still buffered.
    func take(_ n: Int) throws(ChatClientError) {
        let failure = state.withLock { s in
            s.bytes -= n
            return s.failure
        }
        if let failure { throw failure }
    }
}
