import Foundation
import GuidedGrammar
import GuidedMask
import GuidedSchema
import GuidedTokenizers

/// Generates structured values from a prompt, over a local engine that yields logits or over a chat
/// server, in the shape Swift developers know from FoundationModels — `respond(to:generating:)`,
/// `streamResponse`, snapshots — under names of its own, so both can be imported.
///
/// ```swift
/// let local = GuidedSession(backend: backend, tokenizer: tokenizer, instructions: "You plan trips.")
/// let remote = GuidedSession(server: ServerBackend(client: client, model: "qwen"), instructions: "You plan trips.")
/// let trip = try await local.respond(to: "A weekend in Paris", generating: Trip.self)
/// print(trip.enforcement)   // .tokenMask locally; .serverStrict, .serverBestEffort or .validatedOnly remotely
/// ```
///
/// Over a `LogitsBackend` (`.tokenMask`), a returned value always fits the schema: the grammar masks every
/// step, end tokens are allowed only where the value is complete, and a budget that runs out first throws
/// `incompleteOutput` with the partial value instead of returning a truncated one. Over a `ServerBackend`,
/// a returned value has passed the validator whatever the server enforces; the stream is cancelled at the
/// first byte no valid value can have and retried (`GuidedSessionError.server` lists every attempt when
/// none fits). Each response starts afresh (no transcript is kept).
public final class GuidedSession: Sendable {
    /// The engine a session runs on: one case per kind of backend.
    enum Engine: Sendable {
        case local(LocalEngine)
        case server(ServerEngine)
    }

    let engine: Engine
    public let instructions: String?
    public let cache: GrammarCompilationCache

    /// A session over a local engine: `tokenizer` encodes the prompt rendered by `template`.
    public init(backend: any LogitsBackend, tokenizer: Tokenizer, instructions: String? = nil,
                template: PromptTemplate = .chatML, cache: GrammarCompilationCache = .shared) {
        self.instructions = instructions
        self.cache = cache
        engine = .local(LocalEngine(backend: backend, tokenizer: tokenizer, instructions: instructions,
                                    template: template, cache: cache))
    }

    /// A session over a chat server: `instructions` become the system message. The server's chat template
    /// and tokenizer apply; `cache` is unused (kept for symmetry, the server compiles nothing here).
    public init(server: ServerBackend, instructions: String? = nil, cache: GrammarCompilationCache = .shared) {
        self.instructions = instructions
        self.cache = cache
        engine = .server(ServerEngine(backend: server, instructions: instructions))
    }

    /// The backend the session generates with (`any LogitsBackend` or a `ServerBackend`).
    public var backend: any GuidedBackend {
        switch engine {
        case .local(let l): return l.backend
        case .server(let s): return s.backend
        }
    }

    /// The tokenizer of a local session; nil over a server.
    public var tokenizer: Tokenizer? {
        if case .local(let l) = engine { return l.tokenizer }
        return nil
    }

    /// The prompt template of a local session; nil over a server (the server applies its own).
    public var template: PromptTemplate? {
        if case .local(let l) = engine { return l.template }
        return nil
    }

    /// The backend's capabilities (`.tokenMask` enforcement for local logits; for a server, what it was
    /// configured or measured to enforce).
    public var capabilities: BackendCapabilities { backend.capabilities }

    private func local(_ call: String) throws(GuidedSessionError) -> LocalEngine {
        guard case .local(let l) = engine else { throw .unsupportedOnServer(call) }
        return l
    }

    /// The vocabulary index the masks are computed over (local sessions only).
    public func vocabularyIndex() async throws -> VocabularyIndex {
        try await local("vocabularyIndex()").vocabularyIndex()
    }

    // MARK: Prewarm

    /// Compiles the grammar of `type` in the background so that the first response starts at once (a
    /// server session has nothing to compile ahead: it returns at once).
    public func prewarm<T: GuidedGenerable>(for type: T.Type, options: DecodingOptions = DecodingOptions()) async throws {
        try await prewarm(schema: Self.schema(of: type), options: options)
    }

    public func prewarm(schema: JSONValue, options: DecodingOptions = DecodingOptions()) async throws {
        guard case .local(let l) = engine else { return }
        let grammar = try cache.grammar(forSchema: schema, options: options.schemaCompilation)
        cache.prewarm(grammar, vocabulary: try await l.vocabularyIndex())
    }

    // MARK: Respond

