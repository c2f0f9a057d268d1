import Foundation
import GuidedModels
import GuidedSchema
import GuidedTokenizers
import GuidedTestSupport

/// The Qwen2 tokenizer and the n-gram backend trained on Corpora/prose, built once per test process.
enum SessionFixture {
    static let loaded: Result<(Tokenizer, NGramBackend), any Error> = Result {
        let tokenizer = try Tokenizer.load(path: SharedData.path("vocab/qwen2.tiktoken"), preset: .qwen2,
                                           vocabularySize: TiktokenPreset.qwen2.modelVocabularySize)
        let corpus = SharedData.projectRoot.appendingPathComponent("Corpora/prose").path
        return (tokenizer, try NGramBackend(tokenizer: tokenizer, corpusDirectory: corpus))
    }
    static var tokenizer: Tokenizer { get throws { try loaded.get().0 } }
    static var backend: NGramBackend { get throws { try loaded.get().1 } }

    /// One cache for the whole test process, so each grammar compiles once.
    static let cache = GrammarCompilationCache()
    static let sessions: Result<GuidedSession, any Error> = Result {
        GuidedSession(backend: try backend, tokenizer: try tokenizer, instructions: "You write short records.", cache: cache)
    }
    static var session: GuidedSession { get throws { try sessions.get() } }
}

/// A small type for the session tests.
struct Pet: Decodable, Sendable, Equatable, GuidedGenerable {
    let name: String
    let age: Int
    let indoor: Bool
    static var schemaHints: [PropertyHint] {
        [PropertyHint("name", guides: .maxLength(12)), PropertyHint("age", guides: .range(0...30))]
    }
}

/// The FoundationModels `.anyOf` bug case: a city constrained to three values.
struct Destination: Decodable, Sendable, Equatable, GuidedGenerable {
    let city: String
    static var schemaHints: [PropertyHint] { [PropertyHint("city", guides: .anyOf(["London", "New York", "Paris"]))] }
}

/// Wraps a backend and makes it strongly prefer one response, `target`: at each step the tokens that
/// spell the next bytes of the target get `bias` added (longer ones a little more), and once the target is
/// complete the end token does. Once the response leaves the target, the base model speaks alone.
struct PreferringBackend<Base: LogitsBackend>: LogitsBackend {
    struct Context {
        var base: Base.Context
        var calls = 0
        /// Bytes of the target matched so far; -1 once the response left it.
        var position = 0
    }
    let base: Base
    let target: [UInt8]
    let bias: Float
    /// For each target position, the tokens whose bytes are a prefix of the rest of the target.
    let spelling: [[Int]]

    init(base: Base, target: String, bias: Float) {
        self.base = base
        self.target = Array(target.utf8)
        self.bias = bias
        let v = base.vocabulary
        var spelling = [[Int]](repeating: [], count: self.target.count)
        for t in 0..<v.tokenCount where !v.isSpecial(t) {
            let bytes = v.tokenBytes(t)
            for p in 0..<self.target.count where bytes.count <= self.target.count - p {
                if bytes.elementsEqual(self.target[p..<(p + bytes.count)]) { spelling[p].append(t) }
            }
        }
        self.spelling = spelling
    }

    var vocabulary: TokenVocabulary { base.vocabulary }
    func makeContext() throws -> Context { Context(base: try base.makeContext()) }
    func append(_ tokens: UnsafeBufferPointer<Int>, to context: inout Context,
                logits: UnsafeMutableBufferPointer<Float>) throws {
        try base.append(tokens, to: &context.base, logits: logits)
        context.calls += 1
        if context.calls > 1 {   // the first call is the prompt
            for t in tokens where context.position >= 0 {
                let bytes = vocabulary.tokenBytes(t)
                let p = context.position
                if p + bytes.count <= target.count && bytes.elementsEqual(target[p..<(p + bytes.count)]) {
                    context.position += bytes.count
                } else {
                    context.position = -1
                }
            }
        }
        let p = context.position
        if p < 0 { return }
        if p == target.count {
            for t in vocabulary.eosTokenIDs { logits[t] += bias }
            return
        }
        for t in spelling[p] { logits[t] += bias + Float(vocabulary.tokenBytes(t).count) }
    }
}
