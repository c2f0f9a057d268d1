#if Llama
import CLlama
import Foundation
import GuidedModels
import GuidedSync
import GuidedTokenizers

/// A GGUF model in llama.cpp as a `BatchLogitsBackend`: the session masks its logits at every step.
///
/// One llama.cpp context per backend, with a KV cache shared by up to `maximumSequences` sequences (one
/// llama.cpp sequence id per `LlamaSequence`). `append` decodes the new tokens of one or several sequences
/// in one `llama_decode` and writes the last token's logits of each into the caller's buffer. A sequence
/// that starts with tokens another one has already decoded (the same instructions and prompt, another
/// seed) reuses them from the cache: only the rest is decoded. `rollback(_:toLength:)` drops the end of a
/// sequence from the cache.
///
/// ```swift
/// let model = try LlamaModel(path: "model.gguf")
/// let backend = try LlamaBackend(model: model, configuration: .init(threads: 4))
/// let session = GuidedSession(backend: backend, tokenizer: backend.tokenizer)
/// let trip = try await session.respond(to: "A weekend in Paris", generating: Trip.self)
/// ```
///
/// Calls from several tasks are serialised (a llama.cpp context runs one decode at a time); use one
/// backend per core group for parallel work, or the batch form to advance several sequences at once.
public final class LlamaBackend: BatchLogitsBackend, @unchecked Sendable {  // llama.cpp state only under `state`'s lock
    public typealias Context = LlamaSequence

    public struct Configuration: Sendable, Equatable {
        /// Tokens the KV cache holds, all sequences together; nil: the model's trained length, at most 4096.
        public var contextLength: Int?
        /// Tokens per `llama_decode`: a longer prompt is decoded in several.
        public var batchSize: Int
        /// Sequences alive at once (and prompt caches kept).
        public var maximumSequences: Int
        /// Threads for generating (one token per sequence) and for prompts.
        public var threads: Int
        public var batchThreads: Int
        /// Reuse the cached tokens of a finished or running sequence that a new one starts with.
        public var reusePromptPrefix: Bool
        /// Flash attention on or off; nil: llama.cpp decides (`auto`). Off gives the logits of
        /// llama-cpp-python's default `Llama` (the tests compare them).
        public var flashAttention: Bool?

        public init(contextLength: Int? = nil, batchSize: Int = 512, maximumSequences: Int = 4,
                    threads: Int = ProcessInfo.processInfo.activeProcessorCount, batchThreads: Int? = nil,
                    reusePromptPrefix: Bool = true, flashAttention: Bool? = nil) {
            self.contextLength = contextLength
            self.batchSize = batchSize
            self.maximumSequences = maximumSequences
            self.threads = threads
            self.batchThreads = batchThreads ?? threads
            self.reusePromptPrefix = reusePromptPrefix
            self.flashAttention = flashAttention
        }
    }

    /// Counts since the backend was made (for tests and benchmarks).
    public struct Statistics: Sendable, Equatable {
        /// Tokens decoded by llama.cpp.
        public var decodedTokens = 0
        /// Prompt tokens taken from the cache instead of being decoded.
        public var reusedTokens = 0
        /// `llama_decode` calls.
        public var decodeCalls = 0

        public init(decodedTokens: Int = 0, reusedTokens: Int = 0, decodeCalls: Int = 0) {
            self.decodedTokens = decodedTokens
            self.reusedTokens = reusedTokens
            self.decodeCalls = decodeCalls
        }
    }

    public let model: LlamaModel
    /// The tokenizer the vocabulary comes from: the model's own, or the caller's after `checkVocabulary`.
    public let tokenizer: Tokenizer
    /// The tokens masks are computed over; `vocabulary.size` is the width of each logits row (past
    /// `model.tokenCount`, llama.cpp computes nothing and the row is −∞).
    public let vocabulary: TokenVocabulary
    public let configuration: Configuration
    /// The cache's capacity in tokens (`configuration.contextLength` or the model's default).
    public let contextLength: Int

    let state: Locked<LlamaState>