    /// Generates a value of `type` (its `outputSchema`, exported as standard JSON Schema), decoded with
    /// `decoder` (its `dateDecodingStrategy` says how dates are read).
    public func respond<T: GuidedGenerable & Sendable>(to prompt: String, generating type: T.Type,
                                                       options: DecodingOptions = DecodingOptions(),
                                                       decoder: JSONValueDecoder = JSONValueDecoder()) async throws -> GuidedResponse<T> {
        try await generate(prompt, schema: Self.schema(of: type), options: options, onText: nil) { value in
            try Self.decode(type, value, decoder)
        }
    }

    /// Generates a JSON value for a JSON Schema.
    public func respond(to prompt: String, schema: JSONValue,
                        options: DecodingOptions = DecodingOptions()) async throws -> GuidedResponse<JSONValue> {
        try await generate(prompt, schema: schema, options: options, onText: nil) { $0 }
    }

    /// Generates free text (no schema, no mask; local sessions only).
    public func respondText(to prompt: String, options: DecodingOptions = DecodingOptions()) async throws -> GuidedResponse<String> {
        let l = try local("respondText")
        let outcome = try l.decode(prompt, grammar: nil, schemaText: nil, options: options, onToken: nil)
        return GuidedResponse(content: outcome.text, jsonValue: try? JSONParser.parse(outcome.text), rawText: outcome.text,
                              tokens: outcome.tokens, forcedTokenCount: 0, enforcement: .none, stopReason: outcome.stopReason)
    }

    /// The raw decode: tokens, bytes, forced/sampled counts and (with `measureBackend`) the time spent in
    /// the backend, without parsing or decoding the value. `schema == nil` or `options.useMask == false`
    /// decodes free text. For benchmarks and tools that judge the output themselves (local sessions only).
    public func decodeOutcome(to prompt: String, schema: JSONValue?, options: DecodingOptions = DecodingOptions(),
                              measureBackend: Bool = false) async throws -> DecodeOutcome {
        let l = try local("decodeOutcome")
        var compiled: CompiledGrammar?
        if let schema { compiled = try await l.compiled(schema, options: options) }
        let schemaText = options.includeSchemaInPrompt ? schema?.serialized() : nil
        return try l.decode(prompt, grammar: compiled, schemaText: schemaText, options: options,
                            measureBackend: measureBackend, onToken: nil)
    }

    /// The prompt's tokens: instructions (plus the schema, when asked) and prompt through the template
    /// (local sessions only).
    public func promptTokens(_ prompt: String, schemaText: String?) throws -> [Int] {
        try local("promptTokens").promptTokens(prompt, schemaText: schemaText)
    }

    // MARK: Stream

    /// Streams snapshots while generating a value of `type`; the last snapshot holds the final value.
    /// Over a server, a snapshot follows each streamed chunk, and a retried attempt starts its text again.
    public func streamResponse<T: GuidedGenerable & Sendable>(to prompt: String, generating type: T.Type,
                                                              options: DecodingOptions = DecodingOptions(),
                                                              decoder: JSONValueDecoder = JSONValueDecoder()) -> GuidedResponseStream<T> {
        stream { session, onText in
            try await session.generate(prompt, schema: Self.schema(of: type), options: options, onText: onText) { value in
                try Self.decode(type, value, decoder)
            }
        }
    }

    /// Streams snapshots while generating a JSON value for a JSON Schema.
    public func streamResponse(to prompt: String, schema: JSONValue,
                               options: DecodingOptions = DecodingOptions()) -> GuidedResponseStream<JSONValue> {
        stream { session, onText in
            try await session.generate(prompt, schema: schema, options: options, onText: onText) { $0 }
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

    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue,
                                     _ decoder: JSONValueDecoder = JSONValueDecoder()) throws -> T {
        do { return try decoder.decode(type, from: value) } catch {
            throw GuidedSessionError.typeDecoding("\(T.self): \(error)")
        }
    }

    private func generate<C: Sendable>(_ prompt: String, schema: JSONValue, options: DecodingOptions,
                                       onText: (@Sendable ([UInt8], Int) -> Void)?,
                                       convert: (JSONValue) throws -> C) async throws -> GuidedResponse<C> {
        let output: EngineOutput
        switch engine {
        case .local(let l): output = try await l.generate(prompt, schema: schema, options: options, onToken: onText)
        case .server(let s): output = try await s.generate(prompt, schema: schema, options: options, onText: onText)
        }
        return GuidedResponse(content: try convert(output.value), jsonValue: output.value, rawText: output.text,
                              tokens: output.tokens, forcedTokenCount: output.forcedTokenCount,
                              enforcement: output.enforcement, stopReason: output.stopReason, attempts: output.attempts)
    }
}
