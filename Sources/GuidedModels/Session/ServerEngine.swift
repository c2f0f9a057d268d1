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
