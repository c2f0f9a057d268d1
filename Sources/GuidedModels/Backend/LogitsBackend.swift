import GuidedTokenizers

/// A local engine that yields next-token logits: the minimal contract the session's decode loop needs.
///
/// The engine keeps one `Context` per sequence (its KV cache, or whatever state it has). The loop calls
/// `append(_:logits:)` with the tokens that are new since the last call — the prompt first, then the
/// sampled or forced tokens — so an engine with a cache never recomputes the prefix. Logits are written
/// into the caller's buffer (`vocabulary.size` floats), which the loop reuses at every step: nothing is
/// allocated per token on the session's side.
public protocol LogitsBackend: GuidedBackend {
    associatedtype Context
    /// The exact bytes of every token; `size` is the logits width.
    var vocabulary: TokenVocabulary { get }
    /// A fresh, empty sequence.
    func makeContext() throws -> Context
    /// Appends `tokens` (at least one) to the sequence and writes the logits of the next token into
    /// `logits` (`vocabulary.size` values; −∞ for impossible tokens is allowed).
    func append(_ tokens: UnsafeBufferPointer<Int>, to context: inout Context,
                logits: UnsafeMutableBufferPointer<Float>) throws
}

/// The optional batch form: several sequences advanced in one call (one forward pass on engines that
/// batch). Row `i` of `logits` (`vocabulary.size` floats each, rows back to back) belongs to `contexts[i]`.
public protocol BatchLogitsBackend: LogitsBackend {
    func append(_ tokens: [[Int]], to contexts: inout [Context], logits: UnsafeMutableBufferPointer<Float>) throws
}

extension LogitsBackend {
    /// Local logits are masked by the session: `.tokenMask`, no tools, no reasoning channel.
    public var capabilities: BackendCapabilities { BackendCapabilities(enforcement: .tokenMask) }

    /// `append` for an array (allocates nothing beyond the caller's array).
    public func append(_ tokens: [Int], to context: inout Context, logits: UnsafeMutableBufferPointer<Float>) throws {
        try tokens.withUnsafeBufferPointer { try append($0, to: &context, logits: logits) }
    }

    /// The batch form on an engine without batching: one sequence after the other.
    public func appendSequentially(_ tokens: [[Int]], to contexts: inout [Context],
                                   logits: UnsafeMutableBufferPointer<Float>) throws {
        precondition(tokens.count == contexts.count, "one token list per context")
        let width = vocabulary.size
        precondition(logits.count >= width * contexts.count, "logits buffer too small for the batch")
        for i in contexts.indices {
            let row = UnsafeMutableBufferPointer(rebasing: logits[(i * width)..<((i + 1) * width)])
            try append(tokens[i], to: &contexts[i], logits: row)
        }
    }
}
