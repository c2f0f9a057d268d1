import Foundation
import GuidedGrammar
import GuidedMask
import GuidedSchema
import GuidedTokenizers

/// Generates structured values from a prompt on a backend that yields logits, in the shape Swift
/// developers know from FoundationModels — `respond(to:generating:)`, `streamResponse`, snapshots — under
/// names of its own, so both can be imported.
///
/// ```swift
/// let session = GuidedSession(backend: backend, tokenizer: tokenizer, instructions: "You plan trips.")
/// let trip = try await session.respond(to: "A weekend in Paris", generating: Trip.self).content
/// ```
///
/// With `.tokenMask` enforcement (every `LogitsBackend`), a returned value always fits the schema: the
/// grammar masks every step, end tokens are allowed only where the value is complete, and a budget that
/// runs out first throws `incompleteOutput` with the partial value instead of returning a truncated one.
/// Each response starts a new backend context (no transcript is kept).
public final class GuidedSession: Sendable {
    public let backend: any LogitsBackend
    public let tokenizer: Tokenizer
    public let instructions: String?
    public let template: PromptTemplate
    public let cache: GrammarCompilationCache
    /// The vocabulary prepared for masking, built in the background from `init`.
    private let index: Task<VocabularyIndex, any Error>

    public init(backend: any LogitsBackend, tokenizer: Tokenizer, instructions: String? = nil,
                template: PromptTemplate = .chatML, cache: GrammarCompilationCache = .shared) {
        self.backend = backend
        self.tokenizer = tokenizer
        self.instructions = instructions
        self.template = template
        self.cache = cache
        let vocabulary = backend.vocabulary
        index = Task.detached(priority: .userInitiated) { try VocabularyIndex(vocabulary) }
    }

    /// The backend's capabilities (`.tokenMask` enforcement for local logits).
    public var capabilities: BackendCapabilities { backend.capabilities }

    /// The vocabulary index the masks are computed over.
    public func vocabularyIndex() async throws -> VocabularyIndex {
        do { return try await index.value } catch { throw GuidedSessionError.grammarCompile("vocabulary: \(error)") }
    }

    // MARK: Prewarm

    /// Compiles the grammar of `type` in the background so that the first response starts at once.
    public func prewarm<T: GuidedGenerable>(for type: T.Type, options: DecodingOptions = DecodingOptions()) async throws {
        try await prewarm(schema: Self.schema(of: type), options: options)
    }

    public func prewarm(schema: JSONValue, options: DecodingOptions = DecodingOptions()) async throws {
        let grammar = try cache.grammar(forSchema: schema, options: options.schemaCompilation)
        cache.prewarm(grammar, vocabulary: try await vocabularyIndex())
    }

    // MARK: Respond

    /// Generates a value of `type` (its `outputSchema`, exported as standard JSON Schema).
    public func respond<T: GuidedGenerable & Sendable>(to prompt: String, generating type: T.Type,
                                                       options: DecodingOptions = DecodingOptions()) async throws -> GuidedResponse<T> {
        try await generate(prompt, schema: Self.schema(of: type), options: options, onToken: nil) { value in
            try Self.decode(type, value)
        }
    }

    /// Generates a JSON value for a JSON Schema.
    public func respond(to prompt: String, schema: JSONValue,
                        options: DecodingOptions = DecodingOptions()) async throws -> GuidedResponse<JSONValue> {
        try await generate(prompt, schema: schema, options: options, onToken: nil) { $0 }
    }

    /// Generates free text (no schema, no mask).
    public func respondText(to prompt: String, options: DecodingOptions = DecodingOptions()) async throws -> GuidedResponse<String> {
        let outcome = try await decode(prompt, grammar: nil, schemaText: nil, options: options, onToken: nil)
        return GuidedResponse(content: outcome.text, jsonValue: try? JSONParser.parse(outcome.text), rawText: outcome.text,
                              tokens: outcome.tokens, forcedTokenCount: 0, enforcement: .none, stopReason: outcome.stopReason)
    }

    /// The raw decode: tokens, bytes, forced/sampled counts and (with `measureBackend`) the time spent in
    /// the backend, without parsing or decoding the value. `schema == nil` or `options.useMask == false`
    /// decodes free text. For benchmarks and tools that judge the output themselves.
    public func decodeOutcome(to prompt: String, schema: JSONValue?, options: DecodingOptions = DecodingOptions(),
                              measureBackend: Bool = false) async throws -> DecodeOutcome {
        var compiled: CompiledGrammar?
        if let schema, options.useMask {
            let grammar = try cache.grammar(forSchema: schema, options: options.schemaCompilation)
            do {
                compiled = try await cache.compiledGrammar(grammar, vocabulary: try await vocabularyIndex())
            } catch let e as GuidedSessionError { throw e } catch { throw GuidedSessionError.grammarCompile("\(error)") }
        }
        let schemaText = options.includeSchemaInPrompt ? schema?.serialized() : nil
        let tokens = try promptTokens(prompt, schemaText: schemaText)
        guard !tokens.isEmpty else { throw GuidedSessionError.backend("the prompt encodes to no tokens") }
        return try Self.runLoop(backend, options: options, grammar: compiled, prompt: tokens,
                                measureBackend: measureBackend, onToken: nil)
    }

    // MARK: Stream

