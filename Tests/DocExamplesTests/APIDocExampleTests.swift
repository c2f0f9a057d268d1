import Foundation
import GuidedDecoding
import Testing
import GuidedTestSupport

// The examples of docs/api.md, compiled and run. Each declaration between a "MARK: docs/api.md" line
// and the checks below is the code shown in that section of the page, line for line: APIDocDriftTests
// fails when the page and this file differ. Edit both together. The @Test functions at the end check
// what the page says the examples return.

// MARK: docs/api.md, "1. Vocabularies and presets"

func loadQwen2(_ path: String) throws -> Tokenizer {
    // A .tiktoken file holds only the mergeable tokens: the preset adds the pre-tokenizer regex,
    // the special tokens and the end tokens; vocabularySize pads to the model's logits width.
    try Tokenizer.load(path: path, preset: .qwen2,
                       vocabularySize: TiktokenPreset.qwen2.modelVocabularySize)
}

func loadMistral(_ directory: String) throws -> (huggingFace: Tokenizer, sentencePiece: Tokenizer) {
    // tokenizer.json and SentencePiece .model files name their own special tokens: no preset.
    (try Tokenizer.load(path: directory + "/mistral-7b-v0.1.tokenizer.json"),
     try Tokenizer.load(path: directory + "/mistral-7b-v0.3.model"))
}

func toyVocabulary() -> TokenVocabulary {
    // Ids 0-3 are tokens; 3 is the end token; ids 4-7 are padding (a logits row of 8).
    TokenVocabulary(tokens: [Array("a".utf8), Array("b".utf8), Array("ab".utf8), Array("</s>".utf8)],
                    specialTokenIDs: [3], eosTokenIDs: [3], size: 8)
}

// MARK: docs/api.md, "3. Compile: one vocabulary index, one compiled grammar"

func compileAorB(for vocabulary: TokenVocabulary) throws -> CompiledGrammar {
    let index = try VocabularyIndex(vocabulary)            // once per vocabulary (under a second for 152k tokens)
    let grammar = try Grammar(regex: "(ab)+")              // whole match: "ab", "abab", ...
    return try CompiledGrammar(grammar, vocabulary: index) // once per grammar (~1 ms for JSON)
}

// MARK: docs/api.md, "4. The matcher loop"

func generate(_ compiled: CompiledGrammar, logits next: (_ tokens: [Int]) -> [Float]) throws -> [Int] {
    var matcher = GrammarMatcher(compiled)
    var sampler = TokenSampler(parameters: .greedy, seed: 0)
    var mask = [UInt32](repeating: 0, count: matcher.maskWordCount)  // allocated once, reused
    var tokens: [Int] = []
    while !matcher.isTerminated {
        try matcher.fillNextTokenMask(into: &mask)   // bit t % 32 of word t / 32: token t allowed
        let logits = next(tokens)                    // your model: vocabulary.size floats
        let token = try sampler.sample(logits: logits, mask: mask)
        try matcher.accept(token: token)
        tokens.append(token)
    }
    return tokens
}

// MARK: docs/api.md, "5. Masks and sampling"

func firstTokens(_ compiled: CompiledGrammar) throws -> [String] {
    var matcher = GrammarMatcher(compiled)
    let mask = try matcher.nextTokenMask()            // TokenMask: words, isAllowed(_:), allowedTokens, count
    precondition(!mask.isAllowed(1))                  // "b" cannot start "(ab)+"
    let vocabulary = compiled.vocabulary.vocabulary
    return mask.allowedTokens.map { String(decoding: vocabulary.tokenBytes($0), as: UTF8.self) }
}

func sampleMasked(_ mask: TokenMask, logits: [Float], seed: UInt64) throws -> Int {
    var masked = logits
    try LogitMask.apply(mask.words, to: &masked)      // disallowed logits become −∞
    var sampler = TokenSampler(parameters: SamplingParameters(temperature: 0.7, topK: 40, topP: 0.95),
                               seed: seed)
    return try sampler.sample(maskedLogits: masked)
}

// MARK: docs/api.md, "6. Grammars: GBNF, regex, JSON Schema"

