import GuidedSchema

/// A chat-completion request, independent of the server's dialect until `body(dialect:stream:)`.
public struct ChatRequest: Sendable, Equatable {
    public var model: String
    public var messages: [ChatMessage]
    public var sampling: Sampling
    public var maxTokens: Int?
    public var stop: [String]
    public var seed: Int?
    public var tools: [ChatTool]
    public var toolChoice: ToolChoice?
    /// OpenAI's `parallel_tool_calls`: false asks for at most one call; nil leaves it out.
    public var parallelToolCalls: Bool?
    public var output: OutputConstraint?
    /// Ask for a final usage chunk when streaming (`stream_options.include_usage`).
    public var includeUsageInStream: Bool
    /// Members added verbatim after the generated ones; one that collides with a generated member is an
    /// error rather than a silent override.
    public var extraFields: JSONObject

    public init(model: String, messages: [ChatMessage], sampling: Sampling = .serverDefault, maxTokens: Int? = nil,
                stop: [String] = [], seed: Int? = nil, tools: [ChatTool] = [], toolChoice: ToolChoice? = nil,
                parallelToolCalls: Bool? = nil, output: OutputConstraint? = nil, includeUsageInStream: Bool = true, extraFields: JSONObject = JSONObject()) {
        self.model = model
        self.messages = messages
        self.sampling = sampling
        self.maxTokens = maxTokens
        self.stop = stop
        self.seed = seed
        self.tools = tools
        self.toolChoice = toolChoice
        self.parallelToolCalls = parallelToolCalls
        self.output = output
        self.includeUsageInStream = includeUsageInStream
        self.extraFields = extraFields
    }

    /// The JSON body for `dialect`. Throws before anything is sent when the dialect cannot express the
    /// request (an option it lacks, a strict schema outside OpenAI's subset).
    public func body(dialect: StructuredOutputDialect, stream: Bool) throws(ChatClientError) -> JSONValue {
        guard !model.isEmpty else { throw .invalidRequest("empty model name") }
        guard !messages.isEmpty else { throw .invalidRequest("no messages") }
        if let maxTokens, maxTokens < 1 { throw .invalidRequest("max_tokens \(maxTokens) must be ≥ 1") }
        var o = JSONObject()
        o["model"] = .string(model)
        o["messages"] = .array(dialect == .ollama ? messages.map(OllamaWire.message) : messages.map(\.json))
        let sampled = try dialect.samplingMembers(sampling)
        if dialect == .ollama {
            // Ollama's native API takes sampling and limits under `options`.
            var options = JSONObject()
            for (k, v) in sampled { options[k] = v }
            if let seed { options["seed"] = .number(JSONNumber(seed)) }
            if let maxTokens { options["num_predict"] = .number(JSONNumber(maxTokens)) }
            if !stop.isEmpty { options["stop"] = .array(stop.map(JSONValue.string)) }
            if !tools.isEmpty { o["tools"] = .array(tools.map(\.json)) }
            if toolChoice != nil { throw .unsupportedByDialect(dialect: dialect.name, feature: "tool_choice") }
            if parallelToolCalls != nil { throw .unsupportedByDialect(dialect: dialect.name, feature: "parallel_tool_calls") }
            if let output { for (k, v) in try dialect.constraintMembers(output) { o[k] = v } }
            if !options.isEmpty { o["options"] = .object(options) }
            o["stream"] = .bool(stream)
        } else {
            for (k, v) in sampled { o[k] = v }
            if let maxTokens { o["max_tokens"] = .number(JSONNumber(maxTokens)) }
            if !stop.isEmpty { o["stop"] = .array(stop.map(JSONValue.string)) }
            if let seed { o["seed"] = .number(JSONNumber(seed)) }
            if !tools.isEmpty { o["tools"] = .array(tools.map(\.json)) }
            if let toolChoice { o["tool_choice"] = toolChoice.json }
            if let parallelToolCalls { o["parallel_tool_calls"] = .bool(parallelToolCalls) }
            if let output { for (k, v) in try dialect.constraintMembers(output) { o[k] = v } }
            o["stream"] = .bool(stream)
            if stream, includeUsageInStream { o["stream_options"] = ["include_usage": true] }
        }
        for (k, v) in extraFields {
            guard o[k] == nil else { throw .invalidRequest("extra field `\(k)` collides with a generated member") }
            o[k] = v
        }
        return .object(o)
    }
}
