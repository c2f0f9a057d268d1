import Foundation
import GuidedModels
import GuidedSchema
import GuidedTokenizers

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

/// Wraps a backend and adds `bias` to the logits of chosen tokens: a model that "wants" to say something.
struct BiasedBackend<Base: LogitsBackend>: LogitsBackend {
    let base: Base
    let favoured: [Int]
    let bias: Float
    var vocabulary: TokenVocabulary { base.vocabulary }
    func makeContext() throws -> Base.Context { try base.makeContext() }
    func append(_ tokens: UnsafeBufferPointer<Int>, to context: inout Base.Context,
                logits: UnsafeMutableBufferPointer<Float>) throws {
        try base.append(tokens, to: &context, logits: logits)
        for t in favoured { logits[t] += bias }
    }
}
