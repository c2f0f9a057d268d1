import GuidedSchema

/// A fragment of a tool call in a stream. Only the first fragment of a call usually carries `id` and
/// `name`; `arguments` arrive piece by piece.
public struct ToolCallDelta: Sendable, Equatable {
    /// The call's position, when the server sent one (OpenAI always does; some servers do not).
    public var index: Int?
    public var id: String?
    public var type: String?
    public var name: String?
    public var arguments: String?

    public init(index: Int?, id: String? = nil, type: String? = nil, name: String? = nil, arguments: String? = nil) {
        self.index = index
        self.id = id
        self.type = type
        self.name = name
        self.arguments = arguments
    }
}

/// What one chunk adds to one choice. Every field is independent: a chunk may carry content and tool
/// calls and a finish reason at once, and none of them hides another.
public struct ChoiceDelta: Sendable, Equatable {
    public var index: Int
    public var role: ChatRole?
    public var content: String?
    public var reasoning: String?
    public var refusal: String?
    public var toolCalls: [ToolCallDelta]
    public var finishReason: FinishReason?

    public init(index: Int, role: ChatRole? = nil, content: String? = nil, reasoning: String? = nil,
                refusal: String? = nil, toolCalls: [ToolCallDelta] = [], finishReason: FinishReason? = nil) {
        self.index = index
        self.role = role
        self.content = content
        self.reasoning = reasoning
        self.refusal = refusal
        self.toolCalls = toolCalls
        self.finishReason = finishReason
    }
}

/// One `chat.completion.chunk` of a stream.
public struct ChatStreamChunk: Sendable, Equatable {
    public var id: String?
    public var model: String?
    public var created: Int?
    public var choices: [ChoiceDelta]
    /// Present in the last chunk when `stream_options.include_usage` was asked for (and the server obliges).
    public var usage: TokenUsage?

    public init(id: String? = nil, model: String? = nil, created: Int? = nil, choices: [ChoiceDelta],
                usage: TokenUsage? = nil) {
        self.id = id
        self.model = model
        self.created = created
        self.choices = choices
        self.usage = usage
    }

    /// Decodes a chunk; an `{"error": …}` envelope becomes a server error (or context size exceeded).
    public init(json document: JSONValue) throws(ChatClientError) {
        if let envelope = ServerErrorEnvelope(document: document) {
            throw ResponseClassifier.classify(envelope: envelope, failure: nil)
        }
        let r = WireReader(context: "stream chunk")
        guard case .object(let o) = document else { throw r.fail("not a JSON object") }
        var choices: [ChoiceDelta] = []
        for (position, raw) in (try r.array(o, "choices") ?? []).enumerated() {
            guard case .object(let c) = raw else { throw r.fail("choice \(position) is not an object") }
            // Some servers put the text under `message` instead of `delta`; read whichever is present.
            var d = JSONObject()
            if let delta = try r.object(c, "delta") { d = delta } else if let m = try r.object(c, "message") { d = m }
            var calls: [ToolCallDelta] = []
            for (k, rawCall) in (try r.array(d, "tool_calls") ?? []).enumerated() {
                guard case .object(let call) = rawCall else { throw r.fail("tool call \(k) is not an object") }
                let f = try r.object(call, "function") ?? JSONObject()
                calls.append(ToolCallDelta(
                    index: try r.int(call, "index"), id: try r.string(call, "id"), type: try r.string(call, "type"),
                    name: try r.string(f, "name"), arguments: try r.string(f, "arguments")))
            }
            choices.append(ChoiceDelta(
                index: try r.int(c, "index") ?? position, role: try r.string(d, "role").map(ChatRole.init(rawValue:)),
                content: try r.string(d, "content"), reasoning: try r.reasoning(d), refusal: try r.string(d, "refusal"),
                toolCalls: calls, finishReason: try r.string(c, "finish_reason").map(FinishReason.init(rawValue:))))
        }
        self.init(id: try r.string(o, "id"), model: try r.string(o, "model"), created: try r.int(o, "created"),
                  choices: choices, usage: try r.usage(o))
    }
}

