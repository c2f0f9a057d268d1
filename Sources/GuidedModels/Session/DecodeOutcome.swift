/// What one run of the decode loop produced.
public struct DecodeOutcome: Sendable {
    /// Why generation ended.
    public enum StopReason: String, Sendable, Equatable {
        /// An end token was sampled (or was the only thing the grammar allowed).
        case endOfSequence
        /// The grammar's value was complete and nothing else could follow.
        case grammarComplete
        /// The token budget ran out (free text only; structured output throws `incompleteOutput`).
        case tokenBudget
        /// A stop string appeared.
        case stopString
    }

    /// Generated tokens (forced and sampled, no end token), in order.
    public var tokens: [Int]
    /// Exact bytes of the response (the stop string removed).
    public var bytes: [UInt8]
    /// Tokens the grammar forced (appended without sampling; the model still saw them).
    public var forcedTokenCount: Int
    /// Tokens drawn by the sampler.
    public var sampledTokenCount: Int
    /// Backend calls (each appends the tokens new since the last call and returns logits).
    public var backendCalls: Int
    /// Time spent inside the backend, in nanoseconds (measured only when asked).
    public var backendNanoseconds: UInt64
    /// Time of the whole loop (backend included), in nanoseconds (measured only when asked).
    public var loopNanoseconds: UInt64 = 0
    /// Time spent computing the grammar's token masks and advancing the matcher (fill and accept), in
    /// nanoseconds (measured only when asked; the rest of the loop's own time is sampling and bookkeeping).
    public var maskNanoseconds: UInt64 = 0
    public var stopReason: StopReason

    /// The response as text (invalid UTF-8 repaired).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
