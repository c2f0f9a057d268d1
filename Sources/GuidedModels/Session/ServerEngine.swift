import GuidedGrammar
import GuidedSchema

/// The session's engine over a `ServerBackend`: the instructions as a system message and the prompt as
/// a user message; the backend enforces what the server enforces, watches the stream with the exact
/// recognizer (early abort), validates and retries.
struct ServerEngine: Sendable {
    let backend: ServerBackend
    let instructions: String?

    /// Of `DecodingOptions`, a server request honours `maximumResponseTokens` (its `max_tokens`). Stop
    /// strings and `useMask: false` have no server meaning here and are refused. Sampling and seed are the
    /// backend's (`ServerBackend.sampling`); the schema always goes into the prompt unless the server is
    /// strict; `schemaCompilation` shapes the local mask only (the recognizer's options are fixed).
    func generate(_ prompt: String, schema: JSONValue, options: DecodingOptions,
                  onText: (@Sendable ([UInt8], Int) -> Void)?) async throws -> EngineOutput {
        if !options.stopStrings.isEmpty { throw GuidedSessionError.unsupportedOnServer("stop strings") }
        if !options.useMask { throw GuidedSessionError.unsupportedOnServer("useMask: false") }
        var backend = backend
        backend.maxTokens = max(1, options.maximumResponseTokens)
        var messages: [ChatMessage] = []
        if let instructions { messages.append(.system(instructions)) }
        messages.append(.user(prompt))
        let generation: ServerGeneration
        do { generation = try await backend.generate(schema: schema, messages: messages, onText: onText) } catch {
            throw GuidedSessionError.server(error)
        }
        // The server's tokens are not known here (only its text): no ids, none forced.
        return EngineOutput(value: generation.value, text: generation.text, tokens: [], forcedTokenCount: 0,
                            enforcement: EnforcementMode(generation.enforcement), stopReason: .endOfSequence,
                            attempts: generation.attempts)
    }
}

extension ServerEngine {
    /// A response with tools over the server: the tools in the request, the calls checked and retried by
    /// `ServerBackend.generateToolCalls`. Reasoning budgets and builtin tools are the local formats'
    /// options and have no meaning here; the text streamed is the content, as it arrives, per attempt.
    func generateTools(_ prompt: String, tools: [ToolDefinition], toolOptions: ToolCallOptions, options: DecodingOptions,
                       onText: (@Sendable ([UInt8], Int) -> Void)?) async throws -> GuidedToolResponse {
        if !options.stopStrings.isEmpty { throw GuidedSessionError.unsupportedOnServer("stop strings") }
        var backend = backend
        backend.maxTokens = max(1, options.maximumResponseTokens)
        var messages: [ChatMessage] = []
        if let instructions { messages.append(.system(instructions)) }
        messages.append(.user(prompt))
        let choice: ToolChoice
        switch toolOptions.toolChoice {
        case .auto: choice = .auto
        case .none: choice = .none
        case .required: choice = .required
        case .named(let name): choice = .function(name)
        }
        let chatTools = tools.map { ChatTool(name: $0.name, description: $0.description, parameters: $0.parameters) }
        let generation: ServerToolGeneration
        do {
            generation = try await backend.generateToolCalls(tools: chatTools, toolChoice: choice,
                                                             parallelToolCalls: toolOptions.parallelCalls ? nil : false, messages: messages)
        } catch {
            throw GuidedSessionError.server(error)
        }
        let calls = zip(generation.calls, generation.arguments).map { GuidedToolCall(name: $0.name, arguments: $1, id: $0.id.isEmpty ? nil : $0.id) }
        onText?(Array(generation.content.utf8), generation.attempts.last?.chunksReceived ?? 0)
        return GuidedToolResponse(reasoning: generation.reasoning, text: generation.content, toolCalls: calls,
                                  rawText: generation.attempts.last?.text ?? generation.content, tokens: [],
                                  enforcement: EnforcementMode(generation.enforcement), stopReason: .endOfSequence,
                                  attempts: generation.attempts)
    }
}
