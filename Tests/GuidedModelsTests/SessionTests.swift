import Foundation
import GuidedMask
import GuidedModels
import GuidedSchema
import GuidedTokenizers
import Testing
import GuidedTestSupport

@Suite("Session", .enabled(if: SharedData.present(for: "SessionTests")))
struct SessionTests {
    @Test func nGramFreeTextIsProseNotJSON() async throws {
        let session = try SessionFixture.session
        var parsed = 0
        for seed in 0..<3 as Range<UInt64> {
            let r = try await session.respondText(to: "Tell me about the town.",
                                                  options: DecodingOptions(maximumResponseTokens: 40, seed: seed))
            #expect(r.enforcement == .none)
            #expect(!r.rawText.isEmpty)
            if r.jsonValue != nil { parsed += 1 }
        }
        #expect(parsed == 0)
    }

    @Test func typedResponseValidatesAndDecodes() async throws {
        let session = try SessionFixture.session
        let schema = try Pet.outputSchema.jsonSchema(for: .standard)
        let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
        for seed in 1...3 as ClosedRange<UInt64> {
            let r = try await session.respond(to: "A pet.", generating: Pet.self,
                                              options: DecodingOptions(maximumResponseTokens: 200, seed: seed))
            #expect(r.enforcement == .tokenMask)
            let value = try JSONParser.parse(r.rawText)
            #expect(validator.validate(value) == [])
            #expect(try JSONValueDecoder().decode(Pet.self, from: value) == r.content)
            #expect(r.forcedTokenCount > 0)
            #expect(r.rawText.hasPrefix("{\"name\":\""))
        }
    }

    @Test func sameSeedSameTokensDifferentSeedsDiffer() async throws {
        let session = try SessionFixture.session
        let options = DecodingOptions(maximumResponseTokens: 200, sampling: SamplingParameters(temperature: 0.9, topP: 0.95), seed: 7)
        let a = try await session.respond(to: "A pet.", generating: Pet.self, options: options)
        let b = try await session.respond(to: "A pet.", generating: Pet.self, options: options)
        #expect(a.tokens == b.tokens)
        var other = options
        var distinct = Set<[Int]>()
        for seed in 100..<104 as Range<UInt64> {
            other.seed = seed
            distinct.insert(try await session.respond(to: "A pet.", generating: Pet.self, options: other).tokens)
        }
        distinct.insert(a.tokens)
        #expect(distinct.count >= 4)
    }

