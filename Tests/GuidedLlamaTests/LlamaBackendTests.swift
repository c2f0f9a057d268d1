#if Llama
import Foundation
import GuidedDecoding
import GuidedLlama
import Testing

/// `LlamaBackend` on the tiny models: its logits against llama-cpp-python's for the same tokens, and its
/// own bookkeeping (batches, prompt reuse, rollback, padded widths, limits) against plain sequential decodes.
@Suite("LlamaBackend", .enabled(if: LlamaFixtures.runs("LlamaBackend")))
struct LlamaBackendTests {
    static func backend(_ model: LlamaModel, tokenizer: Tokenizer? = nil, contextLength: Int = 512,
                        maximumSequences: Int = 4, reuse: Bool = true) throws -> LlamaBackend {
        try LlamaBackend(model: model, tokenizer: tokenizer,
                         configuration: .init(contextLength: contextLength, maximumSequences: maximumSequences, threads: 1,
                                              reusePromptPrefix: reuse, flashAttention: false))
    }

    /// Appends `tokens` to `sequence` and returns the next-token logits.
    static func logits(_ backend: LlamaBackend, _ sequence: inout LlamaSequence, _ tokens: [Int]) throws -> [Float] {
        var row = [Float](repeating: 0, count: backend.vocabulary.size)
        try row.withUnsafeMutableBufferPointer { try backend.append(tokens, to: &sequence, logits: $0) }
        return row
    }