    /// Streams snapshots while generating a value of `type`; the last snapshot holds the final value.
    public func streamResponse<T: GuidedGenerable & Sendable>(to prompt: String, generating type: T.Type,
                                                              options: DecodingOptions = DecodingOptions()) -> GuidedResponseStream<T> {
        stream { session, onToken in
            try await session.generate(prompt, schema: Self.schema(of: type), options: options, onToken: onToken) { value in
                try Self.decode(type, value)
            }
        }
    }

    /// Streams snapshots while generating a JSON value for a JSON Schema.
    public func streamResponse(to prompt: String, schema: JSONValue,
                               options: DecodingOptions = DecodingOptions()) -> GuidedResponseStream<JSONValue> {
        stream { session, onToken in
            try await session.generate(prompt, schema: schema, options: options, onToken: onToken) { $0 }
        }
    }

    private func stream<C: Sendable>(
        _ body: @escaping @Sendable (GuidedSession, @escaping @Sendable ([UInt8], Int) -> Void) async throws -> GuidedResponse<C>
    ) -> GuidedResponseStream<C> {
        let (stream, continuation) = AsyncThrowingStream<GuidedSnapshot<C>, any Error>.makeStream()
        let task = Task {
            do {
                let response = try await body(self) { bytes, count in
                    let partial = (try? PartialJSONParser.parse(bytes: bytes))?.value
                    continuation.yield(GuidedSnapshot(partial: partial, rawText: String(decoding: bytes, as: UTF8.self),
                                                      tokenCount: count, response: nil))
                }
                continuation.yield(GuidedSnapshot(partial: response.jsonValue, rawText: response.rawText,
                                                  tokenCount: response.tokens.count, response: response))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return GuidedResponseStream(stream: stream)
    }

    // MARK: Internals

    static func schema<T: GuidedGenerable>(of type: T.Type) throws(GuidedSessionError) -> JSONValue {
        do {
            return try T.outputSchema.jsonSchema(for: .standard)
        } catch {
            throw .schemaUnavailable("\(T.self): \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws -> T {
        do { return try JSONValueDecoder().decode(type, from: value) } catch {
            throw GuidedSessionError.typeDecoding("\(T.self): \(error)")
        }
    }

    private func generate<C: Sendable>(_ prompt: String, schema: JSONValue, options: DecodingOptions,
                                       onToken: (@Sendable ([UInt8], Int) -> Void)?,
                                       convert: (JSONValue) throws -> C) async throws -> GuidedResponse<C> {
        let schemaText = options.includeSchemaInPrompt ? schema.serialized() : nil
        var compiled: CompiledGrammar?
        if options.useMask {
            let grammar = try cache.grammar(forSchema: schema, options: options.schemaCompilation)
            do {
                compiled = try await cache.compiledGrammar(grammar, vocabulary: try await vocabularyIndex())
            } catch let e as GuidedSessionError { throw e } catch { throw GuidedSessionError.grammarCompile("\(error)") }
        }
        let outcome = try await decode(prompt, grammar: compiled, schemaText: schemaText, options: options, onToken: onToken)
        let text = outcome.text
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch {
            // Only reachable without the mask: the grammar admits complete JSON values only.
            throw GuidedSessionError.incompleteOutput(reason: .tokenBudget, partial: (try? PartialJSONParser.parse(text))?.value,
                                                      text: text, tokenCount: outcome.tokens.count)
        }
        return GuidedResponse(content: try convert(value), jsonValue: value, rawText: text, tokens: outcome.tokens,
                              forcedTokenCount: outcome.forcedTokenCount,
                              enforcement: options.useMask ? .tokenMask : .none, stopReason: outcome.stopReason)
    }

    /// The prompt's tokens: instructions (plus the schema, when asked) and prompt through the template.
    public func promptTokens(_ prompt: String, schemaText: String?) throws -> [Int] {
        var system = instructions
        if let schemaText {
            let line = "Respond with JSON that matches this JSON Schema:\n\(schemaText)"
            system = system.map { "\($0)\n\n\(line)" } ?? line
        }
        do { return try tokenizer.encode(template.render(system, prompt), recognizeSpecialTokens: true) } catch {
            throw GuidedSessionError.backend("cannot encode the prompt: \(error)")
        }
    }

    func decode(_ prompt: String, grammar: CompiledGrammar?, schemaText: String?, options: DecodingOptions,
                onToken: (@Sendable ([UInt8], Int) -> Void)?) async throws -> DecodeOutcome {
        let tokens = try promptTokens(prompt, schemaText: schemaText)
        guard !tokens.isEmpty else { throw GuidedSessionError.backend("the prompt encodes to no tokens") }
        return try Self.runLoop(backend, options: options, grammar: grammar, prompt: tokens, onToken: onToken)
    }

    static func runLoop<B: LogitsBackend>(_ backend: B, options: DecodingOptions, grammar: CompiledGrammar?, prompt: [Int],
                                          measureBackend: Bool = false,
                                          onToken: (@Sendable ([UInt8], Int) -> Void)?) throws -> DecodeOutcome {
        var loop = DecodeLoop(backend: backend, options: options, grammar: grammar)
        loop.measureBackend = measureBackend
        loop.onToken = onToken
        return try loop.run(prompt: prompt)
    }
}