    @Test func anyOfGuideHoldsAgainstAModelThatWantsBeijing() async throws {
        let tokenizer = try SessionFixture.tokenizer
        let preferring = PreferringBackend(base: try SessionFixture.backend, target: #"{"city":"Beijing"}"#, bias: 40)
        let session = GuidedSession(backend: preferring, tokenizer: tokenizer, cache: SessionFixture.cache)
        // Without the mask the model says Beijing.
        var free = DecodingOptions.greedy(maximumResponseTokens: 20)
        free.useMask = false
        let unconstrained = try await session.respond(to: "Where to?", generating: Destination.self, options: free)
        #expect(unconstrained.content.city == "Beijing")
        #expect(unconstrained.enforcement == .none)
        var seen = Set<String>()
        var options = DecodingOptions.greedy(maximumResponseTokens: 40)
        seen.insert(try await session.respond(to: "Where to?", generating: Destination.self, options: options).content.city)
        options.sampling = SamplingParameters(temperature: 1)
        for seed in 0..<8 as Range<UInt64> {
            options.seed = seed
            let r = try await session.respond(to: "Where to?", generating: Destination.self, options: options)
            seen.insert(r.content.city)
            #expect(r.rawText == "{\"city\":\"\(r.content.city)\"}")
        }
        #expect(seen.isSubset(of: ["London", "New York", "Paris"]))
        #expect(!seen.isEmpty)
    }

    @Test func tooSmallBudgetThrowsIncompleteOutputWithPartialValue() async throws {
        let session = try SessionFixture.session
        do {
            let r = try await session.respond(to: "A pet.", generating: Pet.self, options: .greedy(maximumResponseTokens: 12))
            Issue.record("expected incompleteOutput, got \(r.rawText)")
        } catch GuidedSessionError.incompleteOutput(let reason, let partial, let text, let count) {
            #expect(reason == .tokenBudget)
            #expect(count == 12)
            #expect(text.hasPrefix("{\"name\":\""), "\(text)")
            #expect(partial == (try PartialJSONParser.parse(text)).value)
            #expect(partial?.objectValue?["name"]?.stringValue != nil)
            #expect(partial?.objectValue?["indoor"] == nil)
        }
    }

    @Test func stopStringCuttingTheValueIsIncomplete() async throws {
        let session = try SessionFixture.session
        var options = DecodingOptions.greedy(maximumResponseTokens: 100)
        options.stopStrings = ["\"age\""]
        do {
            let r = try await session.respond(to: "A pet.", generating: Pet.self, options: options)
            Issue.record("expected incompleteOutput, got \(r.rawText)")
        } catch GuidedSessionError.incompleteOutput(let reason, let partial, let text, _) {
            #expect(reason == .stopString)
            #expect(text.hasSuffix(","))
            #expect(partial?.objectValue?["name"]?.stringValue != nil)
        }
    }

    @Test func streamingSnapshotsGrowAndEndWithTheValue() async throws {
        let session = try SessionFixture.session
        let stream = session.streamResponse(to: "A pet.", generating: Pet.self, options: DecodingOptions(seed: 3))
        var texts: [String] = []
        var final: GuidedResponse<Pet>?
        for try await snapshot in stream {
            texts.append(snapshot.rawText)
            if let r = snapshot.response { final = r } else if snapshot.rawText.count > 1 {
                #expect(snapshot.partial == (try PartialJSONParser.parse(snapshot.rawText)).value)
            }
        }
        let response = try #require(final)
        #expect(texts.last == response.rawText)
        for (a, b) in zip(texts, texts.dropFirst()) { #expect(b.hasPrefix(a)) }
        let collected = try await session.streamResponse(to: "A pet.", generating: Pet.self, options: DecodingOptions(seed: 3)).collect()
        #expect(collected.tokens == response.tokens)
        #expect(collected.content == response.content)
    }

    @Test func refusedSchemaIsAnError() async throws {
        let session = try SessionFixture.session
        let schema = try JSONParser.parse(#"{"type": "string", "pattern": "(a)\\1"}"#)
        await #expect(throws: GuidedSessionError.self) {
            _ = try await session.respond(to: "x", schema: schema)
        }
    }

    @Test func templates() {
        #expect(PromptTemplate.chatML.render("Be brief.", "Hi") ==
                "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
        #expect(PromptTemplate.chatML.render(nil, "Hi") == "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
        #expect(PromptTemplate.mistralInstruct.render("Be brief.", "Hi") == "[INST] Be brief.\n\nHi [/INST]")
        #expect(PromptTemplate(template: "S: {{instructions}} U: {{prompt}}").render(nil, "Hi") == "S:  U: Hi")
    }

    @Test func compilationCacheSharesOneCompiledGrammar() async throws {
        let session = try SessionFixture.session
        let cache = GrammarCompilationCache()
        let grammar = try cache.grammar(forSchema: try Pet.outputSchema.jsonSchema(for: .standard),
                                        options: DecodingOptions().schemaCompilation)
        let index = try await session.vocabularyIndex()
        cache.prewarm(grammar, vocabulary: index)
        let a = try await cache.compiledGrammar(grammar, vocabulary: index)
        let b = try await cache.compiledGrammar(grammar, vocabulary: index)
        #expect(a === b)
        #expect(cache.count == 1)
    }

    @Test func cancellationStopsTheLoop() async throws {
        let session = try SessionFixture.session
        let task = Task {
            try await session.respondText(to: "Tell me a story.", options: DecodingOptions(maximumResponseTokens: 100_000, seed: 1))
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }
}
