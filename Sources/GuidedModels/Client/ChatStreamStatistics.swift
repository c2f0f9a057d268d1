/// How a stream behaved, for transport diagnostics (a strictness probe reports these).
public struct ChatStreamStatistics: Sendable, Equatable {
    /// Which attempt produced the stream (1 unless retried).
    public var attempts = 1
    public var status = 0
    public var contentType = ""
    public var bytes = 0
    /// Events (SSE) or lines (NDJSON) read, `[DONE]` included.
    public var eventCount = 0
    public var chunkCount = 0
    /// SSE comments (`: ping`) seen.
    public var commentCount = 0
    public var sawDone = false
    /// A `retry:` the server sent, in milliseconds.
    public var reconnectionTime: Int?
    /// Seconds from sending to the first chunk, and to the end.
    public var secondsToFirstChunk: Double?
    public var seconds = 0.0

    public init() {}
}

/// A streamed answer and how its stream behaved.
public struct ChatStreamResult: Sendable, Equatable {
    public var response: ChatResponse
    public var statistics: ChatStreamStatistics

    public init(response: ChatResponse, statistics: ChatStreamStatistics) {
        self.response = response
        self.statistics = statistics
    }
}