/// Assembles stream chunks into a `ChatResponse`.
///
/// Text fields append; `id`, `model`, `created`, roles and each tool call's `id`, `type` and `name` are
/// latched by their first non-empty value (servers that repeat them in every chunk do not duplicate them);
/// tool calls are keyed by their `index` (a fragment without one continues the call with the same `id`,
/// starts a new call when it names a function, and otherwise continues the last call); the last finish
/// reason and usage win.
public struct ChatStreamAccumulator: Sendable {
    private struct Choice: Sendable {
        var role: ChatRole?
        var content: String?
        var reasoning: String?
        var refusal: String?
        var calls: [Int: ToolCall] = [:]
        var callOrder: [Int] = []
        var finishReason: FinishReason?
    }

    private var id: String?
    private var model: String?
    private var created: Int?
    private var usage: TokenUsage?
    private var choices: [Int: Choice] = [:]
    private var choiceOrder: [Int] = []

    public init() {}

    /// True once any choice has a finish reason.
    public var hasFinishReason: Bool { choices.values.contains { $0.finishReason != nil } }

    public mutating func add(_ chunk: ChatStreamChunk) {
        ChatStreamAccumulator.latch(&id, chunk.id)
        ChatStreamAccumulator.latch(&model, chunk.model)
        if created == nil { created = chunk.created }
        if let u = chunk.usage { usage = u }
        for delta in chunk.choices {
            if choices[delta.index] == nil {
                choices[delta.index] = Choice()
                choiceOrder.append(delta.index)
            }
            add(delta, to: &choices[delta.index, default: Choice()])
        }
    }

    private func add(_ d: ChoiceDelta, to c: inout Choice) {
        if c.role == nil, let role = d.role, !role.rawValue.isEmpty { c.role = role }
        if let t = d.content { c.content = (c.content ?? "") + t }
        if let t = d.reasoning { c.reasoning = (c.reasoning ?? "") + t }
        if let t = d.refusal { c.refusal = (c.refusal ?? "") + t }
        for call in d.toolCalls {
            let index = ChatStreamAccumulator.resolveIndex(call, in: c)
            if c.calls[index] == nil {
                c.calls[index] = ToolCall(id: "", type: "", name: "", arguments: "")
                c.callOrder.append(index)
            }
            var t = c.calls[index] ?? ToolCall(id: "", type: "", name: "", arguments: "")
            if t.id.isEmpty, let v = call.id { t.id = v }
            if t.type.isEmpty, let v = call.type { t.type = v }
            if t.name.isEmpty, let v = call.name { t.name = v }
            if let a = call.arguments { t.arguments += a }
            c.calls[index] = t
        }
        if let f = d.finishReason { c.finishReason = f }
    }

    private static func resolveIndex(_ call: ToolCallDelta, in c: Choice) -> Int {
        if let index = call.index { return index }
        let next = (c.callOrder.max() ?? -1) + 1
        if let id = call.id, !id.isEmpty {
            return c.callOrder.first { c.calls[$0]?.id == id } ?? next
        }
        if call.name != nil { return next }
        return c.callOrder.last ?? next
    }

    private static func latch(_ slot: inout String?, _ value: String?) {
        if slot?.isEmpty ?? true, let value, !value.isEmpty { slot = value }
    }

    /// The response so far (choices in the order they first appeared).
    public var response: ChatResponse {
        let built = choiceOrder.compactMap { index -> ChatChoice? in
            guard let c = choices[index] else { return nil }
            let calls = c.callOrder.compactMap { k -> ToolCall? in
                guard var t = c.calls[k] else { return nil }
                if t.type.isEmpty { t.type = "function" }
                return t
            }
            let message = ChatMessage(role: c.role ?? .assistant, content: c.content, toolCalls: calls,
                                      reasoning: c.reasoning, refusal: c.refusal)
            return ChatChoice(index: index, message: message, finishReason: c.finishReason)
        }
        return ChatResponse(id: id, model: model, created: created, choices: built, usage: usage)
    }
}
