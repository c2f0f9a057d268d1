import GuidedGrammar
import GuidedMask
import GuidedSchema
import GuidedTokenizers

/// The session's engine over a `LogitsBackend`: prompt through the template and tokenizer, the schema's
/// grammar compiled against the vocabulary (cached), and the decode loop masking every step.
struct LocalEngine: Sendable {
    let backend: any LogitsBackend
    let tokenizer: Tokenizer
    let instructions: String?
    let template: PromptTemplate
    let cache: GrammarCompilationCache
    /// The vocabulary prepared for masking, built in the background from `init`.
    let index: Task<VocabularyIndex, any Error>

    init(backend: any LogitsBackend, tokenizer: Tokenizer, instructions: String?, template: PromptTemplate,
         cache: GrammarCompilationCache) {
        self.backend = backend
        self.tokenizer = tokenizer
        self.instructions = instructions
        self.template = template
        self.cache = cache
        let vocabulary = backend.vocabulary
        index = Task.detached(priority: .userInitiated) { try VocabularyIndex(vocabulary) }
    }

    func vocabularyIndex() async throws(GuidedSessionError) -> VocabularyIndex {
        do { return try await index.value } catch { throw Self.compileError(error) }
    }

    /// The schema's grammar compiled against the vocabulary (nil when `options.useMask` is off).
    func compiled(_ schema: JSONValue, options: DecodingOptions) async throws(GuidedSessionError) -> CompiledGrammar? {
        guard options.useMask else { return nil }
        let grammar = try cache.grammar(forSchema: schema, options: options.schemaCompilation)
        let index = try await vocabularyIndex()
        do { return try await cache.compiledGrammar(grammar, vocabulary: index) } catch { throw Self.compileError(error) }
    }

    /// Vocabulary indexing and grammar compilation both fail with `GrammarCompileError`; the cache's
    /// task erases the type, so it is recovered here.
    static func compileError(_ error: any Error) -> GuidedSessionError {
        if let e = error as? GuidedSessionError { return e }
        if let e = error as? GrammarCompileError { return .grammarCompile(e) }
        return .grammarCompile(.vocabulary("\(error)"))
    }

    /// The prompt's tokens: instructions (plus the schema, when asked, or other system text) and prompt
    /// through the template.
    func promptTokens(_ prompt: String, schemaText: String?, systemText: String? = nil) throws(GuidedSessionError) -> [Int] {
        var system = instructions
        if let schemaText {
            let line = "Respond with JSON that matches this JSON Schema:\n\(schemaText)"
            system = system.map { "\($0)\n\n\(line)" } ?? line
        }
        if let systemText { system = system.map { "\($0)\n\n\(systemText)" } ?? systemText }
        do { return try tokenizer.encode(template.render(system, prompt), recognizeSpecialTokens: true) } catch {
            throw .backend("cannot encode the prompt: \(error)")
        }
    }

    func decode(_ prompt: String, grammar: CompiledGrammar?, schemaText: String?, systemText: String? = nil, options: DecodingOptions,
                measureBackend: Bool = false, onToken: (@Sendable ([UInt8], Int) -> Void)?) throws -> DecodeOutcome {
        let tokens = try promptTokens(prompt, schemaText: schemaText, systemText: systemText)
        guard !tokens.isEmpty else { throw GuidedSessionError.backend("the prompt encodes to no tokens") }
        return try Self.runLoop(backend, options: options, grammar: grammar, prompt: tokens,
                                measureBackend: measureBackend, onToken: onToken)
    }

    /// A JSON value for `schema`: masked (`.tokenMask`), or free text parsed as JSON (`.none`, not
    /// validated: used to show what the mask does).
    func generate(_ prompt: String, schema: JSONValue, options: DecodingOptions,
                  onToken: (@Sendable ([UInt8], Int) -> Void)?) async throws -> EngineOutput {
        let compiled = try await compiled(schema, options: options)
        let schemaText = options.includeSchemaInPrompt ? schema.serialized() : nil
        let outcome = try decode(prompt, grammar: compiled, schemaText: schemaText, options: options, onToken: onToken)
        let text = outcome.text
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch {
            // Only reachable without the mask: the grammar admits complete JSON values only.
            throw GuidedSessionError.incompleteOutput(reason: .tokenBudget, partial: (try? PartialJSONParser.parse(text))?.value,
                                                      text: text, tokenCount: outcome.tokens.count)
        }
        return EngineOutput(value: value, text: text, tokens: outcome.tokens, forcedTokenCount: outcome.forcedTokenCount,
                            enforcement: options.useMask ? .tokenMask : .none, stopReason: outcome.stopReason, attempts: [])
    }

    /// A response with tools: the format's grammar over the whole output (cached like a schema's), the
    /// tools' instructions in the system turn, and the output split into reasoning, text and calls.
    func generateTools(_ prompt: String, tools: [ToolDefinition], format: ToolCallFormat, toolOptions: ToolCallOptions,
                       options: DecodingOptions, onToken: (@Sendable ([UInt8], Int) -> Void)?) async throws -> (AssistantTurn, DecodeOutcome) {
        let grammar: Grammar
        do { grammar = try format.grammar(tools: tools, options: toolOptions) } catch { throw GuidedSessionError.toolFormat(error) }
        let index = try await vocabularyIndex()
        let compiled: CompiledGrammar
        do { compiled = try await cache.compiledGrammar(grammar, vocabulary: index) } catch { throw Self.compileError(error) }
        let system = toolOptions.toolChoice == .none || tools.isEmpty ? nil : format.toolInstructions(tools)
        let outcome = try decode(prompt, grammar: compiled, schemaText: nil, systemText: system, options: options, onToken: onToken)
        let reasoning = toolOptions.reasoning != .off
        do { return (try format.parse(outcome.text, reasoning: reasoning), outcome) } catch {
            throw GuidedSessionError.decoding("the output does not split into the format's parts: \(error)")
        }
    }

    static func runLoop<B: LogitsBackend>(_ backend: B, options: DecodingOptions, grammar: CompiledGrammar?, prompt: [Int],
                                          measureBackend: Bool,
                                          onToken: (@Sendable ([UInt8], Int) -> Void)?) throws -> DecodeOutcome {
        var loop = DecodeLoop(backend: backend, options: options, grammar: grammar)
        loop.measureBackend = measureBackend
        loop.onToken = onToken
        return try loop.run(prompt: prompt)
    }
}

/// What either engine hands the session for one structured response.
struct EngineOutput: Sendable {
    var value: JSONValue
    var text: String
    var tokens: [Int]
    var forcedTokenCount: Int
    var enforcement: EnforcementMode
    var stopReason: DecodeOutcome.StopReason
    var attempts: [ServerAttempt]
}
