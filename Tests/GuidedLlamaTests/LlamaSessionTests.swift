#if Llama
import Foundation
import GuidedDecoding
import GuidedLlama
import Testing

/// A small type the tiny model fills in.
struct CityCard: Decodable, Sendable, Equatable, GuidedGenerable {
    let name: String
    let population: Int
    let coastal: Bool
}

/// `GuidedSession` over `LlamaBackend` on the tiny Qwen2-vocabulary model (an almost deterministic bigram
/// model: unconstrained it writes `{"answer": "Beijing"}` and then `"}` until the budget; under a grammar
/// it closes everything as early as it can).
@Suite("GuidedSession over LlamaBackend", .enabled(if: LlamaFixtures.runs("GuidedSession over LlamaBackend")))
struct LlamaSessionTests {
    static let cache = GrammarCompilationCache()
    static let backend = Result { () throws -> LlamaBackend in
        try LlamaBackend(model: try LlamaFixtures.qwen2.get(), configuration: .init(contextLength: 2048, threads: 1))
    }
    static func session() throws -> GuidedSession {
        let backend = try Self.backend.get()
        return GuidedSession(backend: backend, tokenizer: backend.tokenizer, instructions: "You fill in records.", cache: cache)
    }

    @Test func typedValueFromOneCall() async throws {
        let session = try Self.session()
        let r = try await session.respond(to: "Describe a city.", generating: CityCard.self, options: .greedy(maximumResponseTokens: 64))
        #expect(r.content == CityCard(name: "", population: 0, coastal: true))
        #expect(r.rawText == #"{"name":"","population":0,"coastal":true}"#)
        #expect(r.enforcement == .tokenMask)
        // After `}` nothing can follow: the grammar ends the value, no end token is sampled.
        #expect(r.stopReason == .grammarComplete)
    }

    /// The same prompt without the mask: the model's own JSON, which ignores the schema and runs on.
    @Test func withoutTheMaskTheModelIgnoresTheSchema() async throws {
        let session = try Self.session()
        let r = try await session.respondText(to: "Describe a city.", options: .greedy(maximumResponseTokens: 10))
        #expect(r.rawText == #"{"answer": "Beijing"}"}"}"}"#)
        #expect(r.stopReason == .tokenBudget)
    }

    /// The acceptance check: the first 100 maskbench-dev schemas (name order) that compile, 2 seeds each at
    /// temperature 1. Every finished output validates; an unfinished one is `incompleteOutput` at the budget.
    @Test(.timeLimit(.minutes(30)))
    func maskbenchSchemasValidate() async throws {
        let session = try Self.session()
        let base = DecodingOptions(maximumResponseTokens: 256, includeSchemaInPrompt: false)
        let schemas = try await Self.schemas(100, session: session, options: base)
        #expect(schemas.count == 100)
        var completed = 0
        var invalid: [String] = [], incomplete: [String] = []
        for (file, schema) in schemas {
            let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
            for seed in [1, 2] as [UInt64] {
                var options = base
                options.seed = seed
                do {
                    let r = try await session.respond(to: "Produce an instance.", schema: schema, options: options)
                    completed += 1
                    if !validator.isValid(r.content) { invalid.append("\(file) seed \(seed): \(r.rawText)") }
                } catch GuidedSessionError.incompleteOutput(let reason, _, _, let tokens) {
                    incomplete.append("\(file) seed \(seed)")
                    #expect(reason == .tokenBudget && tokens == 256, "\(file) seed \(seed)")
                }
            }
        }
        #expect(invalid.isEmpty, "\(invalid.count) invalid: \(invalid.prefix(3))")
        #expect(completed + incomplete.count == 200)
        #expect(incomplete == Self.expectedIncomplete)
    }

    /// The runs that reach the budget: an integer whose first digit, drawn at temperature 1, is not `0`; the
    /// model's favourite token is then `0` again and again (`9000000000…`), and a JSON integer has no end.
    static let expectedIncomplete = ["BFCL_java_71.json seed 1", "BFCL_multiple_8.json seed 2"]

    /// The same seed gives the same output (the prompt's cells reused from the cache or not).
    @Test func sameSeedSameOutput() async throws {
        let session = try Self.session()
        let base = DecodingOptions(maximumResponseTokens: 256, includeSchemaInPrompt: false)
        for (file, schema) in try await Self.schemas(10, session: session, options: base) {
            for seed in [7, 8] as [UInt64] {
                var options = base
                options.seed = seed
                let a = try await session.decodeOutcome(to: "Produce an instance.", schema: schema, options: options)
                let b = try await session.decodeOutcome(to: "Produce an instance.", schema: schema, options: options)
                #expect(a.tokens == b.tokens, "\(file) seed \(seed)")
            }
        }
    }

    /// The first `count` maskbench-dev schemas (name order) that the session compiles.
    static func schemas(_ count: Int, session: GuidedSession, options: DecodingOptions) async throws -> [(String, JSONValue)] {
        let dir = LlamaFixtures.sharedPath("corpora/maskbench-dev")
        var out: [(String, JSONValue)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: dir).filter({ $0.hasSuffix(".json") }).sorted() {
            if out.count == count { break }
            let text = try String(contentsOfFile: (dir as NSString).appendingPathComponent(file), encoding: .utf8)
            guard let schema = try JSONParser.parse(text)["schema"] else { continue }
            do {
                try await session.prewarm(schema: schema, options: options)
                out.append((file, schema))
            } catch GuidedSessionError.schemaRefused {
                continue
            }
        }
        return out
    }
}
#endif
