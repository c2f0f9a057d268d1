#if Llama

/// One sequence of a `LlamaBackend`: the `Context` of `LogitsBackend`. It owns one llama.cpp sequence id of
/// the backend's context (its KV-cache cells) from its first `append` until it is released; then the
/// cells stay cached, so that the next sequence starting with the same prompt reuses them.
///
/// All its state is the backend's, read and written under the backend's lock.
public final class LlamaSequence: @unchecked Sendable {  // `slot` is only touched under `backend`'s lock
    let backend: LlamaBackend
    /// The llama.cpp sequence id, or -1 before the first `append`.
    var slot = -1

    init(backend: LlamaBackend) { self.backend = backend }

    deinit { backend.release(slot) }

    /// The tokens in the sequence's cache (the prompt and everything appended since).
    public var tokens: [Int] { backend.tokens(of: self) }
}
#endif
