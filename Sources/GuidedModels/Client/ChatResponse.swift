import GuidedSchema

/// Why generation stopped; a string so new reasons pass through.
public struct FinishReason: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static let stop: FinishReason = "stop"
    /// The token limit was reached: structured output is probably cut short.
    public static let length: FinishReason = "length"
    public static let toolCalls: FinishReason = "tool_calls"
    public static let contentFilter: FinishReason = "content_filter"
    public static let functionCall: FinishReason = "function_call"
}

/// Token counts the server reported.
public struct TokenUsage: Sendable, Equatable {
    public var promptTokens: Int
    public var completionTokens: Int
    public var totalTokens: Int

    public init(promptTokens: Int, completionTokens: Int, totalTokens: Int) {
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.totalTokens = totalTokens
    }
}

/// One choice of a completed response.
public struct ChatChoice: Sendable, Equatable {
    public var index: Int
    public var message: ChatMessage
    /// nil when the server did not say (a stream cut short).
    public var finishReason: FinishReason?

    public init(index: Int, message: ChatMessage, finishReason: FinishReason?) {
        self.index = index
        self.message = message
        self.finishReason = finishReason
    }
}

/// A complete chat response, from a non-streaming call or assembled from a stream.
public struct ChatResponse: Sendable, Equatable {
    public var id: String?
    public var model: String?
    public var created: Int?
    public var choices: [ChatChoice]
    public var usage: TokenUsage?

    public init(id: String? = nil, model: String? = nil, created: Int? = nil, choices: [ChatChoice],
                usage: TokenUsage? = nil) {
        self.id = id
        self.model = model
        self.created = created
        self.choices = choices
        self.usage = usage
    }

    /// The first choice's text, the usual thing to read.
    public var text: String? { choices.first?.message.content }
}

/// Reading wire JSON strictly: a member that is present with the wrong type is an error, null is absent.
struct WireReader {
    let context: String

    func fail(_ what: String) -> ChatClientError { .malformedResponse(reason: "\(context): \(what)", body: "") }

    func string(_ o: JSONObject, _ key: String) throws(ChatClientError) -> String? {
        switch o[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw fail("`\(key)` is not a string")
        }
    }

    func int(_ o: JSONObject, _ key: String) throws(ChatClientError) -> Int? {
        switch o[key] {
        case nil, .null?: return nil
        case .number(let n)?:
            guard let i = n.intValue else { throw fail("`\(key)` is not an integer") }
            return i
        default: throw fail("`\(key)` is not a number")
        }
    }

    func object(_ o: JSONObject, _ key: String) throws(ChatClientError) -> JSONObject? {
        switch o[key] {
        case nil, .null?: return nil
        case .object(let v)?: return v
        default: throw fail("`\(key)` is not an object")
        }
    }

    func array(_ o: JSONObject, _ key: String) throws(ChatClientError) -> [JSONValue]? {
        switch o[key] {
        case nil, .null?: return nil
        case .array(let v)?: return v
        default: throw fail("`\(key)` is not an array")
        }
    }

    func usage(_ o: JSONObject) throws(ChatClientError) -> TokenUsage? {
        guard let u = try object(o, "usage") else { return nil }
        let prompt = try int(u, "prompt_tokens") ?? 0
        let completion = try int(u, "completion_tokens") ?? 0
        return TokenUsage(promptTokens: prompt, completionTokens: completion,
                          totalTokens: try int(u, "total_tokens") ?? prompt + completion)
    }

    /// Reasoning text under any of the names servers use.
    func reasoning(_ o: JSONObject) throws(ChatClientError) -> String? {
        if let r = try string(o, "reasoning_content") { return r }
        return try string(o, "reasoning")
    }
}

extension ChatResponse {
    /// Decodes an OpenAI `chat.completion` object. An `{"error": …}` envelope becomes `.server`.
    public init(json document: JSONValue) throws(ChatClientError) {
        if let envelope = ServerErrorEnvelope(document: document) {
            throw ResponseClassifier.classify(envelope: envelope, failure: nil)
        }
        let r = WireReader(context: "chat completion")
        guard case .object(let o) = document else { throw r.fail("not a JSON object") }
        guard let rawChoices = try r.array(o, "choices") else { throw r.fail("no `choices`") }
        var choices: [ChatChoice] = []
        for (position, raw) in rawChoices.enumerated() {
            guard case .object(let c) = raw else { throw r.fail("choice \(position) is not an object") }
            guard let m = try r.object(c, "message") else { throw r.fail("choice \(position) has no `message`") }
            var calls: [ToolCall] = []
            for (k, rawCall) in (try r.array(m, "tool_calls") ?? []).enumerated() {
                guard case .object(let call) = rawCall else { throw r.fail("tool call \(k) is not an object") }
                let f = try r.object(call, "function") ?? JSONObject()
                calls.append(ToolCall(id: try r.string(call, "id") ?? "", type: try r.string(call, "type") ?? "function",
                                      name: try r.string(f, "name") ?? "", arguments: try r.string(f, "arguments") ?? ""))
            }
            let message = ChatMessage(
                role: ChatRole(rawValue: try r.string(m, "role") ?? "assistant"), content: try r.string(m, "content"),
                toolCalls: calls, reasoning: try r.reasoning(m), refusal: try r.string(m, "refusal"))
            choices.append(ChatChoice(index: try r.int(c, "index") ?? position, message: message,
                                      finishReason: try r.string(c, "finish_reason").map(FinishReason.init(rawValue:))))
        }
        self.init(id: try r.string(o, "id"), model: try r.string(o, "model"), created: try r.int(o, "created"),
                  choices: choices, usage: try r.usage(o))
    }
}