    static func maxDifference(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Float {
        zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    static func prompt(_ model: LlamaModel, _ text: String) throws -> [Int] {
        try model.tokenizer.encode(PromptTemplate.chatML.render("You answer briefly.", text), recognizeSpecialTokens: true)
    }

    /// llama-cpp-python's `Llama.scores` for every position of `tokens` (Peers/reference_logits.py).
    static func reference(_ path: String, _ tokens: [Int], width: Int) throws -> [[Float]] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("logits-\(UUID().uuidString).f32")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = LlamaFixtures.projectRoot.appendingPathComponent("Tests/GuidedLlamaTests/Peers/reference_logits.py").path
        _ = try LlamaFixtures.runPython([script, "--model", path, "--tokens", tokens.map(String.init).joined(separator: ","),
                                         "--out", out.path])
        let data = try Data(contentsOf: out)
        let floats = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(floats.count == tokens.count * width)
        return (0..<tokens.count).map { Array(floats[($0 * width)..<(($0 + 1) * width)]) }
    }

    /// The prompt in one append, then four tokens one by one: each step's logits are llama-cpp-python's
    /// for the same position within 1e-4.
    @Test(arguments: ["qwen2", "mistral"])
    func logitsMatchLlamaCppPython(_ name: String) throws {
        let model = try (name == "qwen2" ? LlamaFixtures.qwen2 : LlamaFixtures.mistral).get()
        let backend = try Self.backend(model)
        let prompt = try Self.prompt(model, "Capital of China?")
        let continuation = try model.tokenizer.encode(#"{"answer": "Beijing"}"#).prefix(4).map { $0 }
        #expect(continuation.count == 4)
        let all = prompt + continuation
        let reference = try Self.reference(model.path, all, width: model.tokenCount)
        var sequence = backend.makeContext()
        var ours = [try Self.logits(backend, &sequence, prompt)]
        for t in continuation.dropLast() { ours.append(try Self.logits(backend, &sequence, [t])) }
        for (k, row) in ours.enumerated() {
            let position = prompt.count - 1 + k
            let d = Self.maxDifference(row[...], reference[position][...])
            #expect(d <= 1e-4, "position \(position): max |difference| \(d)")
        }
        #expect(sequence.tokens == Array(all.dropLast()))
    }

    /// Two sequences in one `llama_decode` give the logits each gets alone.
    @Test func batchedEqualsSequential() throws {
        let model = try LlamaFixtures.qwen2.get()
        let a = try Self.prompt(model, "Capital of China?"), b = try Self.prompt(model, "Describe Ada Lovelace.")
        let single = try Self.backend(model, reuse: false)
        var sa = single.makeContext(), sb = single.makeContext()
        let alone = [try Self.logits(single, &sa, a), try Self.logits(single, &sb, b)]

        let batched = try Self.backend(model, reuse: false)
        var contexts = [batched.makeContext(), batched.makeContext()]
        let width = batched.vocabulary.size
        var rows = [Float](repeating: 0, count: 2 * width)
        try rows.withUnsafeMutableBufferPointer { try batched.append([a, b], to: &contexts, logits: $0) }
        #expect(batched.statistics.decodeCalls == 1)
        #expect(batched.statistics.decodedTokens == a.count + b.count)
        #expect(Self.maxDifference(rows[0..<width], alone[0][...]) <= 1e-4)
        #expect(Self.maxDifference(rows[width..<(2 * width)], alone[1][...]) <= 1e-4)
        // A step of both: one token each, one call.
        let next = [[17], [18]]
        try rows.withUnsafeMutableBufferPointer { try batched.append(next, to: &contexts, logits: $0) }
        #expect(batched.statistics.decodeCalls == 2)
        #expect(contexts[0].tokens == a + [17])
        #expect(contexts[1].tokens == b + [18])
    }

    /// A prompt decoded once is reused by the next sequence that starts with it: only its last token is
    /// decoded again, for the logits, and they are the same.
    @Test func promptPrefixIsReused() throws {
        let model = try LlamaFixtures.qwen2.get()
        let backend = try Self.backend(model)
        let prompt = try Self.prompt(model, "Capital of China?")
        var first: LlamaSequence? = backend.makeContext()
        let cold = try Self.logits(backend, &first!, prompt)
        _ = try Self.logits(backend, &first!, [1, 2, 3])
        first = nil   // released: its cells stay cached
        #expect(backend.statistics == .init(decodedTokens: prompt.count + 3, reusedTokens: 0, decodeCalls: 2))
        var second = backend.makeContext()
        let warm = try Self.logits(backend, &second, prompt)
        #expect(backend.statistics == .init(decodedTokens: prompt.count + 4, reusedTokens: prompt.count - 1, decodeCalls: 3))
        #expect(Self.maxDifference(cold[...], warm[...]) <= 1e-4)
        #expect(second.tokens == prompt)
        // A running sequence shares its prompt with a new one (the cells are tagged for both).
        var third = backend.makeContext()
        let shared = try Self.logits(backend, &third, prompt + [5])
        #expect(backend.statistics.reusedTokens == (prompt.count - 1) + prompt.count)
        #expect(third.tokens == prompt + [5])
        let other = try Self.backend(model, reuse: false)
        var fresh = other.makeContext()
        let reference = try Self.logits(other, &fresh, prompt + [5])
        #expect(Self.maxDifference(shared[...], reference[...]) <= 1e-4)
    }

    /// Rolling back drops the cached tokens: what follows gets the logits of a sequence that never held them.
    @Test func rollbackTruncatesTheCache() throws {
        let model = try LlamaFixtures.qwen2.get()
        let backend = try Self.backend(model)
        let prompt = try Self.prompt(model, "Capital of China?")
        var sequence = backend.makeContext()
        _ = try Self.logits(backend, &sequence, prompt)
        _ = try Self.logits(backend, &sequence, [100, 200, 300])
        try backend.rollback(sequence, toLength: prompt.count)
        #expect(sequence.tokens == prompt)
        let after = try Self.logits(backend, &sequence, [400])
        let other = try Self.backend(model, reuse: false)
        var clean = other.makeContext()
        let expected = try Self.logits(other, &clean, prompt + [400])
        #expect(Self.maxDifference(after[...], expected[...]) <= 1e-4)
        #expect(throws: LlamaError.rollbackPastEnd(length: prompt.count + 1, requested: prompt.count + 2)) {
            try backend.rollback(sequence, toLength: prompt.count + 2)
        }
    }

    /// A tokenizer padded to a wider logits width (as Qwen2's 151,936-row embeddings): the extra columns
    /// are −∞, the rest as without padding.
    @Test func paddedWidthIsFilledWithMinusInfinity() throws {
        let model = try LlamaFixtures.qwen2.get()
        let padded = try Self.backend(model, tokenizer: model.tokenizer.padded(to: 151_936))
        #expect(padded.vocabulary.size == 151_936)
        let plain = try Self.backend(model)
        let prompt = try Self.prompt(model, "Hi")
        var a = padded.makeContext(), b = plain.makeContext()
        let wide = try Self.logits(padded, &a, prompt), narrow = try Self.logits(plain, &b, prompt)
        #expect(wide[151_851...].allSatisfy { $0 == -.infinity })
        #expect(Self.maxDifference(wide[..<151_851], narrow[...]) <= 1e-4)
    }

    @Test func limitsAndBadInputAreTypedErrors() throws {
        let model = try LlamaFixtures.qwen2.get()
        let backend = try Self.backend(model, contextLength: 32, maximumSequences: 2)
        var row = [Float](repeating: 0, count: backend.vocabulary.size)
        var s1 = backend.makeContext(), s2 = backend.makeContext(), s3 = backend.makeContext()
        #expect(throws: BackendError.emptyAppend) { try row.withUnsafeMutableBufferPointer { try backend.append([], to: &s1, logits: $0) } }
        #expect(throws: BackendError.tokenOutOfRange(token: 151_851, vocabularySize: 151_851)) {
            try row.withUnsafeMutableBufferPointer { try backend.append([151_851], to: &s1, logits: $0) }
        }
        #expect(throws: BackendError.logitsBufferSize(given: 10, required: 151_851)) {
            var short = [Float](repeating: 0, count: 10)
            try short.withUnsafeMutableBufferPointer { try backend.append([1], to: &s1, logits: $0) }
        }
        _ = try Self.logits(backend, &s1, [1, 2, 3])
        _ = try Self.logits(backend, &s2, [4, 5])
        #expect(throws: LlamaError.tooManySequences(limit: 2)) { try row.withUnsafeMutableBufferPointer { try backend.append([6], to: &s3, logits: $0) } }
        #expect(throws: LlamaError.contextOverflow(length: 3, appending: 30, contextLength: 32)) {
            try row.withUnsafeMutableBufferPointer { try backend.append([Int](repeating: 7, count: 30), to: &s1, logits: $0) }
        }
        // A failed append leaves the sequence as it was.
        #expect(s1.tokens == [1, 2, 3])
        let other = try Self.backend(model, contextLength: 32)
        #expect(throws: LlamaError.invalidConfiguration("the sequence belongs to another backend")) {
            try row.withUnsafeMutableBufferPointer { try other.append([1], to: &s1, logits: $0) }
        }
        #expect(throws: LlamaError.invalidConfiguration("the same sequence twice in one batch")) {
            var both = [s1, s1]
            var rows = [Float](repeating: 0, count: 2 * backend.vocabulary.size)
            try rows.withUnsafeMutableBufferPointer { try backend.append([[1], [2]], to: &both, logits: $0) }
        }
        #expect(throws: LlamaError.invalidConfiguration("maximumSequences 0 is not in 1...256")) {
            try LlamaBackend(model: model, configuration: .init(maximumSequences: 0))
        }
    }
}
#endif