func grammarsAccept() throws -> [Bool] {
    let tuple = try Grammar(gbnf: #"""
        root ::= "(" num ("," num)* ")"
        num  ::= [0-9]+
        """#)
    let phone = try Grammar(regex: #"\d{3}-\d{4}"#)    // the whole text must match
    return [try tuple.accepts(text: "(1,22)"), try tuple.accepts(text: "(1,)"),
            try phone.accepts(text: "555-0100"), try phone.accepts(text: "call 555-0100")]
}

func schemaGrammar() throws -> Grammar {
    try JSONSchemaCompiler.compile(
        text: #"{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}"#,
        options: JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets))
}

// MARK: docs/api.md, "7. Which JSON Schema front end"

func frontEnds(_ schemaText: String) -> (compiles: Bool, imports: Bool) {
    let compiles = (try? JSONSchemaCompiler.compile(text: schemaText)) != nil
    let imports = (try? OutputSchema(jsonSchemaText: schemaText)) != nil
    return (compiles, imports)
}

func ignoredWords(_ schemaText: String) throws -> [String] {
    let compilation = try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(schemaText))
    return compilation.warnings.map(\.description)   // ["unknown keyword 'propertis' at the root: did you mean 'properties'?; ignored"]
}

// MARK: docs/api.md, "8. Sessions, local: `GuidedSession` over a `LogitsBackend`"

struct UniformEngine: LogitsBackend {
    struct Context { var tokens: [Int] = [] }
    let vocabulary: TokenVocabulary

    func makeContext() -> Context { Context() }

    func append(_ tokens: UnsafeBufferPointer<Int>, to context: inout Context,
                logits: UnsafeMutableBufferPointer<Float>) throws {
        context.tokens += tokens                     // a real engine runs its model on the new tokens
        for i in logits.indices { logits[i] = 0 }    // and writes vocabulary.size logits
    }
}

struct Forecast: Decodable, Sendable, GuidedGenerable {
    let city: String
    let celsius: Int
    static var schemaHints: [PropertyHint] {
        [PropertyHint("city", guides: .anyOf(["Oslo", "Lima"])), PropertyHint("celsius", guides: .range(-40...50))]
    }
}

func forecast(tokenizer: Tokenizer) async throws -> Forecast {
    let session = GuidedSession(backend: UniformEngine(vocabulary: tokenizer.vocabulary), tokenizer: tokenizer,
                                instructions: "Answer in JSON.")
    let response = try await session.respond(to: "The weather in Lima?", generating: Forecast.self,
                                             options: .greedy(maximumResponseTokens: 64))
    return response.content                          // fits the schema; rawText and tokens are there too
}

// MARK: docs/api.md, "9. Sessions, remote: `ChatClient` and `ServerBackend`"

func makeServer() -> ServerBackend {
    let endpoint = ChatEndpoint(baseURL: URL(string: "http://127.0.0.1:8080/v1")!,
                                apiKeyEnvironmentVariable: "OPENAI_API_KEY")
    let client = ChatClient(endpoint: endpoint, dialect: .llamaCppPython)
    return ServerBackend(client: client, model: "local", enforcement: .serverBestEffort, maximumRetries: 2)
}

func askServer(_ server: ServerBackend) async throws -> JSONValue {
    let schema = try JSONParser.parse(#"{"type": "object", "properties": {"city": {"type": "string"}}}"#)
    let generation = try await server.generate(schema: schema, messages: [.user("Name a city.")])
    return generation.value                          // generation.attempts: what each try did
}

// MARK: docs/api.md, "10. schema-check in code"

func probe(_ baseURL: URL, model: String) async throws -> ServerEnforcement {
    let probes = try SchemaCheckProbe.load(directory: URL(fileURLWithPath: "Corpora/probes"))
    let runner = SchemaCheckRunner(options: SchemaCheckOptions(baseURL: baseURL, model: model), probes: probes)
    let report = try await runner.run()
    print(report.verdictLine)                        // e.g. "verdict: strict (14/14 probes enforced)"
    return report.enforcement
}

// MARK: - Checks of what the page says

/// The Qwen2 tokenizer from ../shared, loaded once for the tests that need a real vocabulary.
enum DocFixture {
    static let qwen2: Result<Tokenizer, any Error> = Result { try loadQwen2(SharedData.path("vocab/qwen2.tiktoken")) }
}

/// A type whose schema derives and exports but that the grammar compiler refuses (section 7).
struct RepeatedWord: Decodable, Sendable, GuidedGenerable {
    let text: String
    static var schemaHints: [PropertyHint] { [PropertyHint("text", guides: .pattern(#"^(\w+) \1$"#))] }
}

@Suite struct APIDocExampleTests {
    @Test(.enabled(if: SharedData.present(for: "APIDocExampleTests (shared vocabularies)"))) func qwen2PresetAndPaddedWidth() throws {
        let tokenizer = try DocFixture.qwen2.get()
        #expect(tokenizer.vocabulary.tokenCount == 151_851)
        #expect(tokenizer.vocabulary.size == 151_936)
        #expect(tokenizer.vocabulary.eosTokenIDs == [151_643, 151_645])
        #expect(tokenizer.specialTokenID("<|im_start|>") == 151_644)
    }

    @Test(.enabled(if: SharedData.present(for: "APIDocExampleTests (shared vocabularies)"))) func mistralTokenizersNameTheirOwnSpecialTokens() throws {
        let (huggingFace, sentencePiece) = try loadMistral(SharedData.path("vocab"))
        #expect(huggingFace.format == .huggingFace)
        #expect(huggingFace.vocabulary.size == 32_000)
        #expect(huggingFace.vocabulary.eosTokenIDs == [2])
        #expect(sentencePiece.format == .sentencePiece)
        #expect(sentencePiece.vocabulary.size == 32_768)
        #expect(sentencePiece.vocabulary.eosTokenIDs == [2])
    }

    @Test func toyVocabularyIsPadded() throws {
        let toy = toyVocabulary()
        #expect(toy.tokenCount == 4)
        #expect(toy.size == 8)
        #expect(try compileAorB(for: toy).vocabulary.maskWords == 1)
        // A grammar every token fits (and that may end at once): all four tokens, no padding id.
        let anything = try CompiledGrammar(Grammar(regex: "[ab]*"), vocabulary: VocabularyIndex(toy))
        var matcher = GrammarMatcher(anything)
        #expect(try Array(matcher.nextTokenMask().allowedTokens) == [0, 1, 2, 3])
    }

    @Test func unpaddedVocabularyFailsOnTheFirstStep() throws {
        // A mask over 151,851 tokens has 4,746 words; a logits row of 151,936 needs 4,748.
        let mask = [UInt32](repeating: ~0, count: LogitMask.wordCount(tokenCount: 151_851))
        var sampler = TokenSampler(parameters: .greedy, seed: 0)
        #expect(throws: SamplingError.maskTooShort(words: 4_746, required: 4_748)) {
            try sampler.sample(logits: [Float](repeating: 0, count: 151_936), mask: mask)
        }
    }

    @Test func matcherLoopEndsWhereTheGrammarCan() throws {
        let compiled = try compileAorB(for: toyVocabulary())
        // The end token (3) is preferred, so it is taken as soon as the mask allows it.
        let tokens = try generate(compiled) { _ in [0, 0, 0, 5, 9, 9, 9, 9] }
        #expect(tokens == [0, 1, 3])
    }

    @Test func firstMaskOfAorB() throws {
        let compiled = try compileAorB(for: toyVocabulary())
        #expect(try firstTokens(compiled) == ["a", "ab"])
    }

    @Test func sampleMaskedDrawsOnlyAllowedTokens() throws {
        let mask = TokenMask(allowing: [0, 2], tokenCount: 8)
        let logits: [Float] = [0, 9, 1, 9, 9, 9, 9, 9]
        for seed in 0..<32 as Range<UInt64> {
            #expect([0, 2].contains(try sampleMasked(mask, logits: logits, seed: seed)))
        }
    }

    @Test func grammarsAcceptAsThePageSays() throws {
        #expect(try grammarsAccept() == [true, false, true, false])
    }

    @Test func schemaGrammarNeedsTheMatcherToCheck() throws {
        let grammar = try schemaGrammar()
        // Member sets are enforced by the mask engine, which the reference recognizer cannot read.
        #expect(throws: ReferenceRecognizerError.self) { try grammar.accepts(text: #"{"n":1}"#) }
        let compiled = try CompiledGrammar(grammar, vocabulary: VocabularyIndex(toyVocabulary()))
        #expect(try compiled.accepts(text: #"{"n":1}"#))
        #expect(try !compiled.accepts(text: #"{"n":1.5}"#))
        #expect(try !compiled.accepts(text: #"{}"#))
    }

    @Test func frontEndTable() throws {
        func row(_ schema: String) -> [Bool] { let r = frontEnds(schema); return [r.compiles, r.imports] }
        #expect(row(#"{"allOf": [{"type": "integer"}, {"minimum": 0}]}"#) == [true, false])
        #expect(row(#"{"type": "string", "format": "regex"}"#) == [true, true])
        #expect(row(#"{"type": "string", "pattern": "^(\\w+) \\1$"}"#) == [false, true])
        #expect(row(#"{"type": "string", "format": "color"}"#) == [true, false])
        #expect(row(#"{"type": "array", "uniqueItems": true}"#) == [true, false])
        #expect(row(#"{"type": "array", "items": {"type": "boolean"}, "uniqueItems": true}"#) == [false, false])
        #expect(row(#"{"type": "array", "items": {"type": "string"}, "uniqueItems": true}"#) == [true, false])
        #expect(row(#"{"type": "integer", "minimum": 0}"#) == [true, true])
    }

    @Test func typoIsAWarningNotARefusal() throws {
        #expect(try ignoredWords(#"{"type": "object", "propertis": {"a": {"type": "string"}}}"#)
                == ["unknown keyword 'propertis' at the root: did you mean 'properties'?; ignored"])
        #expect(frontEnds(#"{"type": "object", "propertis": {"a": {"type": "string"}}}"#) == (true, false))
    }

    @Test func frontEndRefusalsNameTheKeyword() {
        do {
            _ = try OutputSchema(jsonSchemaText: #"{"allOf": [{"type": "integer"}, {"minimum": 0}]}"#)
            Issue.record("allOf imported")
        } catch {
            guard case .unsupportedKeyword(let keyword, _, _) = error else { Issue.record("\(error)"); return }
            #expect(keyword == "allOf")
        }
        do {
            _ = try JSONSchemaCompiler.compile(text: #"{"type": "string", "pattern": "^(\\w+) \\1$"}"#)
            Issue.record("a backreference compiled")
        } catch {
            #expect(error.kind == .unsupported)
            #expect(error.keyword == "pattern")
        }
        let unique = #"{"type": "array", "uniqueItems": true}"#
        do {
            _ = try OutputSchema(jsonSchemaText: unique)
            Issue.record("uniqueItems imported")
        } catch {
            guard case .unsupportedKeyword(let keyword, _, _) = error else { Issue.record("\(error)"); return }
            #expect(keyword == "uniqueItems")
        }
        do {
            _ = try JSONSchemaCompiler.compile(text: #"{"type": "array", "items": {"type": "boolean"}, "uniqueItems": true}"#)
            Issue.record("uniqueItems compiled")
        } catch {
            #expect(error.keyword == "uniqueItems")
        }
        // A format no draft defines is an annotation (the drafts' rule); `.refuse` is the opt-in to refuse it.
        // Defined formats are enforced under either policy (`regex` as a subset of ECMA-262 patterns).
        #expect(throws: Never.self) { try JSONSchemaCompiler.compile(text: #"{"type": "string", "format": "color"}"#) }
        #expect(throws: JSONSchemaCompileError.self) {
            try JSONSchemaCompiler.compile(text: #"{"type": "string", "format": "color"}"#,
                                           options: JSONSchemaCompileOptions(unknownFormats: .refuse))
        }
        #expect(throws: Never.self) {
            try JSONSchemaCompiler.compile(text: #"{"type": "string", "format": "regex"}"#,
                                           options: JSONSchemaCompileOptions(unknownFormats: .refuse))
        }
    }

    @Test(.enabled(if: SharedData.present(for: "APIDocExampleTests (shared vocabularies)"))) func localSessionFitsTheSchema() async throws {
        let result = try await forecast(tokenizer: DocFixture.qwen2.get())
        // Uniform logits under greedy sampling take the lowest allowed id at every step: a fixed value.
        #expect(result.city == "Lima")
        #expect(result.celsius == 0)
    }

    @Test(.enabled(if: SharedData.present(for: "APIDocExampleTests (shared vocabularies)"))) func typeTheCompilerRefusesFailsInTheSession() async throws {
        #expect(throws: Never.self) { try RepeatedWord.outputSchema.jsonSchemaText() }
        let tokenizer = try DocFixture.qwen2.get()
        let session = GuidedSession(backend: UniformEngine(vocabulary: tokenizer.vocabulary), tokenizer: tokenizer)
        do {
            _ = try await session.respond(to: "A repeated word", generating: RepeatedWord.self)
            Issue.record("a schema with a backreference was generated")
        } catch let error as GuidedSessionError {
            guard case .schemaRefused(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.keyword == "pattern")
        }
    }

    @Test func serverBackendConfiguration() throws {
        let server = makeServer()
        #expect(server.capabilities.enforcement == .serverBestEffort)
        #expect(server.maximumRetries == 2)
        #expect(try server.client.endpoint.requestURL().absoluteString == "http://127.0.0.1:8080/v1/chat/completions")
        #expect(server.client.dialect == .llamaCppPython)
    }

    @Test func probesTheExampleLoadsExist() throws {
        let directory = SharedData.projectRoot.appendingPathComponent("Corpora/probes")
        // The 14 of the page's sample verdict line.
        #expect(try SchemaCheckProbe.load(directory: directory).count == 14)
    }
}