    /// A backend over `model`. `tokenizer`, when given, must have exactly the model's tokens (a tokenizer
    /// file shipped beside the GGUF); it may be padded to a wider logits width.
    /// - Throws: `LlamaError.vocabularyMismatch`, `.invalidConfiguration`, `.contextNotCreated`.
    public init(model: LlamaModel, tokenizer: Tokenizer? = nil, configuration: Configuration = Configuration()) throws(LlamaError) {
        guard !model.options.vocabularyOnly else {
            throw .invalidConfiguration("the model was loaded with vocabularyOnly: it has no weights to decode with")
        }
        let c = configuration
        let length = c.contextLength ?? min(max(model.trainedContextLength, 1), 4096)
        guard length >= 1, length <= Int(Int32.max) else { throw .invalidConfiguration("contextLength \(length) is not positive") }
        guard c.batchSize >= 1 else { throw .invalidConfiguration("batchSize \(c.batchSize) is not positive") }
        guard c.threads >= 1, c.batchThreads >= 1 else {
            throw .invalidConfiguration("threads \(c.threads) and batchThreads \(c.batchThreads) must be positive")
        }
        let maxSequences = Int(llama_max_parallel_sequences())
        guard c.maximumSequences >= 1, c.maximumSequences <= maxSequences else {
            throw .invalidConfiguration("maximumSequences \(c.maximumSequences) is not in 1...\(maxSequences)")
        }
        if let tokenizer { try model.checkVocabulary(tokenizer) }
        self.tokenizer = tokenizer ?? model.tokenizer
        self.vocabulary = self.tokenizer.vocabulary
        self.model = model
        self.configuration = c
        self.contextLength = length

        var params = llama_context_default_params()
        params.n_ctx = UInt32(length)
        params.n_batch = UInt32(min(c.batchSize, length))
        params.n_ubatch = params.n_batch
        params.n_seq_max = UInt32(c.maximumSequences)
        params.n_threads = Int32(clamping: c.threads)
        params.n_threads_batch = Int32(clamping: c.batchThreads)
        // One KV buffer for all sequences: a prompt copied to another sequence shares its cells, no copy.
        params.kv_unified = true
        params.no_perf = true
        if let on = c.flashAttention { params.flash_attn_type = on ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED }
        let (made, lines) = LlamaRuntime.capturingErrors { llama_init_from_model(model.pointer, params) }
        guard let context = made else { throw .contextNotCreated(reason: LlamaRuntime.reason(lines)) }
        state = Locked(LlamaState(context: context, batchCapacity: Int(params.n_batch), sequences: c.maximumSequences,
                                  contextLength: length))
    }

    deinit { state.withLock { $0.free() } }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    // MARK: LogitsBackend

    public func makeContext() -> LlamaSequence { LlamaSequence(backend: self) }

    public func append(_ tokens: UnsafeBufferPointer<Int>, to context: inout LlamaSequence,
                       logits: UnsafeMutableBufferPointer<Float>) throws {
        let sequence = context
        try decode(count: 1, tokens: { _ in tokens }, sequence: { _ in sequence }, logits: logits)
    }

    public func append(_ tokens: [[Int]], to contexts: inout [LlamaSequence],
                       logits: UnsafeMutableBufferPointer<Float>) throws {
        guard tokens.count == contexts.count else {
            throw LlamaError.invalidConfiguration("\(tokens.count) token lists for \(contexts.count) sequences")
        }
        guard !tokens.isEmpty else { return }
        let sequences = contexts
        try withBuffers(tokens) { buffers in
            try decode(count: buffers.count, tokens: { buffers[$0] }, sequence: { sequences[$0] }, logits: logits)
        }
    }

    /// Drops the end of `sequence` from the cache, keeping its first `length` tokens: the next `append`
    /// continues from there (and its logits are those of a sequence that never held the dropped tokens).
    public func rollback(_ sequence: LlamaSequence, toLength length: Int) throws(LlamaError) {
        guard sequence.backend === self else { throw .invalidConfiguration("the sequence belongs to another backend") }
        try state.withLock { (s: inout LlamaState) throws(LlamaError) in
            guard sequence.slot >= 0 else {
                guard length == 0 else { throw .rollbackPastEnd(length: 0, requested: length) }
                return
            }
            try s.truncate(sequence.slot, to: length)
        }
    }

    // MARK: Internals

    func tokens(of sequence: LlamaSequence) -> [Int] {
        state.withLock { s in sequence.slot < 0 ? [] : s.slots[sequence.slot].tokens.map(Int.init) }
    }

    func release(_ slot: Int) {
        guard slot >= 0 else { return }
        let keep = configuration.reusePromptPrefix
        state.withLock { $0.release(slot, keepCells: keep) }
    }

    /// The token lists as buffer pointers, valid inside `body`.
    private func withBuffers<R>(_ lists: [[Int]], _ body: ([UnsafeBufferPointer<Int>]) throws -> R) throws -> R {
        func nest(_ i: Int, _ acc: inout [UnsafeBufferPointer<Int>]) throws -> R {
            if i == lists.count { return try body(acc) }
            return try lists[i].withUnsafeBufferPointer { buffer in
                acc.append(buffer)
                return try nest(i + 1, &acc)
            }
        }
        var acc: [UnsafeBufferPointer<Int>] = []
        acc.reserveCapacity(lists.count)
        return try nest(0, &acc)
    }
}
#endif
