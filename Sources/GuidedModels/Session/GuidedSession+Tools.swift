import GuidedGrammar
import GuidedSchema

extension GuidedSession {
    /// Responds to `prompt` with text or calls of `tools`, in the model family's tool-call `format`.
    ///
    /// Over a `LogitsBackend` the whole output is masked by the format's grammar: reasoning only where
    /// the format has it (and within its budget), text only where `toolOptions.toolChoice` allows it,
    /// and every call of a declared tool with arguments that fit its schema. Over a server, the tools go
    /// in the request (`tools`, `tool_choice`, `parallel_tool_calls`); every call's arguments are
    /// validated (and, unless the server is strict, watched as they stream), and a response that does
    /// not fit is retried (`format` is unused: the server applies its own template).
    public func respond(to prompt: String, tools: [any GuidedTool.Type], format: ToolCallFormat,
                        toolOptions: ToolCallOptions = ToolCallOptions(),
                        options: DecodingOptions = DecodingOptions()) async throws -> GuidedToolResponse {
        try await respond(to: prompt, toolDefinitions: try Self.definitions(tools), format: format, toolOptions: toolOptions, options: options)
    }

    /// `respond(to:tools:format:)` with tools given as definitions (name, description, JSON Schema).
    public func respond(to prompt: String, toolDefinitions tools: [ToolDefinition], format: ToolCallFormat,
                        toolOptions: ToolCallOptions = ToolCallOptions(),
                        options: DecodingOptions = DecodingOptions()) async throws -> GuidedToolResponse {
        try await generateTools(prompt, tools: tools, format: format, toolOptions: toolOptions, options: options, onText: nil)
    }

    /// Streams snapshots while responding with tools; the last snapshot holds the response.
    public func streamResponse(to prompt: String, tools: [any GuidedTool.Type], format: ToolCallFormat,
                               toolOptions: ToolCallOptions = ToolCallOptions(),
                               options: DecodingOptions = DecodingOptions()) -> AsyncThrowingStream<GuidedToolSnapshot, any Error> {
        let (stream, continuation) = AsyncThrowingStream<GuidedToolSnapshot, any Error>.makeStream()
        let reasoning = toolOptions.reasoning != .off
        let task = Task {
            do {
                let definitions = try Self.definitions(tools)
                let response = try await self.generateTools(prompt, tools: definitions, format: format, toolOptions: toolOptions,
                                                            options: options) { bytes, count in
                    let text = String(decoding: bytes, as: UTF8.self)
                    let s = format.snapshot(text, reasoning: reasoning)
                    continuation.yield(GuidedToolSnapshot(
                        reasoning: s.reasoning, text: s.content, toolCalls: s.calls.map(Self.call),
                        pendingCall: s.pending.map { ($0.name, $0.arguments) }, rawText: text, tokenCount: count, response: nil))
                }
                continuation.yield(GuidedToolSnapshot(reasoning: response.reasoning, text: response.text, toolCalls: response.toolCalls,
                                                      pendingCall: nil, rawText: response.rawText, tokenCount: response.tokens.count,
                                                      response: response))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    static func definitions(_ tools: [any GuidedTool.Type]) throws(GuidedSessionError) -> [ToolDefinition] {
        var out: [ToolDefinition] = []
        for t in tools { out.append(try t.definition()) }
        return out
    }

    static func call(_ c: ToolInvocation) -> GuidedToolCall { GuidedToolCall(name: c.name, arguments: c.arguments, id: c.id) }

    private func generateTools(_ prompt: String, tools: [ToolDefinition], format: ToolCallFormat, toolOptions: ToolCallOptions,
                               options: DecodingOptions,
                               onText: (@Sendable ([UInt8], Int) -> Void)?) async throws -> GuidedToolResponse {
        switch engine {
        case .local(let l):
            let (turn, outcome) = try await l.generateTools(prompt, tools: tools, format: format, toolOptions: toolOptions,
                                                            options: options, onToken: onText)
            return GuidedToolResponse(reasoning: turn.reasoning, text: turn.content, toolCalls: turn.calls.map(Self.call),
                                      rawText: outcome.text, tokens: outcome.tokens, enforcement: .tokenMask,
                                      stopReason: outcome.stopReason)
        case .server(let s):
            return try await s.generateTools(prompt, tools: tools, toolOptions: toolOptions, options: options, onText: onText)
        }
    }
}
