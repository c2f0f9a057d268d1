/// How much of a response the client keeps in memory. Each limit is checked as bytes arrive, so a server
/// that sends too much costs at most the limit plus one network read, never the whole body.
public struct ChatLimits: Sendable, Equatable {
    /// A non-streaming body (and a JSON body a server sent instead of a stream) larger than this is
    /// refused with `ChatClientError.responseTooLarge`. Default 64 MiB.
    public var maximumResponseBytes: Int
    /// Error bodies are kept up to this size (the rest is read and dropped). Default 1 MiB.
    public var maximumErrorBodyBytes: Int
    /// Longest SSE line, SSE event (its `data` lines together) or NDJSON line; a longer one is refused
    /// with `ChatClientError.eventTooLarge`. Default 4 MiB: a chat chunk is a few hundred bytes, and even a
    /// whole answer sent as one event fits.
    public var maximumEventBytes: Int
    /// Bytes the network delivered that the reader has not taken yet. URLSession has no back-pressure:
    /// a server faster than the reader (a slow `onChunk`) would otherwise fill memory; past this the
    /// exchange fails with `ChatClientError.readAheadExceeded`. Default 16 MiB, far above what a reader
    /// that keeps up ever holds.
    public var maximumReadAheadBytes: Int

    public init(maximumResponseBytes: Int = 64 << 20, maximumErrorBodyBytes: Int = 1 << 20,
                maximumEventBytes: Int = 4 << 20, maximumReadAheadBytes: Int = 16 << 20) {
        self.maximumResponseBytes = max(1, maximumResponseBytes)
        self.maximumErrorBodyBytes = max(0, maximumErrorBodyBytes)
        self.maximumEventBytes = max(1, maximumEventBytes)
        self.maximumReadAheadBytes = max(1, maximumReadAheadBytes)
    }
}
